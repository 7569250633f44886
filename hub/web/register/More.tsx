/**
 * What else a ticket needs: the bill before payment, a split or a move to another table, handing it
 * over to a colleague or taking a colleague's over, a discount, the customer (by card, or by name with
 * CustomerRead: CONTRACT §12), a name and a note, deleting it. Each is offered only to a waiter holding
 * its right.
 */
import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { messages, parseDecimal } from '../shared/i18n';
import { quantity } from '../shared/format';
import { ApiError, call, session } from './api';
import { go, say } from './hooks';
import { tableLabel } from './Tables';
import type { Customer, LocalTicket, Location } from './tickets';
import { till } from './till';
import { Dialog, failure, NumPad, submitting } from './ui';

const t = messages({
  title: { en: 'Ticket', sk: 'Účet', cs: 'Účet' },
  bill: { en: 'Print the bill', sk: 'Vytlačiť účet', cs: 'Vytisknout účet' },
  billQueued: { en: 'The bill is printing.', sk: 'Účet sa tlačí.', cs: 'Účet se tiskne.' },
  split: { en: 'Split or move items', sk: 'Rozdeliť alebo presunúť položky', cs: 'Rozdělit nebo přesunout položky' },
  move: { en: 'Move to another table', sk: 'Presunúť na iný stôl', cs: 'Přesunout na jiný stůl' },
  moved: { en: 'Moved to {table}.', sk: 'Presunuté: {table}.', cs: 'Přesunuto: {table}.' },
  discount: { en: 'Discount', sk: 'Zľava', cs: 'Sleva' },
  customer: { en: 'Customer', sk: 'Zákazník', cs: 'Zákazník' },
  rename: { en: 'Name and note', sk: 'Názov a poznámka', cs: 'Název a poznámka' },
  remove: { en: 'Delete the ticket', sk: 'Zmazať účet', cs: 'Smazat účet' },
  removeSure: { en: 'Delete this ticket? Sent items get a cancel order in the kitchen.', sk: 'Zmazať tento účet? Odoslané položky dostanú v kuchyni zrušenie.', cs: 'Smazat tento účet? Odeslané položky dostanou v kuchyni zrušení.' },
  removeIt: { en: 'Delete', sk: 'Zmazať', cs: 'Smazat' },
  needsHub: { en: 'This needs the hub; try again when the connection is back.', sk: 'Toto potrebuje hub; skúste to, keď bude spojenie späť.', cs: 'Tohle potřebuje hub; zkuste to, až bude spojení zpět.' },
  none: { en: 'No discount', sk: 'Bez zľavy', cs: 'Bez slevy' },
  other: { en: 'Other %', sk: 'Iná %', cs: 'Jiná %' },
  set: { en: 'Set', sk: 'Nastaviť', cs: 'Nastavit' },
  card: { en: 'Card number', sk: 'Číslo karty', cs: 'Číslo karty' },
  find: { en: 'Find', sk: 'Nájsť', cs: 'Najít' },
  byName: { en: 'Or search by name', sk: 'Alebo hľadať podľa mena', cs: 'Nebo hledat podle jména' },
  noCard: { en: 'No customer has this card.', sk: 'Túto kartu nemá žiadny zákazník.', cs: 'Tuto kartu nemá žádný zákazník.' },
  needsRead: { en: 'Searching by name needs the right CustomerRead; a card works without it.', sk: 'Hľadanie podľa mena potrebuje právo CustomerRead; karta funguje aj bez neho.', cs: 'Hledání podle jména potřebuje právo CustomerRead; karta funguje i bez něj.' },
  expired: { en: 'expired', sk: 'platnosť skončila', cs: 'platnost skončila' },
  noOne: { en: 'Nobody found.', sk: 'Nikto sa nenašiel.', cs: 'Nikdo nenalezen.' },
  withDiscount: { en: '{name} · discount {rate} %', sk: '{name} · zľava {rate} %', cs: '{name} · sleva {rate} %' },
  takeOff: { en: 'No customer', sk: 'Bez zákazníka', cs: 'Bez zákazníka' },
  name: { en: 'Name', sk: 'Názov', cs: 'Název' },
  note: { en: 'Note', sk: 'Poznámka', cs: 'Poznámka' },
  save: { en: 'Save', sk: 'Uložiť', cs: 'Uložit' },
  tableName: { en: 'Or type a table', sk: 'Alebo napíšte stôl', cs: 'Nebo napište stůl' },
  here: { en: 'Move here', sk: 'Presunúť sem', cs: 'Přesunout sem' },
  handover: { en: 'Hand over to a colleague', sk: 'Odovzdať kolegovi', cs: 'Předat kolegovi' },
  takeover: { en: 'Take over from {name}', sk: 'Prevziať od: {name}', cs: 'Převzít od: {name}' },
  waiterNow: { en: 'Waiter now: {name}', sk: 'Teraz obsluhuje: {name}', cs: 'Teď obsluhuje: {name}' },
  handedOver: { en: 'Handed over to {name}.', sk: 'Odovzdané: {name}.', cs: 'Předáno: {name}.' },
  tookOver: { en: 'The ticket is yours now.', sk: 'Účet je teraz váš.', cs: 'Účet je teď váš.' },
  loading: { en: 'Loading…', sk: 'Načítava sa…', cs: 'Načítá se…' },
  nobody: { en: 'No colleague to hand it over to.', sk: 'Nie je komu ho odovzdať.', cs: 'Není komu ho předat.' },
  notActive: { en: '{name} can no longer take tickets; choose another colleague.', sk: '{name} už nemôže prevziať účty; vyberte iného kolegu.', cs: '{name} už nemůže převzít účty; vyberte jiného kolegu.' },
});

/** A colleague a ticket may go to (GET /api/registers/colleagues). */
interface Colleague {
  userName: string;
  name: string;
}

/** Whether the logged-in waiter owns the ticket (a ticket not at the hub yet is theirs). */
export function isMine(ticket: LocalTicket): boolean {
  const owner = ticket.latest?.employee.userName;
  return !owner || owner.toLowerCase() === session()?.user.userName.toLowerCase();
}

/** The waiter a ticket is with, as the floor names them. */
export const ownerName = (ticket: LocalTicket): string => ticket.latest?.employee.name || ticket.latest?.employee.userName || '';

/**
 * Whom to hand the ticket over to: the colleagues who may sell, from the hub (a register logged in
 * with a password has no key to list the users with, so the waiter's session reads them), the
 * ticket's own waiter left out.
 */
function HandoverDialog({ ticket, onClose }: { ticket: LocalTicket; onClose: () => void }): JSX.Element {
  const [colleagues, setColleagues] = useState<Colleague[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const owner = ticket.latest?.employee.userName.toLowerCase();
  useEffect(() => {
    call<{ items: Colleague[] }>('GET', '/api/registers/colleagues?$take=1000')
      .then((r) => setColleagues(r.items.filter((c) => c.userName.toLowerCase() !== owner)))
      .catch((e: unknown) => setError(failure(e)));
  }, []);
  const give = async (c: Colleague) => {
    setBusy(c.userName);
    setError(null);
    try {
      await till.handover([ticket.id], c.userName);
      say(t('handedOver', { name: c.name || c.userName }));
      onClose();
      go({ kind: 'tables' });
    } catch (e) {
      // Deactivated since the list was read: the hub names userName at fault.
      const gone = e instanceof ApiError && e.problem.errors?.some((x) => x.memberName === 'userName');
      setError(gone ? t('notActive', { name: c.name || c.userName }) : failure(e));
    } finally {
      setBusy(null);
    }
  };
  return (
    <Dialog title={t('handover')} onClose={onClose} testId="handover">
      {ownerName(ticket) && <p class="muted">{t('waiterNow', { name: ownerName(ticket) })}</p>}
      {colleagues === null && !error && <p class="muted">{t('loading')}</p>}
      {colleagues?.length === 0 && <p class="muted">{t('nobody')}</p>}
      {colleagues && colleagues.length > 0 && (
        <div class="stack">
          {colleagues.map((c) => (
            <button type="button" key={c.userName} class="list-button big" disabled={busy !== null} onClick={() => void give(c)} data-testid={`colleague-${c.userName}`}>
              {c.name || c.userName}
            </button>
          ))}
        </div>
      )}
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </Dialog>
  );
}


/** A table of the floor plan, or one typed in: where a ticket or its items go. */
export function TablePicker({ onPick, exclude }: { onPick: (location: Location) => void; exclude?: string | null }): JSX.Element {
  const [name, setName] = useState('');
  const zones = till.catalog.zones.filter((z) => z.isActive !== false);
  return (
    <div class="stack">
      {zones.map((z) => (
        <div key={z.name}>
          <h3>{z.name}</h3>
          <div class="pick-grid">
            {z.tables
              .filter((x) => x.name !== exclude)
              .map((x) => (
                <button type="button" key={x.name} class={`pick ${till.at(x.name).length ? 'busy' : 'free'}`} onClick={() => onPick({ tableName: x.name, zoneName: z.name })} data-testid={`pick-${x.name}`}>
                  {x.name}
                </button>
              ))}
          </div>
        </div>
      ))}
      <form
        class="row"
        onSubmit={(e) => {
          e.preventDefault();
          const n = name.trim();
          if (n) onPick({ tableName: n, zoneName: zones.find((z) => z.tables.some((x) => x.name === n))?.name ?? null });
        }}
      >
        <label class="field grow">
          <span>{t('tableName')}</span>
          <input value={name} onInput={(e) => setName(e.currentTarget.value)} />
        </label>
        <button type="submit" class="big" disabled={!name.trim()}>
          {t('here')}
        </button>
      </form>
    </div>
  );
}

/**
 * The name a ticket takes when it moves from table `from` to `to`: the register names a table's ticket
 * after its table ("Table 4", a part split off it "Table 4 / 2"), and the screens, the bill and the
 * kitchen's next order must not name the table it left. A name the waiter gave stays (null).
 */
export function movedName(name: string, from: string | null | undefined, to: string | null): string | null {
  if (!from || !to) return null;
  const old = tableLabel(from);
  if (name === old) return tableLabel(to);
  if (name.startsWith(`${old} / `)) return tableLabel(to) + name.slice(old.length);
  return null;
}

type Found = { id: string; fullName: string; discountRate: number; status?: string; cards?: Array<{ serialNumber: string }> };

function CustomerDialog({ ticket, onClose }: { ticket: LocalTicket; onClose: () => void }): JSX.Element {
  const [card, setCard] = useState('');
  const [query, setQuery] = useState('');
  const [found, setFound] = useState<Found[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const choose = (c: Found, cardSerialNumber: string | null) => {
    const customer: Customer = { id: c.id, fullName: c.fullName, cardSerialNumber, discountRate: c.discountRate };
    // The customer's own discount needs no TicketSetDiscount (CONTRACT §6).
    till.change(ticket.id, (d) => ({ ...d, customer, discountRate: c.discountRate || d.discountRate }));
    onClose();
  };
  const byCard = async () => {
    if (!card.trim()) return;
    setError(null);
    try {
      const r = await call<{ items: Found[] }>('GET', `/api/customers?CardSerialNumber=${encodeURIComponent(card.trim())}`);
      if (r.items.length === 1) choose(r.items[0], card.trim());
      else setError(t('noCard'));
    } catch (e) {
      setError(failure(e));
    }
  };
  const byName = async () => {
    if (query.trim().length < 2) return;
    setError(null);
    try {
      const r = await call<{ items: Found[] }>('GET', `/api/customers?Search=${encodeURIComponent(query.trim())}&$take=20`);
      setFound(r.items);
    } catch (e) {
      setError(e instanceof ApiError && e.isMissingRight ? t('needsRead') : failure(e));
    }
  };
  return (
    <Dialog title={t('customer')} onClose={onClose} testId="customer">
      <form class="row" onSubmit={submitting(byCard)}>
        <label class="field grow">
          <span>{t('card')}</span>
          <input value={card} onInput={(e) => setCard(e.currentTarget.value)} inputMode="numeric" autoFocus />
        </label>
        <button type="submit" class="big">
          {t('find')}
        </button>
      </form>
      <form class="row" onSubmit={submitting(byName)}>
        <label class="field grow">
          <span>{t('byName')}</span>
          <input value={query} onInput={(e) => setQuery(e.currentTarget.value)} />
        </label>
        <button type="submit" class="big">
          {t('find')}
        </button>
      </form>
      {found && found.length === 0 && <p class="muted">{t('noOne')}</p>}
      {found && (
        <div class="stack">
          {found.map((c) => (
            <button type="button" key={c.id} class="list-button big" onClick={() => choose(c, null)}>
              <span>{c.discountRate ? t('withDiscount', { name: c.fullName, rate: quantity(c.discountRate) }) : c.fullName}</span>
              {c.status === 'Expired' && <span class="badge warn">{t('expired')}</span>}
            </button>
          ))}
        </div>
      )}
      {ticket.draft.customer && (
        <button
          type="button"
          class="big ghost"
          onClick={() => {
            till.change(ticket.id, (d) => ({ ...d, customer: null, discountRate: d.customer && d.discountRate === d.customer.discountRate ? 0 : d.discountRate }));
            onClose();
          }}
        >
          {t('takeOff')}
        </button>
      )}
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </Dialog>
  );
}

function DiscountDialog({ ticket, onClose }: { ticket: LocalTicket; onClose: () => void }): JSX.Element {
  const [custom, setCustom] = useState<string | null>(null);
  const set = (rate: number) => {
    till.change(ticket.id, (d) => ({ ...d, discountRate: rate }));
    onClose();
  };
  return (
    <Dialog title={t('discount')} onClose={onClose} testId="discount">
      <div class="pick-grid">
        {[0, 5, 10, 15, 20, 50].map((r) => (
          <button type="button" key={r} class={`pick${ticket.draft.discountRate === r ? ' on' : ''}`} onClick={() => set(r)}>
            {r ? `${r} %` : t('none')}
          </button>
        ))}
        <button type="button" class="pick" onClick={() => setCustom('')}>
          {t('other')}
        </button>
      </div>
      {custom !== null && (
        <div class="stack">
          <p class="big-number num">{custom || '0'} %</p>
          <NumPad value={custom} onChange={setCustom} decimal maxLength={6} />
          <button
            type="button"
            class="primary big"
            onClick={() => {
              const r = parseDecimal(custom || '0');
              if (r >= 0 && r <= 100) set(r);
            }}
          >
            {t('set')}
          </button>
        </div>
      )}
    </Dialog>
  );
}

function RenameDialog({ ticket, onClose }: { ticket: LocalTicket; onClose: () => void }): JSX.Element {
  const [name, setName] = useState(ticket.draft.name);
  const [note, setNote] = useState(ticket.draft.note ?? '');
  const canRename = !ticket.base || till.can('TicketRename');
  return (
    <Dialog title={t('rename')} onClose={onClose}>
      <form
        class="stack"
        onSubmit={(e) => {
          e.preventDefault();
          till.change(ticket.id, (d) => ({ ...d, name: canRename ? name.trim() : d.name, note: note.trim() || null }));
          onClose();
        }}
      >
        <label class="field">
          <span>{t('name')}</span>
          <input value={name} onInput={(e) => setName(e.currentTarget.value)} disabled={!canRename} />
        </label>
        <label class="field">
          <span>{t('note')}</span>
          <textarea value={note} onInput={(e) => setNote(e.currentTarget.value)} rows={3} />
        </label>
        <button type="submit" class="primary big">
          {t('save')}
        </button>
      </form>
    </Dialog>
  );
}

export function MoreDialog({ ticket, onClose }: { ticket: LocalTicket; onClose: () => void }): JSX.Element {
  const [sub, setSub] = useState<'customer' | 'discount' | 'rename' | 'move' | 'remove' | 'handover' | null>(null);
  const online = till.conn === 'online';
  const run = async (fn: () => Promise<void>) => {
    if (!online) return say(t('needsHub'), 'error');
    try {
      await fn();
    } catch (e) {
      say(failure(e), 'error');
    }
  };
  if (sub === 'customer') return <CustomerDialog ticket={ticket} onClose={onClose} />;
  if (sub === 'discount') return <DiscountDialog ticket={ticket} onClose={onClose} />;
  if (sub === 'rename') return <RenameDialog ticket={ticket} onClose={onClose} />;
  if (sub === 'handover') return <HandoverDialog ticket={ticket} onClose={onClose} />;
  if (sub === 'move') {
    return (
      <Dialog title={t('move')} onClose={onClose} testId="move">
        <TablePicker
          exclude={ticket.draft.location?.tableName}
          onPick={(location) =>
            void run(async () => {
              const name = movedName(ticket.draft.name, ticket.draft.location?.tableName, location.tableName);
              if (!ticket.base) till.change(ticket.id, (d) => ({ ...d, location, name: name ?? d.name }));
              else {
                await till.relocate([ticket.id], location);
                // A rename is a write of its own (TicketRename); without the right the old name stays.
                if (name && till.can('TicketRename')) {
                  till.change(ticket.id, (d) => ({ ...d, name }));
                  till.send(ticket.id);
                }
              }
              say(t('moved', { table: tableLabel(location.tableName ?? '') }));
              onClose();
              go({ kind: 'tables' });
            })
          }
        />
      </Dialog>
    );
  }
  if (sub === 'remove') {
    return (
      <Dialog title={t('remove')} onClose={onClose}>
        <p>{t('removeSure')}</p>
        <button
          type="button"
          class="danger big"
          onClick={() =>
            void run(async () => {
              await till.remove(ticket.id);
              onClose();
              go({ kind: 'tables' });
            })
          }
        >
          {t('removeIt')}
        </button>
      </Dialog>
    );
  }
  const sent = !!ticket.base;
  const mine = isMine(ticket);
  // CONTRACT §6, §11: a Handover needs TicketHandover, and TicketUpdateAny for another's ticket; a Takeover both TicketTakeover and TicketUpdateAny.
  const canHandover = sent && till.can('TicketHandover') && (mine || till.can('TicketUpdateAny'));
  const canTakeover = sent && !mine && till.can('TicketTakeover') && till.can('TicketUpdateAny');
  return (
    <Dialog title={t('title')} onClose={onClose} testId="more">
      <div class="stack">
        {till.can('TicketPrintPreliminary') && sent && (
          <button
            type="button"
            class="big"
            onClick={() =>
              void run(async () => {
                await till.preliminary(ticket.id);
                say(t('billQueued'));
                onClose();
              })
            }
          >
            {t('bill')}
          </button>
        )}
        {sent && (
          <button
            type="button"
            class="big"
            onClick={() => {
              if (!online) return say(t('needsHub'), 'error');
              onClose();
              go({ kind: 'split', id: ticket.id });
            }}
          >
            {t('split')}
          </button>
        )}
        <button type="button" class="big" onClick={() => setSub('move')}>
          {t('move')}
        </button>
        {canTakeover && (
          <button
            type="button"
            class="big"
            data-testid="takeover"
            onClick={() =>
              void run(async () => {
                await till.takeover([ticket.id]);
                say(t('tookOver'));
                onClose();
              })
            }
          >
            {t('takeover', { name: ownerName(ticket) })}
          </button>
        )}
        {canHandover && (
          <button
            type="button"
            class="big"
            onClick={() => {
              if (!online) return say(t('needsHub'), 'error');
              setSub('handover');
            }}
          >
            {t('handover')}
          </button>
        )}
        {till.can('TicketSetDiscount') && (
          <button type="button" class="big" onClick={() => setSub('discount')}>
            {t('discount')}
          </button>
        )}
        {till.can('TicketSetCustomer') && (
          <button type="button" class="big" onClick={() => setSub('customer')}>
            {t('customer')}
          </button>
        )}
        <button type="button" class="big" onClick={() => setSub('rename')}>
          {t('rename')}
        </button>
        {(!sent || till.can('TicketDelete')) && (
          <button
            type="button"
            class="big danger"
            onClick={() => {
              if (!sent) {
                till.discard(ticket.id);
                onClose();
                go({ kind: 'tables' });
              } else setSub('remove');
            }}
          >
            {t('remove')}
          </button>
        )}
      </div>
    </Dialog>
  );
}
