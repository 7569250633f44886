/**
 * The floor: the shop's zones and their tables, each free or showing its open ticket — the waiter,
 * the running total and the minutes since the last order — live as every register changes them.
 * Tickets off the plan (a takeaway, a quick sale, a table name typed in) are listed beside it.
 * Without a floor plan the register still works: open tickets, a table by name, a quick sale.
 */
import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { messages, plural } from '../shared/i18n';
import { money } from '../shared/format';
import { newTicketId, session } from './api';
import type { Table, Zone } from './catalog';
import { go, useNow } from './hooks';
import { ShiftOffer } from './Shift';
import { hasChanges, totalOf, type LocalTicket } from './tickets';
import { till } from './till';
import { Dialog } from './ui';

const t = messages({
  quickSale: { en: 'Quick sale', sk: 'Rýchly predaj', cs: 'Rychlý prodej' },
  takeaway: { en: 'Takeaway', sk: 'So sebou', cs: 'S sebou' },
  tableByName: { en: 'Table…', sk: 'Stôl…', cs: 'Stůl…' },
  returns: { en: 'Returns', sk: 'Vrátenie', cs: 'Vrácení' },
  day: { en: 'Shift & end of day', sk: 'Zmena a uzávierka', cs: 'Směna a uzávěrka' },
  other: { en: 'Other tickets', sk: 'Ostatné účty', cs: 'Ostatní účty' },
  noOpen: { en: 'No open tickets. Tap a table, or start a quick sale.', sk: 'Žiadne otvorené účty. Ťuknite na stôl alebo začnite rýchly predaj.', cs: 'Žádné otevřené účty. Klepněte na stůl nebo začněte rychlý prodej.' },
  noPlan: { en: 'No floor plan yet: the manager lays out zones and tables on the manager’s page. Meanwhile type a table’s name.', sk: 'Zatiaľ bez plánu stolov: vedúci rozloží zóny a stoly na stránke vedúceho. Zatiaľ napíšte názov stola.', cs: 'Zatím bez plánku stolů: vedoucí rozmístí zóny a stoly na stránce vedoucího. Zatím napište název stolu.' },
  free: { en: 'free', sk: 'voľný', cs: 'volný' },
  minutes: { en: '{n} min', sk: '{n} min', cs: '{n} min' },
  unsent: { en: 'not sent', sk: 'neodoslané', cs: 'neodesláno' },
  conflict: { en: 'changed elsewhere', sk: 'zmenené inde', cs: 'změněno jinde' },
  tableName: { en: 'Table name or number', sk: 'Názov alebo číslo stola', cs: 'Název nebo číslo stolu' },
  open: { en: 'Open', sk: 'Otvoriť', cs: 'Otevřít' },
  atTable: { en: 'Table {name}', sk: 'Stôl {name}', cs: 'Stůl {name}' },
  newAt: { en: 'New ticket at this table', sk: 'Nový účet pri tomto stole', cs: 'Nový účet u tohoto stolu' },
  ticketsAt: { en: 'Tickets at {name}', sk: 'Účty pri stole {name}', cs: 'Účty u stolu {name}' },
  takeawayName: { en: 'Takeaway {n}', sk: 'So sebou {n}', cs: 'S sebou {n}' },
  quickName: { en: 'Sale {n}', sk: 'Predaj {n}', cs: 'Prodej {n}' },
  zones: { en: 'Zones', sk: 'Zóny', cs: 'Zóny' },
});

const tickets = (n: number) => plural(n, { one: { en: '1 ticket', sk: '1 účet', cs: '1 účet' }, few: { en: '{n} tickets', sk: '{n} účty', cs: '{n} účty' }, other: { en: '{n} tickets', sk: '{n} účtov', cs: '{n} účtů' } });

/** "5" reads as "Table 5"; a name ("Bar 2", "Okno") as it is. */
export function tableLabel(name: string): string {
  return /^\d+$/.test(name) ? t('atTable', { name }) : name;
}

/** Opens a new ticket here (it reaches the hub with the first "Send") and shows it. */
function startTicket(draft: { name: string; location?: { tableName: string | null; zoneName: string | null } | null; purchaseType?: 'WalkIn' | 'TakeAway' | 'Delivery' }): void {
  const ticket = till.create(newTicketId(), { name: draft.name, location: draft.location ?? null, purchaseType: draft.purchaseType ?? 'WalkIn' });
  go({ kind: 'ticket', id: ticket.id });
}

/**
 * Minutes since the ticket last sent something to the kitchen (the hub's lastOrderDate), on the hub's
 * clock; since it was opened when nothing was ordered yet, or when it was stored before the field
 * existed. None for a ticket the hub has not seen yet.
 */
function minutesSince(t: LocalTicket, now: number): number | null {
  if (!t.latest) return null;
  const last = Date.parse(t.latest.lastOrderDate ?? t.latest.openDate);
  return Number.isNaN(last) ? null : Math.max(0, Math.floor((now - last) / 60_000));
}

function waiterOf(t: LocalTicket): string {
  return t.latest?.employee.name || t.latest?.employee.userName || session()?.user.name || '';
}

function TicketFacts({ list, now }: { list: LocalTicket[]; now: number }): JSX.Element {
  const total = list.reduce((s, x) => s + totalOf(x), 0);
  const mins = list.map((x) => minutesSince(x, now)).filter((m): m is number => m !== null);
  const waiters = [...new Set(list.map(waiterOf).filter(Boolean))];
  const unsent = list.some((x) => hasChanges(x) || till.isWaiting(x.id));
  const conflict = list.some((x) => x.conflict);
  return (
    <>
      <span class="table-waiter">{waiters.join(', ')}</span>
      <span class="table-total num">{money(total)}</span>
      <span class="table-meta">
        {mins.length > 0 && <span data-testid="minutes">{t('minutes', { n: Math.min(...mins) })}</span>}
        {list.length > 1 && <span>{tickets(list.length)}</span>}
        {unsent && <span class="badge new">{t('unsent')}</span>}
        {conflict && <span class="badge warn">{t('conflict')}</span>}
      </span>
    </>
  );
}

function TableTile({ table, zone, now, placed }: { table: Table; zone: Zone | null; now: number; placed: boolean }): JSX.Element {
  const list = till.at(table.name);
  const [choosing, setChoosing] = useState(false);
  const open = () => {
    if (list.length === 0) startTicket({ name: tableLabel(table.name), location: { tableName: table.name, zoneName: zone?.name ?? null } });
    else if (list.length === 1) go({ kind: 'ticket', id: list[0].id });
    else setChoosing(true);
  };
  const style = placed
    ? { gridColumn: `${(table.x ?? 0) + 1} / span ${table.width || 2}`, gridRow: `${(table.y ?? 0) + 1} / span ${table.height || 2}` }
    : {};
  return (
    <>
      <button type="button" class={`table-tile ${list.length ? 'busy' : 'free'}${table.shape === 'Round' ? ' round' : ''}`} style={style} onClick={open} data-testid={`table-${table.name}`} data-state={list.length ? 'open' : 'free'}>
        <span class="table-name">{table.name}</span>
        {list.length ? <TicketFacts list={list} now={now} /> : <span class="table-free">{t('free')}</span>}
      </button>
      {choosing && (
        <Dialog title={t('ticketsAt', { name: table.name })} onClose={() => setChoosing(false)}>
          <div class="stack">
            {list.map((x) => (
              <button type="button" class="big list-button" key={x.id} onClick={() => go({ kind: 'ticket', id: x.id })}>
                <span>{x.draft.name || table.name}</span>
                <span class="num">{money(totalOf(x))}</span>
              </button>
            ))}
            <button type="button" class="big ghost" onClick={() => startTicket({ name: tableLabel(table.name), location: { tableName: table.name, zoneName: zone?.name ?? null } })}>
              {t('newAt')}
            </button>
          </div>
        </Dialog>
      )}
    </>
  );
}

function ZonePlan({ zone, now }: { zone: Zone; now: number }): JSX.Element {
  const placed = zone.tables.length > 0 && zone.tables.every((x) => typeof x.x === 'number' && typeof x.y === 'number');
  const cols = placed ? Math.max(...zone.tables.map((x) => (x.x ?? 0) + (x.width || 2))) : 0;
  return (
    <div class={placed ? 'plan placed' : 'plan'} style={placed ? { gridTemplateColumns: `repeat(${cols}, minmax(0, 1fr))` } : undefined} data-testid={`zone-${zone.name}`}>
      {zone.tables.map((table) => (
        <TableTile key={table.name} table={table} zone={zone} now={now} placed={placed} />
      ))}
    </div>
  );
}

function OtherTickets({ list, now }: { list: LocalTicket[]; now: number }): JSX.Element {
  return (
    <div class="plan" data-testid="other-tickets">
      {list.map((x) => (
        <button type="button" key={x.id} class="table-tile busy" onClick={() => go({ kind: 'ticket', id: x.id })} data-testid={`ticket-${x.id}`}>
          <span class="table-name">{x.draft.location?.tableName ? tableLabel(x.draft.location.tableName) : x.draft.name || '—'}</span>
          <TicketFacts list={[x]} now={now} />
        </button>
      ))}
    </div>
  );
}

export function Tables(): JSX.Element {
  const now = useNow();
  const zones = till.catalog.zones.filter((z) => z.isActive !== false).sort((a, b) => (a.order ?? 0) - (b.order ?? 0) || a.name.localeCompare(b.name));
  const planned = new Set(zones.flatMap((z) => z.tables.map((x) => x.name)));
  const others = till
    .open()
    .filter((x) => !x.draft.location?.tableName || !planned.has(x.draft.location.tableName))
    .sort((a, b) => (b.latest?.openDate ?? '').localeCompare(a.latest?.openDate ?? '') || b.touchedAt - a.touchedAt);
  const [zoneName, setZoneName] = useState<string | null>(null);
  const zone = zones.find((z) => z.name === zoneName) ?? zones[0] ?? null;
  const showOthers = zoneName === '' || !zone;
  const [asking, setAsking] = useState(false);
  const [name, setName] = useState('');
  const count = (pred: (x: LocalTicket) => boolean) => till.open().filter(pred).length;

  return (
    <section class="floor" data-testid="tables">
      <ShiftOffer />
      {zones.length > 0 && (
        <nav class="tabs" aria-label={t('zones')}>
          {zones.map((z) => (
            <button type="button" key={z.name} class={`tab${!showOthers && zone?.name === z.name ? ' on' : ''}`} style={z.color ? { borderColor: z.color } : undefined} onClick={() => setZoneName(z.name)} aria-pressed={!showOthers && zone?.name === z.name}>
              {z.name}
              <span class="count">{count((x) => z.tables.some((tb) => tb.name === x.draft.location?.tableName))}</span>
            </button>
          ))}
          <button type="button" class={`tab${showOthers ? ' on' : ''}`} onClick={() => setZoneName('')} aria-pressed={showOthers}>
            {t('other')}
            <span class="count">{others.length}</span>
          </button>
        </nav>
      )}
      <div class="floor-body">
        {!showOthers && zone ? <ZonePlan zone={zone} now={now} /> : others.length ? <OtherTickets list={others} now={now} /> : <p class="muted empty">{t('noOpen')}</p>}
        {zones.length === 0 && <p class="muted hint">{t('noPlan')}</p>}
      </div>
      <div class="actions-bar">
        <button type="button" class="big" onClick={() => startTicket({ name: t('quickName', { n: count((x) => x.draft.purchaseType === 'WalkIn' && !x.draft.location) + 1 }) })}>
          {t('quickSale')}
        </button>
        <button type="button" class="big" onClick={() => startTicket({ name: t('takeawayName', { n: count((x) => x.draft.purchaseType === 'TakeAway') + 1 }), purchaseType: 'TakeAway' })}>
          {t('takeaway')}
        </button>
        <button type="button" class="big" onClick={() => setAsking(true)}>
          {t('tableByName')}
        </button>
        <button type="button" class="big ghost" onClick={() => go({ kind: 'returns' })}>
          {t('returns')}
        </button>
        <button type="button" class="big ghost" onClick={() => go({ kind: 'day' })}>
          {t('day')}
        </button>
      </div>
      {asking && (
        <Dialog title={t('tableByName')} onClose={() => setAsking(false)}>
          <form
            class="stack"
            onSubmit={(e) => {
              e.preventDefault();
              const n = name.trim();
              if (!n) return;
              setAsking(false);
              setName('');
              const here = till.at(n);
              if (here.length === 1) go({ kind: 'ticket', id: here[0].id });
              else startTicket({ name: tableLabel(n), location: { tableName: n, zoneName: zones.find((z) => z.tables.some((x) => x.name === n))?.name ?? null } });
            }}
          >
            <label class="field">
              <span>{t('tableName')}</span>
              <input class="big-input" value={name} onInput={(e) => setName(e.currentTarget.value)} autoFocus />
            </label>
            <button class="primary big" type="submit" disabled={!name.trim()}>
              {t('open')}
            </button>
          </form>
        </Dialog>
      )}
    </section>
  );
}
