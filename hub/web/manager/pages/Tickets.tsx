/**
 * Tickets: the seed's filters as controls (kept in the query string), a page of tickets sorted
 * by the hub, and a ticket's detail with its items (modifiers with their prices), the VAT per rate,
 * kitchen orders and their print state, payments, the fiscal close and its e-mail receipts.
 * A closed ticket offers a (non-fiscal) receipt copy and starting a return (ClosedTicketActions);
 * the fiscal refund itself stays at a register, which closes the return.
 */
import { useState } from 'preact/hooks';
import { DataTable, type Column } from '../components/DataTable';
import { Field } from '../components/Field';
import { Drawer, Empty, Facts, PageHeader, Segmented, toast, useAction, useKeyedAction } from '../components/ui';
import { Badge, Button, Card, Notice, Spinner } from '../../shared/ui';
import { api, op, path, type Filters } from '../lib/api';
import { useAll, useOne, useOptions } from '../lib/data';
import { dateTime, dayStart, money, percent, quantity, time } from '../lib/format';
import { navigate, useQuery } from '../lib/router';
import { useCan } from '../lib/session';
import { messages } from '../../shared/i18n';
import { linkHandler } from '../lib/router';
import { ClosedTicketActions } from './ClosedTicketActions';
import { deviceError } from '../lib/device-words';
import type { components } from '../../shared/api-types';
import type { Device, HubUser, Order, PaymentType, Ticket } from '../../shared/types';

type ReceiptEmail = components['schemas']['ReceiptEmail'];

const t = messages({
  closed: { en: 'Closed', sk: 'Uzavretý', cs: 'Uzavřený' },
  open: { en: 'Open', sk: 'Otvorený', cs: 'Otevřený' },
  table: { en: 'Table {name}', sk: 'Stôl {name}', cs: 'Stůl {name}' },
  colTicket: { en: 'Ticket', sk: 'Účet', cs: 'Účet' },
  colOpened: { en: 'Opened', sk: 'Otvorený', cs: 'Otevřen' },
  colClosed: { en: 'Closed', sk: 'Uzavretý', cs: 'Uzavřen' },
  colWaiter: { en: 'Waiter', sk: 'Čašník', cs: 'Číšník' },
  colRegister: { en: 'Register', sk: 'Pokladňa', cs: 'Pokladna' },
  colReceipt: { en: 'Receipt', sk: 'Doklad', cs: 'Doklad' },
  colTotal: { en: 'Total', sk: 'Spolu', cs: 'Celkem' },
  colState: { en: 'State', sk: 'Stav', cs: 'Stav' },
  title: { en: 'Tickets', sk: 'Účty', cs: 'Účty' },
  subtitle: { en: 'Every ticket of every register, open and closed.', sk: 'Všetky účty zo všetkých pokladní, otvorené aj uzavreté.', cs: 'Všechny účty ze všech pokladen, otevřené i uzavřené.' },
  filters: { en: 'Filters', sk: 'Filtre', cs: 'Filtry' },
  all: { en: 'All', sk: 'Všetky', cs: 'Všechny' },
  anyRegister: { en: 'Any register', sk: 'Všetky pokladne', cs: 'Všechny pokladny' },
  tableLabel: { en: 'Table', sk: 'Stôl', cs: 'Stůl' },
  tableHint: { en: 'e.g. 5', sk: 'napr. 5', cs: 'např. 5' },
  anyone: { en: 'Anyone', sk: 'Ktokoľvek', cs: 'Kdokoli' },
  openedFrom: { en: 'Opened from', sk: 'Otvorené od', cs: 'Otevřené od' },
  openedUntil: { en: 'Opened until', sk: 'Otvorené do', cs: 'Otevřené do' },
  customerCard: { en: 'Customer card', sk: 'Zákaznícka karta', cs: 'Zákaznická karta' },
  cardNumber: { en: 'card number', sk: 'číslo karty', cs: 'číslo karty' },
  discount: { en: 'Discount', sk: 'Zľava', cs: 'Sleva' },
  any: { en: 'Any', sk: 'Všetky', cs: 'Všechny' },
  withDiscount: { en: 'With a discount', sk: 'So zľavou', cs: 'Se slevou' },
  withoutDiscount: { en: 'Without discount', sk: 'Bez zľavy', cs: 'Bez slevy' },
  returnedItems: { en: 'Returned items', sk: 'Vrátené položky', cs: 'Vrácené položky' },
  withReturns: { en: 'With returns', sk: 'S vrátením', cs: 'S vrácením' },
  withoutReturns: { en: 'Without returns', sk: 'Bez vrátenia', cs: 'Bez vrácení' },
  clearFilters: { en: 'Clear filters', sk: 'Zrušiť filtre', cs: 'Zrušit filtry' },
  noMatch: { en: 'No ticket matches these filters', sk: 'Filtrom nezodpovedá žiadny účet', cs: 'Filtrům neodpovídá žádný účet' },
  noTickets: { en: 'No tickets yet', sk: 'Zatiaľ žiadne účty', cs: 'Zatím žádné účty' },
  fewerFilters: { en: 'Try fewer filters.', sk: 'Skúste menej filtrov.', cs: 'Zkuste méně filtrů.' },
  appearSoon: { en: 'Tickets appear here as soon as a register opens one.', sk: 'Účty sa tu objavia hneď, ako ich pokladňa otvorí.', cs: 'Účty se zde objeví, jakmile je pokladna otevře.' },
  openedBy: { en: 'opened {when} by {who}', sk: 'otvoril(a) {who} {when}', cs: 'otevřel(a) {who} {when}' },
  gone: { en: 'This ticket no longer exists (it was deleted on a register).', sk: 'Tento účet už neexistuje (bol zmazaný na pokladni).', cs: 'Tento účet již neexistuje (byl smazán na pokladně).' },
  purchase: { en: 'Purchase', sk: 'Predaj', cs: 'Prodej' },
  customer: { en: 'Customer', sk: 'Zákazník', cs: 'Zákazník' },
  card: { en: 'card {n}', sk: 'karta {n}', cs: 'karta {n}' },
  stillOpen: { en: 'still open', sk: 'stále otvorený', cs: 'stále otevřený' },
  items: { en: 'Items', sk: 'Položky', cs: 'Položky' },
  qty: { en: 'Qty', sk: 'Množstvo', cs: 'Množství' },
  item: { en: 'Item', sk: 'Položka', cs: 'Položka' },
  price: { en: 'Price', sk: 'Cena', cs: 'Cena' },
  returned: { en: 'Returned', sk: 'Vrátené', cs: 'Vráceno' },
  sold: { en: 'Sold', sk: 'Predané', cs: 'Prodáno' },
  noItems: { en: 'No items on this ticket', sk: 'Na účte nie sú žiadne položky', cs: 'Na účtu nejsou žádné položky' },
  vat: { en: 'VAT', sk: 'DPH', cs: 'DPH' },
  vatRate: { en: 'Rate', sk: 'Sadzba', cs: 'Sazba' },
  vatBase: { en: 'Base', sk: 'Základ', cs: 'Základ' },
  vatAmount: { en: 'VAT', sk: 'DPH', cs: 'DPH' },
  vatTotal: { en: 'Total', sk: 'Spolu', cs: 'Celkem' },
  vatSum: { en: 'Sum', sk: 'Súčet', cs: 'Součet' },
  noVat: { en: 'This ticket was stored before the hub kept its VAT breakdown.', sk: 'Tento účet bol uložený skôr, než hub začal viesť rozpis DPH.', cs: 'Tento účet byl uložen dříve, než hub začal vést rozpis DPH.' },
  kitchenOrders: { en: 'Kitchen orders', sk: 'Objednávky do kuchyne', cs: 'Objednávky do kuchyně' },
  noOrders: { en: 'No kitchen orders', sk: 'Žiadne objednávky do kuchyne', cs: 'Žádné objednávky do kuchyně' },
  noOrdersText: { en: 'Items that go to no printer (drinks from the bar, say) make no order.', sk: 'Položky, ktoré nejdú na žiadnu tlačiareň (napr. nápoje z baru), nevytvárajú objednávku.', cs: 'Položky, které nejdou na žádnou tiskárnu (např. nápoje z baru), nevytvářejí objednávku.' },
  payments: { en: 'Payments', sk: 'Platby', cs: 'Platby' },
  paymentType: { en: 'Payment type {n}', sk: 'Typ platby {n}', cs: 'Typ platby {n}' },
  notPaid: { en: 'Not paid yet', sk: 'Zatiaľ nezaplatené', cs: 'Zatím nezaplaceno' },
  change: { en: 'Change given', sk: 'Vydané', cs: 'Vráceno' },
  fiscal: { en: 'Fiscal receipt', sk: 'Fiškálny doklad', cs: 'Fiskální doklad' },
  receiptNumber: { en: 'Receipt number', sk: 'Číslo dokladu', cs: 'Číslo dokladu' },
  ekasaNumber: { en: 'eKasa receipt number', sk: 'Číslo dokladu v eKase', cs: 'Číslo dokladu v eKase' },
  ekasaUuid: { en: 'eKasa receipt ID (UUID)', sk: 'ID dokladu eKasa (UUID)', cs: 'ID dokladu eKasa (UUID)' },
  ekasaOkp: { en: 'Cash register check code (OKP)', sk: 'Overovací kód pokladnice (OKP)', cs: 'Ověřovací kód pokladny (OKP)' },
  ekasaOffline: { en: 'Registered offline: sent to eKasa later', sk: 'Zaevidovaný offline: do eKasy sa odošle neskôr', cs: 'Zaevidován offline: do eKasy se odešle později' },
  fiscalDevice: { en: 'Fiscal device', sk: 'Fiškálne zariadenie', cs: 'Fiskální zařízení' },
  zReport: { en: 'Daily report (Z) no.', sk: 'Číslo uzávierky (Z)', cs: 'Číslo uzávěrky (Z)' },
  fiscalMemory: { en: 'Fiscal memory', sk: 'Fiškálna pamäť', cs: 'Fiskální paměť' },
  closedOn: { en: 'Closed on', sk: 'Uzavretý na', cs: 'Uzavřen na' },
  emails: { en: 'E-mail receipts', sk: 'Doklady e-mailom', cs: 'Doklady e-mailem' },
  noEmails: { en: 'No e-mail receipt was asked for.', sk: 'Doklad e-mailom nebol vyžiadaný.', cs: 'Doklad e-mailem nebyl vyžádán.' },
  resend: { en: 'Resend the e-mail', sk: 'Poslať e-mail znova', cs: 'Poslat e-mail znovu' },
  resent: { en: 'The receipt goes to {to} again.', sk: 'Doklad sa znova posiela na {to}.', cs: 'Doklad se znovu posílá na {to}.' },
  emailQueued: { en: 'Waiting to be sent', sk: 'Čaká na odoslanie', cs: 'Čeká na odeslání' },
  emailSent: { en: 'Sent', sk: 'Odoslaný', cs: 'Odeslán' },
  emailFailed: { en: 'Not delivered', sk: 'Nedoručený', cs: 'Nedoručen' },
  attempts: { en: '{n} attempts', sk: 'Pokusy: {n}', cs: 'Pokusy: {n}' },
  returnOf: { en: 'Return of', sk: 'Vrátenie z účtu', cs: 'Vrácení z účtu' },
  returnAtRegister: {
    en: 'A return: a register pays it out and closes it, which issues the refund receipt.',
    sk: 'Vrátenie: pokladňa ho vyplatí a uzavrie, čím vydá doklad o vrátení.',
    cs: 'Vrácení: pokladna ho vyplatí a uzavře, čímž vydá doklad o vrácení.',
  },
  orderCopy: { en: 'A copy of the order goes to {name}.', sk: 'Kópia objednávky ide na {name}.', cs: 'Kopie objednávky jde na {name}.' },
  cannotReprint: { en: 'This hub cannot reprint orders yet.', sk: 'Tento hub zatiaľ nevie objednávky vytlačiť znova.', cs: 'Tento hub zatím neumí objednávky vytisknout znovu.' },
  cancel: { en: 'Cancel', sk: 'Storno', cs: 'Storno' },
  printedAt: { en: 'printed {time}', sk: 'vytlačené {time}', cs: 'vytištěno {time}' },
  notPrinted: { en: 'not printed yet', sk: 'zatiaľ nevytlačené', cs: 'zatím nevytištěno' },
  reprint: { en: 'Reprint', sk: 'Vytlačiť znova', cs: 'Vytisknout znovu' },
  // Purchase types, ticket and item states, plu types, print and order states.
  WalkIn: { en: 'Eat in', sk: 'Na mieste', cs: 'Na místě' },
  TakeAway: { en: 'Take away', sk: 'So sebou', cs: 'S sebou' },
  Delivery: { en: 'Delivery', sk: 'Rozvoz', cs: 'Rozvoz' },
  Printed: { en: 'Printed', sk: 'Vytlačené', cs: 'Vytištěno' },
  Queued: { en: 'Queued', sk: 'V poradí', cs: 'Ve frontě' },
  Printing: { en: 'Printing', sk: 'Tlačí sa', cs: 'Tiskne se' },
  Waiting: { en: 'Waiting', sk: 'Čaká', cs: 'Čeká' },
  Unknown: { en: 'Unknown', sk: 'Neznámy', cs: 'Neznámý' },
  Failed: { en: 'Failed', sk: 'Zlyhalo', cs: 'Selhalo' },
  New: { en: 'New', sk: 'Nová', cs: 'Nová' },
  InProgress: { en: 'Cooking', sk: 'Pripravuje sa', cs: 'Připravuje se' },
  Ready: { en: 'Ready', sk: 'Hotová', cs: 'Hotová' },
  Served: { en: 'Served', sk: 'Vydaná', cs: 'Vydaná' },
  Done: { en: 'Done', sk: 'Vybavená', cs: 'Vyřízená' },
  Cancelled: { en: 'Cancelled', sk: 'Zrušená', cs: 'Zrušená' },
});

/** A word for an enum value the hub answers, the value itself when this page has none for it. */
const WORDS = new Set(['WalkIn', 'TakeAway', 'Delivery', 'Printed', 'Queued', 'Printing', 'Waiting', 'Unknown', 'Failed', 'New', 'InProgress', 'Ready', 'Served', 'Done', 'Cancelled']);
const word = (value: string | null | undefined): string => (!value ? '—' : WORDS.has(value) ? t(value as Parameters<typeof t>[0]) : value);

const FILTER_KEYS = ['state', 'device', 'table', 'waiter', 'from', 'to', 'card', 'discount', 'returned'] as const;

const yesNo = (v: string | null) => (v === 'yes' ? op.eq(true) : v === 'no' ? op.eq(false) : null);

export function ticketFilters(q: URLSearchParams): Filters {
  const state = q.get('state');
  return {
    IsClosed: state === 'open' ? op.eq(false) : state === 'closed' ? op.eq(true) : null,
    DeviceName: q.get('device') ? op.in([q.get('device')!]) : null,
    LocationTableName: q.get('table') ? op.eq(q.get('table')!.trim()) : null,
    EmployeeUserName: q.get('waiter') ? op.eq(q.get('waiter')!) : null,
    OpenDate: op.range(q.get('from') ? dayStart(q.get('from')!) : null, q.get('to') ? dayStart(q.get('to')!, 1) : null),
    CustomerCardSerialNumber: q.get('card') ? op.eq(q.get('card')!.trim()) : null,
    HasDiscount: yesNo(q.get('discount')),
    HasReturnedItem: yesNo(q.get('returned')),
  };
}

export const ticketState = (tk: Ticket) => (tk.state === 'Closed' ? <Badge tone="neutral">{t('closed')}</Badge> : <Badge tone="info">{t('open')}</Badge>);
export const ticketWhere = (tk: Ticket) => (tk.location?.tableName ? t('table', { name: tk.location.tableName }) : tk.name || '—');

const columns = (): Column<Ticket>[] => [
  { id: 'table', title: t('colTicket'), sort: 'location.tableName', render: (tk) => <b>{ticketWhere(tk)}</b> },
  { id: 'opened', title: t('colOpened'), sort: 'openDate', render: (tk) => dateTime(tk.openDate) },
  { id: 'closed', title: t('colClosed'), sort: 'closeDate', render: (tk) => (tk.closeDate ? time(tk.closeDate) : '—'), secondary: true },
  { id: 'waiter', title: t('colWaiter'), sort: 'employee.userName', render: (tk) => tk.employee?.name || tk.employee?.userName || '—' },
  { id: 'device', title: t('colRegister'), render: (tk) => tk.closeInfo?.deviceName ?? tk.originDeviceName, secondary: true },
  { id: 'receipt', title: t('colReceipt'), sort: 'closeInfo.number', align: 'right', render: (tk) => tk.closeInfo?.number ?? '—', secondary: true },
  { id: 'total', title: t('colTotal'), sort: 'totalPrice.amount', align: 'right', render: (tk) => <b class="num">{money(tk.totalPrice.amount, tk.totalPrice.currencyLabel)}</b> },
  { id: 'state', title: t('colState'), render: ticketState },
];

export function Tickets({ openId }: { openId: string | null }) {
  const [q, setQuery] = useQuery();
  const [showFilters, setShowFilters] = useState(false);
  const devices = useOptions<Device>('devices', (d) => d.name);
  const waiters = useOptions<HubUser>('users', (u) => u.userName, (u) => u.name || u.userName);
  const set = (key: string, value: unknown) => setQuery({ [key]: value === null || value === undefined ? null : String(value), page: null });
  const active = FILTER_KEYS.filter((k) => q.get(k)).length;
  const search = window.location.search;

  return (
    <div class="page">
      <PageHeader
        title={t('title')}
        subtitle={t('subtitle')}
        actions={
          <Button class="only-narrow" icon="filter" onClick={() => setShowFilters(!showFilters)} aria-expanded={showFilters}>
            {t('filters')}
            {active ? ` (${active})` : ''}
          </Button>
        }
      />
      <Card class={`filters${showFilters ? ' open' : ''}`}>
        <div class="filter-grid">
          <Segmented
            label={t('colState')}
            value={q.get('state') ?? ''}
            onChange={(v) => set('state', v || null)}
            options={[
              { value: '', label: t('all') },
              { value: 'open', label: t('open') },
              { value: 'closed', label: t('closed') },
            ]}
          />
          <Field label={t('colRegister')} kind="select" emptyOption={t('anyRegister')} value={q.get('device') ?? ''} onChange={(v) => set('device', v)} options={devices} testId="filter-device" />
          <Field label={t('tableLabel')} value={q.get('table') ?? ''} onChange={(v) => set('table', v)} placeholder={t('tableHint')} testId="filter-table" />
          <Field label={t('colWaiter')} kind="select" emptyOption={t('anyone')} value={q.get('waiter') ?? ''} onChange={(v) => set('waiter', v)} options={waiters} testId="filter-waiter" />
          <Field label={t('openedFrom')} kind="day" value={q.get('from')} onChange={(v) => set('from', v)} testId="filter-from" />
          <Field label={t('openedUntil')} kind="day" value={q.get('to')} onChange={(v) => set('to', v)} testId="filter-to" />
          <Field label={t('customerCard')} value={q.get('card') ?? ''} onChange={(v) => set('card', v)} placeholder={t('cardNumber')} testId="filter-card" />
          <Field
            label={t('discount')}
            kind="select"
            value={q.get('discount') ?? ''}
            onChange={(v) => set('discount', v)}
            options={[
              { value: '', label: t('any') },
              { value: 'yes', label: t('withDiscount') },
              { value: 'no', label: t('withoutDiscount') },
            ]}
            testId="filter-discount"
          />
          <Field
            label={t('returnedItems')}
            kind="select"
            value={q.get('returned') ?? ''}
            onChange={(v) => set('returned', v)}
            options={[
              { value: '', label: t('any') },
              { value: 'yes', label: t('withReturns') },
              { value: 'no', label: t('withoutReturns') },
            ]}
            testId="filter-returned"
          />
        </div>
        {active > 0 && (
          <div class="filter-foot">
            <Button small variant="ghost" icon="close" onClick={() => setQuery(Object.fromEntries([...FILTER_KEYS, 'page'].map((k) => [k, null])))}>
              {t('clearFilters')}
            </Button>
          </div>
        )}
      </Card>
      <Card>
        <DataTable<Ticket>
          resource="tickets"
          label={t('title')}
          columns={columns()}
          filters={ticketFilters(q)}
          defaultSort="-openDate"
          rowKey={(tk) => tk.id}
          selected={openId}
          onOpen={(tk) => navigate(`/tickets/${encodeURIComponent(tk.id)}${search}`)}
          empty={{ title: active ? t('noMatch') : t('noTickets'), text: active ? t('fewerFilters') : t('appearSoon') }}
        />
      </Card>
      {openId && <TicketDetail id={openId} onClose={() => navigate(`/tickets${search}`)} />}
    </div>
  );
}

function TicketDetail({ id, onClose }: { id: string; onClose: () => void }) {
  const can = useCan();
  const { data: tk, error, notFound } = useOne<Ticket>(path('tickets', id), ['tickets']);
  const orders = useAll<Order>('orders', { filters: { ticketId: op.eq(id) }, sort: 'createdAt' });
  const types = useAll<PaymentType>('paymenttypes');
  const cur = tk?.totalPrice.currencyLabel;
  return (
    <Drawer
      wide
      title={tk ? ticketWhere(tk) : t('colTicket')}
      subtitle={
        tk ? (
          <>
            {ticketState(tk)} {t('openedBy', { when: dateTime(tk.openDate), who: tk.employee?.name || tk.employee?.userName || '—' })}
          </>
        ) : undefined
      }
      onClose={onClose}
    >
      {notFound ? (
        <Notice tone="warn">{t('gone')}</Notice>
      ) : error && !tk ? (
        <Notice tone="bad">{error}</Notice>
      ) : !tk ? (
        <Spinner />
      ) : (
        <div class="detail" data-testid="ticket-detail">
          <div class="detail-total">
            <span>{t('colTotal')}</span>
            <b>{money(tk.totalPrice.amount, cur)}</b>
          </div>
          <Facts
            items={[
              [t('colTicket'), tk.name || tk.id],
              [t('tableLabel'), tk.location?.tableName ? `${tk.location.tableName}${tk.location.zoneName ? ` · ${tk.location.zoneName}` : ''}` : '—'],
              [t('colWaiter'), tk.employee ? `${tk.employee.name} (${tk.employee.userName})` : '—'],
              [t('colRegister'), tk.originDeviceName],
              [t('purchase'), <span data-testid="purchase-type">{word(tk.purchaseType)}</span>],
              [t('customer'), tk.customer ? `${tk.customer.fullName ?? tk.customer.id ?? ''}${tk.customer.cardSerialNumber ? ` · ${t('card', { n: tk.customer.cardSerialNumber })}` : ''}` : '—'],
              [t('discount'), percent(tk.discountRate)],
              [t('colClosed'), tk.closeDate ? dateTime(tk.closeDate) : t('stillOpen')],
              ...(tk.returnOf ? [[t('returnOf'), <TicketLink id={tk.returnOf} />] as [string, preact.ComponentChildren]] : []),
            ]}
          />
          {tk.returnOf && tk.state !== 'Closed' && <Notice tone="warn">{t('returnAtRegister')}</Notice>}
          {tk.note && <Notice>{tk.note}</Notice>}

          <h3>{t('items')}</h3>
          {tk.items.length ? (
            <div class="table-scroll">
              <table class="compact" aria-label={t('items')} data-testid="ticket-items">
                <thead>
                  <tr>
                    <th class="al-right">{t('qty')}</th>
                    <th>{t('item')}</th>
                    <th class="al-right">{t('price')}</th>
                    <th class="al-right secondary">{t('discount')}</th>
                    <th class="al-right">{t('colTotal')}</th>
                  </tr>
                </thead>
                <tbody>
                  {tk.items.map((i) => (
                    <tr key={i.id} class={i.type === 'Negative' ? 'returned' : ''}>
                      <td class="al-right num">{quantity(i.quantity)}×</td>
                      <td>
                        {i.plu.name} {i.type === 'Negative' && <Badge tone="warn">{t('returned')}</Badge>}
                        {i.modifiers.length > 0 && (
                          <ul class="muted small modifier-list" data-testid="item-modifiers">
                            {i.modifiers.map((m) => (
                              <li key={`${m.modifierId}/${m.optionId}`}>
                                {m.quantity > 1 ? `${m.quantity}× ` : ''}
                                {m.name ?? m.optionId}
                                {m.unitPrice ? <span class="num"> +{money(m.unitPrice * m.quantity, cur)}</span> : null}
                              </li>
                            ))}
                          </ul>
                        )}
                        {i.comment && <div class="muted small">“{i.comment}”</div>}
                      </td>
                      <td class="al-right num">{money(i.unitPrice.amount, cur)}</td>
                      <td class="al-right secondary">{percent(i.discountRate)}</td>
                      <td class="al-right num">{money(i.totalPrice.amount, cur)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : (
            <Empty title={t('noItems')} />
          )}

          {tk.items.length > 0 && (
            <>
              <h3>{t('vat')}</h3>
              {tk.vatBreakdown ? (
                <div class="table-scroll">
                  <table class="compact" aria-label={t('vat')} data-testid="vat-breakdown">
                    <thead>
                      <tr>
                        <th class="al-right">{t('vatRate')}</th>
                        <th class="al-right">{t('vatBase')}</th>
                        <th class="al-right">{t('vatAmount')}</th>
                        <th class="al-right">{t('vatTotal')}</th>
                      </tr>
                    </thead>
                    <tbody>
                      {tk.vatBreakdown.map((r) => (
                        <tr key={r.rate}>
                          <td class="al-right num">{percent(r.rate)}</td>
                          <td class="al-right num">{money(r.base, cur)}</td>
                          <td class="al-right num">{money(r.vat, cur)}</td>
                          <td class="al-right num">{money(r.gross, cur)}</td>
                        </tr>
                      ))}
                    </tbody>
                    {tk.vatBreakdown.length > 1 && (
                      <tfoot>
                        <tr>
                          <th class="al-right">{t('vatSum')}</th>
                          <th class="al-right num">{money(sum(tk.vatBreakdown.map((r) => r.base)), cur)}</th>
                          <th class="al-right num">{money(sum(tk.vatBreakdown.map((r) => r.vat)), cur)}</th>
                          <th class="al-right num">{money(sum(tk.vatBreakdown.map((r) => r.gross)), cur)}</th>
                        </tr>
                      </tfoot>
                    )}
                  </table>
                </div>
              ) : (
                <p class="muted">{t('noVat')}</p>
              )}
            </>
          )}

          <h3>{t('kitchenOrders')}</h3>
          {orders.data?.length ? (
            <ul class="orders">
              {orders.data.map((o) => (
                <OrderRow key={o.id} order={o} />
              ))}
            </ul>
          ) : orders.loading ? (
            <Spinner />
          ) : (
            <Empty title={t('noOrders')} icon="printer">
              {t('noOrdersText')}
            </Empty>
          )}

          <h3>{t('payments')}</h3>
          {tk.payments.length ? (
            <ul class="simple-list">
              {tk.payments.map((p, i) => (
                <li key={i}>
                  <span class="grow">{types.data?.find((x) => x.number === p.paymentTypeNumber)?.name ?? p.name ?? t('paymentType', { n: p.paymentTypeNumber })}</span>
                  <b class="num">{money(p.amount, cur)}</b>
                </li>
              ))}
              {(tk.change ?? 0) > 0 && (
                <li>
                  <span class="grow muted">{t('change')}</span>
                  <span class="num muted">−{money(tk.change ?? 0, cur)}</span>
                </li>
              )}
            </ul>
          ) : (
            <Empty icon="card" title={t('notPaid')} />
          )}

          {tk.closeInfo && (
            <>
              <h3>{t('fiscal')}</h3>
              <Facts
                items={[
                  [t('receiptNumber'), <b data-testid="receipt-number">{tk.closeInfo.number}</b>],
                  [t('fiscalDevice'), tk.closeInfo.fiscalName],
                  [t('zReport'), tk.closeInfo.dailySalesReportNumber],
                  [t('fiscalMemory'), tk.closeInfo.fiscalMemorySerialNumber],
                  [t('closedOn'), tk.closeInfo.deviceName],
                  // eKasa: the receipt as the financial administration registered it (or, offline, its OKP to be sent later).
                  ...(tk.closeInfo.ekasa
                    ? ([
                        [t('ekasaNumber'), <b data-testid="ekasa-number">{tk.closeInfo.ekasa.receiptNumber}</b>],
                        [t('ekasaUuid'), tk.closeInfo.ekasa.uuid ? <span class="mono break" data-testid="ekasa-uuid">{tk.closeInfo.ekasa.uuid}</span> : <span data-testid="ekasa-uuid">{t('ekasaOffline')}</span>],
                        [t('ekasaOkp'), tk.closeInfo.ekasa.okp ? <span class="mono break" data-testid="ekasa-okp">{tk.closeInfo.ekasa.okp}</span> : '—'],
                      ] as Array<[string, preact.ComponentChildren]>)
                    : []),
                ]}
              />
              <ClosedTicketActions ticket={tk} />
              {can('SettingsRead') && <Emails ticketId={tk.id} canResend={can('TicketClose')} />}
            </>
          )}
        </div>
      )}
    </Drawer>
  );
}

/** A link to another ticket's detail (a return's original), keeping the list's filters. */
function TicketLink({ id }: { id: string }) {
  const href = `/tickets/${encodeURIComponent(id)}${window.location.search}`;
  return (
    <a href={href} onClick={linkHandler(href)} data-testid="return-of">
      {id}
    </a>
  );
}

const sum = (ns: number[]) => Math.round(ns.reduce((s, n) => s + n * 100, 0)) / 100;

const EMAIL_TONE: Record<string, 'good' | 'warn' | 'bad' | 'info' | 'neutral'> = { Sent: 'good', Queued: 'info', Failed: 'bad' };
const emailState = (s: string) => (s === 'Sent' ? t('emailSent') : s === 'Failed' ? t('emailFailed') : s === 'Queued' ? t('emailQueued') : s);

/** The ticket's e-mail receipts (GET /api/receipts/emails?TicketId=…), each with a resend. */
function Emails({ ticketId, canResend }: { ticketId: string; canResend: boolean }) {
  const emails = useAll<ReceiptEmail>('receipts/emails', { filters: { TicketId: op.eq(ticketId) } }, ['receipts/emails', 'tickets']);
  const [busy, run] = useKeyedAction<string>();
  const resend = (e: ReceiptEmail) =>
    run(e.id, async () => {
      await api.post(`${path('receipts', 'emails', e.id)}/resend`);
      toast(t('resent', { to: e.to }));
      emails.reload();
    });
  return (
    <>
      <h3>{t('emails')}</h3>
      {emails.loading && !emails.data ? (
        <Spinner />
      ) : emails.data?.length ? (
        <ul class="simple-list" data-testid="receipt-emails">
          {emails.data.map((e) => (
            <li key={e.id}>
              <span class="grow">
                <b>{e.to}</b>
                <span class="muted small">
                  {' '}
                  · {dateTime(e.sentAt ?? e.createdAt)}
                  {e.attempts > 1 ? ` · ${t('attempts', { n: e.attempts })}` : ''}
                </span>
                {e.lastError && <div class="field-error">{e.lastError}</div>}
              </span>
              <Badge tone={EMAIL_TONE[e.state] ?? 'neutral'}>{emailState(e.state)}</Badge>
              {canResend && (
                <Button small icon="refresh" busy={busy === e.id} onClick={() => void resend(e)} data-testid="resend-email">
                  {t('resend')}
                </Button>
              )}
            </li>
          ))}
        </ul>
      ) : (
        <p class="muted">{t('noEmails')}</p>
      )}
    </>
  );
}

const PRINT_TONE: Record<string, 'good' | 'warn' | 'bad' | 'info' | 'neutral'> = { Printed: 'good', Queued: 'info', Printing: 'info', Waiting: 'warn', Unknown: 'warn', Failed: 'bad' };

function OrderRow({ order: o }: { order: Order }) {
  const [busy, run] = useAction();
  const reprint = () =>
    run(async () => {
      await api.post(`${path('orders', o.id)}/reprint`);
      toast(t('orderCopy', { name: o.orderEndpointName }));
    }, t('cannotReprint'));
  return (
    <li class={`order${o.kind === 'Cancel' ? ' order-cancel' : ''}`}>
      <div class="order-head">
        <b>{o.orderEndpointName}</b>
        {o.kind === 'Cancel' && <Badge tone="bad">{t('cancel')}</Badge>}
        <span class="muted">{time(o.createdAt)}</span>
        <span class="spacer" />
        <Badge tone={PRINT_TONE[o.print.state] ?? 'neutral'}>{word(o.print.state)}</Badge>
        <Badge>{word(o.state)}</Badge>
      </div>
      <div class="order-items">{o.items.map((i) => `${quantity(i.quantity)}× ${i.name}`).join(', ')}</div>
      {o.print.lastError && <div class="field-error">{deviceError(o.print.lastError)}</div>}
      <div class="order-foot">
        <span class="muted small">{o.print.printedAt ? t('printedAt', { time: time(o.print.printedAt) }) : o.print.attempts ? t('attempts', { n: o.print.attempts }) : t('notPrinted')}</span>
        {/* A copy of what was printed (or given up on); an order still on its way needs none. */}
        {['Printed', 'Failed', 'Unknown'].includes(o.print.state) && (
          <Button small variant="ghost" icon="printer" busy={busy} onClick={reprint}>
            {t('reprint')}
          </Button>
        )}
      </div>
    </li>
  );
}
