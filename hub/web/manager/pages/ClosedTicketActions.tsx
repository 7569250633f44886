/**
 * What the back office may do with a closed ticket (issue 21, item 6): print a copy of its receipt
 * (not fiscal, marked COPY) on a printer, and start a return of some or all of its items. A return is
 * only prepared here: a register pays it out and closes it, which issues the fiscal refund receipt
 * (README "Tickets, kitchen orders and closing"). Each button shows only to a user whose rights the
 * hub would accept.
 */
import { useState } from 'preact/hooks';
import { Field } from '../components/Field';
import { LinkButton, toast, useAction } from '../components/ui';
import { Badge, Button, Notice, Spinner } from '../../shared/ui';
import { api, op, path } from '../lib/api';
import { useAll } from '../lib/data';
import { money, quantity } from '../lib/format';
import { linkHandler } from '../lib/router';
import { useCan, useSession } from '../lib/session';
import { messages } from '../../shared/i18n';
import type { OrderEndpoint, Ticket } from '../../shared/types';

const t = messages({
  printCopy: { en: 'Print a receipt copy', sk: 'Vytlačiť kópiu dokladu', cs: 'Vytisknout kopii dokladu' },
  startReturn: { en: 'Start a return', sk: 'Začať vrátenie', cs: 'Zahájit vrácení' },
  printer: { en: 'Printer', sk: 'Tlačiareň', cs: 'Tiskárna' },
  print: { en: 'Print the copy', sk: 'Vytlačiť kópiu', cs: 'Vytisknout kopii' },
  cancel: { en: 'Cancel', sk: 'Zrušiť', cs: 'Zrušit' },
  copyNote: {
    en: 'A copy marked COPY, not a fiscal receipt: it changes nothing and issues no new receipt.',
    sk: 'Kópia s označením KÓPIA, nie pokladničný doklad: nič nemení a nevydáva nový doklad.',
    cs: 'Kopie s označením KOPIE, není daňový doklad: nic nemění a nevydává nový doklad.',
  },
  noPrinters: { en: 'No active printer is set up (Devices).', sk: 'Nie je nastavená žiadna aktívna tlačiareň (Zariadenia).', cs: 'Není nastavena žádná aktivní tiskárna (Zařízení).' },
  copyQueued: { en: 'A copy of the receipt goes to {name}.', sk: 'Kópia dokladu ide na {name}.', cs: 'Kopie dokladu jde na {name}.' },
  returnTitle: { en: 'What comes back', sk: 'Čo sa vracia', cs: 'Co se vrací' },
  item: { en: 'Item', sk: 'Položka', cs: 'Položka' },
  sold: { en: 'Sold', sk: 'Predané', cs: 'Prodáno' },
  returnedBefore: { en: 'Returned before', sk: 'Už vrátené', cs: 'Již vráceno' },
  back: { en: 'Returning', sk: 'Vracia sa', cs: 'Vrací se' },
  returnQty: { en: 'Quantity of {name} to return', sk: 'Množstvo {name} na vrátenie', cs: 'Množství {name} k vrácení' },
  all: { en: 'All', sk: 'Všetko', cs: 'Vše' },
  none: { en: 'None', sk: 'Nič', cs: 'Nic' },
  create: { en: 'Prepare the return', sk: 'Pripraviť vrátenie', cs: 'Připravit vrácení' },
  returnNote: {
    en: 'This opens a return ticket. The money is paid back, and the refund receipt issued, when a register closes it.',
    sk: 'Tým sa otvorí účet na vrátenie. Peniaze sa vyplatia a doklad o vrátení sa vydá, keď ho uzavrie pokladňa.',
    cs: 'Tím se otevře účet na vrácení. Peníze se vyplatí a doklad o vrácení se vydá, až ho uzavře pokladna.',
  },
  allReturned: { en: 'Everything on this ticket has been returned.', sk: 'Všetko z tohto účtu už bolo vrátené.', cs: 'Vše z tohoto účtu již bylo vráceno.' },
  created: {
    en: 'Return “{name}” is ready ({total}). Close it at a register to pay the money back: the refund receipt is issued there.',
    sk: 'Vrátenie „{name}“ je pripravené ({total}). Uzavrite ho na pokladni a vyplaťte peniaze: tam sa vydá doklad o vrátení.',
    cs: 'Vrácení „{name}“ je připraveno ({total}). Uzavřete ho na pokladně a vyplaťte peníze: tam se vydá doklad o vrácení.',
  },
  openReturn: { en: 'Open the return', sk: 'Otvoriť vrátenie', cs: 'Otevřít vrácení' },
  returns: { en: 'Returns of this ticket', sk: 'Vrátenia z tohto účtu', cs: 'Vrácení z tohoto účtu' },
  closed: { en: 'Closed', sk: 'Uzavreté', cs: 'Uzavřeno' },
  atRegister: { en: 'To be closed at a register', sk: 'Uzavrie sa na pokladni', cs: 'Uzavře se na pokladně' },
});

type Panel = 'copy' | 'return' | null;

/** The returns started from `ticket`, and per sold item what is left to return. */
function useReturns(ticket: Ticket) {
  const returns = useAll<Ticket>('tickets', { filters: { ReturnOf: op.eq(ticket.id) }, sort: 'openDate' }, ['tickets']);
  const taken = new Map<number, number>();
  for (const r of returns.data ?? []) for (const i of r.items) if (i.type === 'Negative') taken.set(i.id, (taken.get(i.id) ?? 0) + i.quantity);
  const sold = ticket.items.filter((i) => i.type === 'Positive').map((i) => ({ item: i, before: taken.get(i.id) ?? 0, left: Math.max(0, round(i.quantity - (taken.get(i.id) ?? 0))) }));
  return { returns, sold };
}

const round = (n: number) => Math.round(n * 10000) / 10000;

export function ClosedTicketActions({ ticket }: { ticket: Ticket }) {
  const can = useCan();
  const userName = useSession()?.user.userName;
  const [panel, setPanel] = useState<Panel>(null);
  // As the hub reads tickets (CONTRACT §12): every sale with TicketReadAll, else one's own.
  const readable = can('TicketReadAll') || ticket.employee?.userName === userName;
  const mayReturn = readable && can('Storno') && can('TicketCreate') && !ticket.returnOf;
  if (!readable) return null;
  const toggle = (p: Panel) => setPanel(panel === p ? null : p);
  return (
    <div class="closed-actions" data-testid="closed-ticket-actions">
      <div class="closed-actions-buttons">
        <Button icon="printer" onClick={() => toggle('copy')} aria-expanded={panel === 'copy'} data-testid="receipt-copy">
          {t('printCopy')}
        </Button>
        {mayReturn && (
          <Button icon="left" onClick={() => toggle('return')} aria-expanded={panel === 'return'} data-testid="start-return">
            {t('startReturn')}
          </Button>
        )}
      </div>
      {panel === 'copy' && <CopyPanel ticket={ticket} onDone={() => setPanel(null)} />}
      {panel === 'return' && mayReturn && <ReturnPanel ticket={ticket} onCancel={() => setPanel(null)} />}
      {!ticket.returnOf && <ReturnsList ticket={ticket} />}
    </div>
  );
}

function CopyPanel({ ticket, onDone }: { ticket: Ticket; onDone: () => void }) {
  const endpoints = useAll<OrderEndpoint>('orderendpoints');
  const device = useSession()?.user.device;
  const printers = (endpoints.data ?? []).filter((e) => e.isActive && e.type !== 'Tablet');
  const preferred = (device?.settings as Record<string, string> | undefined)?.DefaultOrderEndpointName;
  const [chosen, setChosen] = useState<string | null>(null);
  const [busy, run] = useAction();
  const name = chosen ?? (printers.some((p) => p.name === preferred) ? preferred! : printers[0]?.name ?? '');
  if (endpoints.loading && !endpoints.data) return <Spinner />;
  if (!printers.length) return <Notice tone="warn">{t('noPrinters')}</Notice>;
  const print = () =>
    run(async () => {
      await api.post(`${path('tickets', ticket.id)}/print_receipt_copy`, { orderEndpointName: name });
      toast(t('copyQueued', { name }));
      onDone();
    });
  return (
    <div class="closed-panel" data-testid="receipt-copy-panel">
      <Field label={t('printer')} kind="select" value={name} onChange={(v) => setChosen(String(v))} options={printers.map((p) => ({ value: p.name, label: p.name }))} testId="copy-printer" />
      <p class="muted small">{t('copyNote')}</p>
      <div class="closed-panel-foot">
        <Button variant="ghost" onClick={onDone}>
          {t('cancel')}
        </Button>
        <Button variant="primary" icon="printer" busy={busy} onClick={() => void print()} data-testid="copy-print">
          {t('print')}
        </Button>
      </div>
    </div>
  );
}

function ReturnPanel({ ticket, onCancel }: { ticket: Ticket; onCancel: () => void }) {
  const { returns, sold } = useReturns(ticket);
  const [wanted, setWanted] = useState<Record<number, number | null>>({});
  const [busy, run] = useAction();
  const [created, setCreated] = useState<Ticket | null>(null);
  const cur = ticket.totalPrice.currencyLabel;
  if (returns.loading && !returns.data) return <Spinner />;
  if (created) {
    return (
      <Notice tone="good">
        <span data-testid="return-created">{t('created', { name: created.name, total: money(created.totalPrice.amount, created.totalPrice.currencyLabel) })}</span>{' '}
        <LinkButton href={`/tickets/${encodeURIComponent(created.id)}`} icon="right">
          {t('openReturn')}
        </LinkButton>
      </Notice>
    );
  }
  const open = sold.filter((s) => s.left > 0);
  if (!open.length) return <Notice>{t('allReturned')}</Notice>;
  // Everything not yet returned, unless the manager says otherwise.
  const qty = (id: number, left: number) => (id in wanted ? (wanted[id] ?? 0) : left);
  const items = open.map((s) => ({ id: s.item.id, quantity: qty(s.item.id, s.left) })).filter((i) => i.quantity > 0);
  const invalid = open.some((s) => qty(s.item.id, s.left) > s.left || qty(s.item.id, s.left) < 0);
  const start = () => run(async () => setCreated(await api.post<Ticket>(`${path('tickets', ticket.id)}/return`, { items })));
  const setAll = (all: boolean) => setWanted(Object.fromEntries(open.map((s) => [s.item.id, all ? s.left : 0])));
  return (
    <div class="closed-panel" data-testid="return-panel">
      <div class="closed-panel-head">
        <h4>{t('returnTitle')}</h4>
        <Button small variant="ghost" onClick={() => setAll(true)}>
          {t('all')}
        </Button>
        <Button small variant="ghost" onClick={() => setAll(false)}>
          {t('none')}
        </Button>
      </div>
      <div class="table-scroll">
        <table class="compact return-items" aria-label={t('returnTitle')}>
          <thead>
            <tr>
              <th>{t('item')}</th>
              <th class="al-right">{t('sold')}</th>
              <th class="al-right secondary">{t('returnedBefore')}</th>
              <th class="al-right">{t('back')}</th>
            </tr>
          </thead>
          <tbody>
            {open.map((s) => (
              <tr key={s.item.id}>
                <td>
                  {s.item.plu.name}
                  <div class="muted small num">{money(s.item.unitPrice.amount, cur)}</div>
                </td>
                <td class="al-right num">{quantity(s.item.quantity)}</td>
                <td class="al-right num secondary">{s.before ? quantity(s.before) : '—'}</td>
                <td class="al-right return-qty">
                  <Field
                    label={t('returnQty', { name: s.item.plu.name })}
                    kind="number"
                    min={0}
                    max={s.left}
                    places={4}
                    value={qty(s.item.id, s.left)}
                    onChange={(v) => setWanted({ ...wanted, [s.item.id]: typeof v === 'number' ? v : null })}
                    testId={`return-qty-${s.item.id}`}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p class="muted small">{t('returnNote')}</p>
      <div class="closed-panel-foot">
        <Button variant="ghost" onClick={onCancel}>
          {t('cancel')}
        </Button>
        <Button variant="primary" icon="check" busy={busy} disabled={!items.length || invalid} onClick={() => void start()} data-testid="return-create">
          {t('create')}
        </Button>
      </div>
    </div>
  );
}

/** Links to the returns already started from this ticket, with their state. */
function ReturnsList({ ticket }: { ticket: Ticket }) {
  const { returns } = useReturns(ticket);
  if (!returns.data?.length) return null;
  return (
    <>
      <h4>{t('returns')}</h4>
      <ul class="simple-list" data-testid="ticket-returns">
        {returns.data.map((r) => (
          <li key={r.id}>
            <a class="grow" href={`/tickets/${encodeURIComponent(r.id)}`} onClick={linkHandler(`/tickets/${encodeURIComponent(r.id)}`)}>
              {r.name || r.id}
            </a>
            <Badge tone={r.state === 'Closed' ? 'neutral' : 'warn'}>{r.state === 'Closed' ? t('closed') : t('atRegister')}</Badge>
            <b class="num">{money(r.totalPrice.amount, r.totalPrice.currencyLabel)}</b>
          </li>
        ))}
      </ul>
    </>
  );
}
