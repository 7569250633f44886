/**
 * The pass: what is ready, per table, oldest first, with what that table still waits for; a tap
 * on "Served" serves the table's ready orders (after the same undo delay as the kitchen's bump).
 */
import type { JSX } from 'preact';
import { useEffect, useMemo, useRef } from 'preact/hooks';
import { messages } from '../shared/i18n';
import { hubNow } from './api';
import { Feed, orderNumber, placeOf, type Order } from './feed';
import { go, kitchenPath, useFeed, useNow } from './hooks';
import { timersFrom, useArrivals, useEndpoint } from './Kitchen';
import { ageClass, cancelledLater, clock, Items, servingIn } from './Ticket';
import { Message, Top } from './Top';

const t = messages({
  notStarted: { en: 'not started', sk: 'nezačaté', cs: 'nezačato' },
  inProgress: { en: 'in progress', sk: 'pripravuje sa', cs: 'připravuje se' },
  namePass: { en: '{name} · pass', sk: '{name} · výdaj', cs: '{name} · výdej' },
  passOf: { en: 'Pass · {names}', sk: 'Výdaj · {names}', cs: 'Výdej · {names}' },
  pass: { en: 'Pass', sk: 'Výdaj', cs: 'Výdej' },
  kitchenView: { en: 'Kitchen view', sk: 'Kuchyňa', cs: 'Kuchyně' },
  nothingReady: { en: 'Nothing is ready at the pass.', sk: 'Na výdaji nie je nič hotové.', cs: 'Na výdeji není nic hotového.' },
  loading: { en: 'Loading…', sk: 'Načítava sa…', cs: 'Načítá se…' },
  ready: { en: 'ready ', sk: 'hotové ', cs: 'hotové ' },
  stillCooking: { en: 'Still cooking:', sk: 'Ešte sa pripravuje:', cs: 'Ještě se připravuje:' },
  served: { en: 'Served ✓ {table}', sk: 'Vydané ✓ {table}', cs: 'Vydáno ✓ {table}' },
});

interface Table {
  key: string;
  title: string;
  sub: string | null;
  ready: Order[];
  cooking: Order[];
  readySince: number;
}

const readyAt = (o: Order) => Date.parse(o.stateChangedAt ?? o.createdAt);

/** A table is its location (table and zone); an order without one is its own ticket. */
function tables(feed: Feed): Table[] {
  const byKey = new Map<string, Table>();
  for (const o of feed.all()) {
    if (o.kind === 'Cancel') continue;
    const key = o.location?.tableName ? `t\u0000${o.location.tableName}\u0000${o.location.zoneName ?? ''}` : `k\u0000${o.ticketId}`;
    const place = placeOf(o);
    const t = byKey.get(key) ?? { key, title: place.title, sub: place.sub, ready: [], cooking: [], readySince: Infinity };
    if (feed.shownState(o) === 'Ready' || feed.isServing(o.id)) {
      t.ready.push(o);
      t.readySince = Math.min(t.readySince, readyAt(o));
    } else if (feed.shownState(o) !== 'Served') t.cooking.push(o);
    byKey.set(key, t);
  }
  return [...byKey.values()].filter((t) => t.ready.length > 0).sort((a, b) => a.readySince - b.readySince || a.key.localeCompare(b.key));
}

/** The pass looks at the last 12 hours: a table's orders from an earlier service are not this party's. */
const PASS_WINDOW_MS = 12 * 3600_000;

const STATE_LABEL: Record<string, () => string> = { New: () => t('notStarted'), InProgress: () => t('inProgress') };

export function Expo({ name, endpoints }: { name: string | null; endpoints: string[] | null }): JSX.Element {
  const { reload } = useEndpoint(name);
  const { onArrive } = useArrivals(false);
  const reloadRef = useRef(reload);
  reloadRef.current = reload;
  const key = endpoints?.join('\u0000') ?? '';
  const feed = useMemo(() => new Feed(endpoints, { onArrive, onEndpointChange: (k) => k === name && reloadRef.current() }, PASS_WINDOW_MS), [key, onArrive]);
  useEffect(() => {
    feed.start();
    return () => feed.stop();
  }, [feed]);
  useFeed(feed);
  const now = useNow(1000);
  // Food waiting at the pass goes cold faster than a ticket waits in the kitchen.
  const timers = timersFrom(undefined, [2, 5]);
  const list = tables(feed);
  const title = name ? t('namePass', { name }) : endpoints ? t('passOf', { names: endpoints.join(', ') }) : t('pass');

  return (
    <div class="kds expo" data-testid="expo">
      <Top title={title} feed={feed} now={now} beepEnabled={false}>
        {name && (
          <button class="chip ghost" type="button" onClick={() => go(kitchenPath(name))}>
            {t('kitchenView')}
          </button>
        )}
      </Top>
      <Message feed={feed} now={now} />
      <main class="tables">
        {feed.ready && list.length === 0 && <p class="empty big-empty">{t('nothingReady')}</p>}
        {!feed.ready && <p class="empty big-empty">{t('loading')}</p>}
        {list.map((table) => {
          const waited = hubNow() - table.readySince;
          const serving = table.ready.every((o) => feed.isServing(o.id));
          return (
            <section class={`table-card age-${ageClass(waited, timers)}${serving ? ' serving' : ''}`} key={table.key} data-table={table.title} aria-label={table.title}>
              <header class="head">
                <span class="place">{table.title}</span>
                {table.sub && <span class="zone">{table.sub}</span>}
                <span class="timer">
                  <span class="timer-label">{t('ready')}</span>
                  {clock(waited)}
                </span>
              </header>
              {table.ready.map((o) => {
                // The last look before a plate leaves: a storno made after the order was cooked shows here too.
                const changed = feed.changedLater(o);
                return (
                  <div class={`ready-order${feed.isServing(o.id) ? ' serving' : ''}`} key={o.id} data-order-id={o.id}>
                    <div class="meta">
                      <span class="number">#{orderNumber(o)}</span>
                      {(!endpoints || endpoints.length > 1) && <span class="endpoint">{o.orderEndpointName}</span>}
                      {o.employee?.name && <span>{o.employee.name}</span>}
                    </div>
                    {changed && <div class="changed">{cancelledLater(changed)}</div>}
                    <Items order={o} />
                  </div>
                );
              })}
              {table.cooking.length > 0 && (
                <p class="waiting" data-testid="still-cooking">
                  {t('stillCooking')}{' '}
                  {table.cooking.map((o) => `${o.orderEndpointName} #${orderNumber(o)} (${STATE_LABEL[feed.shownState(o)]?.() ?? feed.shownState(o)})`).join(', ')}
                </p>
              )}
              <button
                class="serve"
                type="button"
                onClick={() => {
                  // All on their way out: keep them all; otherwise serve those not yet going.
                  for (const o of table.ready) if (serving || !feed.isServing(o.id)) feed.bump(o.id);
                }}
              >
                {serving ? servingIn(Math.max(0, Math.ceil(((feed.isServing(table.ready[0].id) ?? now) - now) / 1000))) : t('served', { table: table.title })}
              </button>
            </section>
          );
        })}
      </main>
    </div>
  );
}
