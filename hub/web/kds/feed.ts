/**
 * The orders a display shows, kept current from the hub and kept honest through Wi-Fi drops.
 *
 * - Every (re)connect takes the change-log position from /api/health first, then reloads the
 *   list, then follows /api/events from that position: whatever changes after the position comes
 *   as an event, whatever came before is in the list, so nothing made during an outage is lost.
 * - Orders are held by id and each is taken only at a newer `_v` than the one held, so an event
 *   and a reload that both bring the same order never show it twice or roll it back.
 * - The browser's EventSource resumes by itself with Last-Event-ID; a refused stream (a revoked
 *   token) or a silent dead socket (found by a 15 s poll of /api/changes) starts over as above.
 * - A bump shows at once and goes out through a small outbox with an Idempotency-Key, retried
 *   while the hub cannot be reached, so a tap made offline is sent once the Wi-Fi is back.
 */
import { messages } from '../shared/i18n';
import type { Order as WireOrder } from '../shared/types';
import { ApiError, call, hubNow, NetworkError, newKey, onSession, session } from './api';

const t = messages({
  movedElsewhere: { en: 'Order {n} has moved on elsewhere; nothing to recall.', sk: 'Objednávka {n} sa medzitým posunula inde; nie je čo vrátiť.', cs: 'Objednávka {n} se mezitím posunula jinam; není co vrátit.' },
  movedMeanwhile: { en: 'Order {n} was moved on another screen meanwhile; it shows as it is now.', sk: 'Objednávku {n} medzitým posunuli na inej obrazovke; zobrazuje sa, ako je teraz.', cs: 'Objednávku {n} mezitím posunuli na jiné obrazovce; zobrazuje se, jak je teď.' },
  notMoved: { en: 'Order {n} was not moved: {why}', sk: 'Objednávka {n} sa nepresunula: {why}', cs: 'Objednávka {n} se nepřesunula: {why}' },
  notRecalled: { en: 'Order {n} was not recalled: {why}', sk: 'Objednávku {n} sa nepodarilo vrátiť: {why}', cs: 'Objednávku {n} se nepodařilo vrátit: {why}' },
  unreachable: { en: 'The hub cannot be reached. Try again when the connection is back.', sk: 'Hub je nedostupný. Skúste to znova, keď bude spojenie späť.', cs: 'Hub je nedostupný. Zkuste to znovu, až bude spojení zpět.' },
  table: { en: 'Table {n}', sk: 'Stôl {n}', cs: 'Stůl {n}' },
});

export type State = WireOrder['state'];
export const FLOW: State[] = ['New', 'InProgress', 'Ready', 'Served'];
export const ACTIVE: State[] = ['New', 'InProgress', 'Ready'];

/** An order as GET /api/orders answers it (the display reads no more than these fields). */
export type Order = Pick<WireOrder, 'id' | 'ticketId' | 'ticketName' | 'orderEndpointName' | 'kind' | 'state' | 'createdAt' | 'stateChangedAt' | 'location' | 'employee' | 'items' | '_v'>;
export type OrderItem = Order['items'][number];

export type Conn = 'connecting' | 'live' | 'offline';

/** A cancel order stays on screen until a cook taps it away, or this long. */
export const CANCEL_SHOWN_MS = 2 * 3600_000;
/** A tap on a Ready order waits this long before it is sent as Served: Served cannot be recalled. */
export const SERVE_DELAY_MS = 5_000;
const RETRY_MS = 2_000;
const POLL_MS = 15_000;
const DISMISSED_KEY = 'poshub.kds.dismissed';
/** How long after Served an order stays in the history list, to be recalled (the hub's RECALL_WINDOW_MS). */
export const RECALL_WINDOW_MS = 30 * 60_000;
/**
 * Served orders for the history are looked for among those made this long ago at most: one served
 * in the last half hour was ordered within the last hours, and a reconnect should not reload the day.
 */
const SERVED_LOOKBACK_MS = 3 * 3600_000;

interface Bump {
  id: string;
  from: State;
  to: State;
}

interface Job {
  id: string;
  state: State;
  key: string;
  /**
   * The order's `_v` the cook saw when tapping, sent so a move made meanwhile on another screen
   * is not overridden (409). Unset for a tap queued behind another move of the same order: that
   * one's answer supplies it.
   */
  v?: number;
}

/** NData `in:` value, CSV-quoted where a name holds a comma or a quote. */
const inList = (values: string[]) => 'in:' + values.map((v) => (/[",]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v)).join(',');
const q = encodeURIComponent;
const byAge = (a: Order, b: Order) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id);
export const orderNumber = (o: Order) => o.id.slice(-6).toUpperCase();

function loadDismissed(): Map<string, number> {
  try {
    const raw = JSON.parse(localStorage.getItem(DISMISSED_KEY) ?? '{}') as Record<string, number>;
    const cutoff = Date.now() - 24 * 3600_000;
    return new Map(Object.entries(raw).filter(([, at]) => at > cutoff));
  } catch {
    return new Map();
  }
}

export class Feed {
  /** Orders in scope, by id. */
  private readonly orders = new Map<string, Order>();
  /** The highest `_v` seen per id, in scope or not, so an old copy never comes back. */
  private readonly versions = new Map<string, number>();
  /** States shown before the hub confirms them. */
  private readonly optimistic = new Map<string, State>();
  private readonly serving = new Map<string, { until: number; timer: ReturnType<typeof setTimeout> }>();
  private readonly seen = new Set<string>();
  /** Cancel orders in scope, tapped away or not: the orders they change keep saying so. */
  private readonly cancels = new Map<string, Order>();
  private readonly dismissed = loadDismissed();
  /** Orders in scope served lately (the history list), by id. */
  private readonly served = new Map<string, Order>();
  private readonly recalling = new Set<string>();
  private readonly listeners = new Set<() => void>();
  private readonly pendingKeys = new Set<string>();
  /** Ids an event brought while a reload was under way: newer than the list, so kept. */
  private readonly touched = new Set<string>();
  private readonly outbox: Job[] = [];
  private recalls: Bump[] = [];
  private loaded = false;
  private lastSeq: number | null = null;
  private es: EventSource | null = null;
  private streamFailed = false;
  private fetchTimer: ReturnType<typeof setTimeout> | undefined;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  /** Ends the held taps' wait for the next try at once (set while they wait). */
  private wakeOutbox: (() => void) | undefined;
  private pollTimer: ReturnType<typeof setInterval> | undefined;
  private sending = false;
  private stopped = true;
  private unsubscribe: (() => void) | undefined;
  private readonly flushOnHide = () => this.flushServing(true);

  conn: Conn = 'connecting';
  /** The last problem worth telling the cook, with when it happened. */
  message: { text: string; at: number } | null = null;
  /** When the hub last answered (for "offline since"). */
  lastContact = 0;

  constructor(
    /** Order endpoint names to show; null: every endpoint (the pass). */
    readonly endpoints: string[] | null,
    private readonly hooks: { onArrive?(order: Order): void; onEndpointChange?(name: string): void } = {},
    /**
     * Only orders younger than this. The pass sets it: printer endpoints' orders are never bumped,
     * and yesterday's at table 4 must not show as "still cooking" for today's guests there.
     */
    private readonly windowMs: number | null = null,
  ) {}

  subscribe(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private notify(): void {
    for (const fn of [...this.listeners]) fn();
  }

  private setConn(conn: Conn): void {
    if (conn === 'live') this.lastContact = Date.now();
    if (this.conn === conn) return;
    this.conn = conn;
    this.notify();
  }

  private say(text: string): void {
    this.message = { text, at: Date.now() };
    this.notify();
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    // A new token (refresh) means a new stream: the old URL carries the old token.
    let token = session()?.tokenId;
    this.unsubscribe = onSession(() => {
      const next = session()?.tokenId;
      if (!next) this.stop();
      else if (next !== token && this.es) this.reopen();
      token = next;
    });
    addEventListener('pagehide', this.flushOnHide);
    addEventListener('online', this.retryNow);
    this.pollTimer = setInterval(() => void this.poll(), POLL_MS);
    void this.connect();
  }

  stop(): void {
    this.stopped = true;
    this.es?.close();
    this.es = null;
    clearTimeout(this.retryTimer);
    clearTimeout(this.fetchTimer);
    clearInterval(this.pollTimer);
    this.unsubscribe?.();
    removeEventListener('pagehide', this.flushOnHide);
    removeEventListener('online', this.retryNow);
  }

  /**
   * The tablet's network is back (the browser's `online` event, e.g. the Wi-Fi reconnected): try the
   * hub and send the held taps now rather than at the next retry, up to RETRY_MS (or the browser's
   * own stream retry) later.
   */
  private readonly retryNow = (): void => {
    if (this.stopped) return;
    if (this.conn !== 'live') void this.connect();
    this.wakeOutbox?.();
  };

  // ---- reading -------------------------------------------------------------------------------

  private inScope(o: Order): boolean {
    return !this.endpoints || this.endpoints.includes(o.orderEndpointName);
  }

  private relevant(o: Order): boolean {
    if (!this.inScope(o)) return false;
    const age = hubNow() - Date.parse(o.createdAt);
    if (o.kind === 'Cancel') return !this.dismissed.has(o.id) && age < CANCEL_SHOWN_MS;
    return ACTIVE.includes(o.state) && (this.windowMs === null || age < this.windowMs);
  }

  private scopeFilter(): string {
    return this.endpoints ? `&orderEndpointName=${q(inList(this.endpoints))}` : '';
  }

  private async list(filter: string): Promise<Order[]> {
    const out: Order[] = [];
    for (let skip = 0; ; skip += 1000) {
      const page = await call<{ items: Order[] }>('GET', `/api/orders?${filter}${this.scopeFilter()}&$sort=createdAt&$take=1000&$skip=${skip}`);
      out.push(...page.items);
      if (page.items.length < 1000) return out;
    }
  }

  /** Takes an order unless an equal or newer version is already held. */
  private apply(o: Order, live: boolean): void {
    if (o._v < (this.versions.get(o.id) ?? 0)) return;
    this.versions.set(o.id, o._v);
    this.touched.add(o.id);
    if (o.kind === 'Cancel' && this.inScope(o)) this.cancels.set(o.id, o);
    const arriving = this.loaded && live && !this.seen.has(o.id);
    this.seen.add(o.id);
    if (this.relevant(o)) this.orders.set(o.id, o);
    else this.orders.delete(o.id);
    if (this.inScope(o) && o.kind !== 'Cancel' && o.state === 'Served') this.served.set(o.id, o);
    else this.served.delete(o.id);
    if (this.optimistic.get(o.id) === o.state && !this.outbox.some((j) => j.id === o.id)) this.optimistic.delete(o.id);
    if (arriving && this.orders.has(o.id)) this.hooks.onArrive?.(o);
  }

  /** The whole list again: after a (re)connect, orders made or moved meanwhile are all in it. */
  private async reload(): Promise<void> {
    const since = new Date(hubNow() - CANCEL_SHOWN_MS).toISOString();
    this.touched.clear();
    const young = this.windowMs === null ? '' : `&createdAt=${q('ge:' + new Date(hubNow() - this.windowMs).toISOString())}`;
    const lookback = new Date(hubNow() - Math.min(this.windowMs ?? SERVED_LOOKBACK_MS, SERVED_LOOKBACK_MS)).toISOString();
    const [active, cancels, served] = await Promise.all([
      this.list(`state=${q(inList(ACTIVE))}${young}`),
      this.list(`kind=Cancel&createdAt=${q('ge:' + since)}`),
      this.list(`state=Served&kind=New&createdAt=${q('ge:' + lookback)}`),
    ]);
    for (const o of served) this.apply(o, false);
    const fresh = new Set([...active, ...cancels].map((o) => o.id));
    // Held orders missing from the list have left scope (served elsewhere), unless an event brought them meanwhile.
    for (const id of [...this.orders.keys()]) if (!fresh.has(id) && !this.touched.has(id)) this.orders.delete(id);
    for (const o of [...active, ...cancels]) this.apply(o, true);
    this.loaded = true;
    this.lastContact = Date.now();
    this.notify();
  }

  private async connect(): Promise<void> {
    clearTimeout(this.retryTimer);
    if (this.stopped) return;
    this.es?.close();
    this.es = null;
    try {
      const health = await call<{ changeLog: { lastSeq: number } | null }>('GET', '/api/health', undefined, { token: null });
      await this.reload();
      this.lastSeq = health.changeLog?.lastSeq ?? this.lastSeq;
      this.open();
      void this.drain();
    } catch (e) {
      if (e instanceof ApiError && e.status === 401 && !session()) return this.stop();
      this.setConn(this.loaded ? 'offline' : 'connecting');
      if (!(e instanceof NetworkError)) this.say(e instanceof Error ? e.message : String(e));
      this.retryTimer = setTimeout(() => void this.connect(), RETRY_MS);
    }
  }

  private open(): void {
    const token = session()?.tokenId;
    if (!token || this.stopped) return;
    const since = this.lastSeq === null ? '' : `&since=${this.lastSeq}`;
    const es = new EventSource(`/api/events?access_token=${q(token)}${since}`);
    this.es = es;
    const seq = (ev: MessageEvent<string>) => {
      const n = Number(ev.lastEventId);
      if (Number.isFinite(n) && n > (this.lastSeq ?? 0)) this.lastSeq = n;
      try {
        return JSON.parse(ev.data) as { key: string };
      } catch {
        return null;
      }
    };
    es.onopen = () => {
      this.setConn('live');
      // The browser resumed by itself (Last-Event-ID); the reload is belt and braces.
      if (this.streamFailed) {
        this.streamFailed = false;
        void this.reload().catch(() => undefined);
      }
    };
    es.addEventListener('orders', (ev) => {
      const change = seq(ev as MessageEvent<string>);
      if (change) this.queueFetch(change.key);
    });
    es.addEventListener('orderendpoints', (ev) => {
      const change = seq(ev as MessageEvent<string>);
      if (change) this.hooks.onEndpointChange?.(change.key);
    });
    es.onerror = () => {
      if (this.es !== es) return;
      this.streamFailed = true;
      this.setConn('offline');
      // CLOSED: the browser gave up (a 401 or 410); CONNECTING: it retries by itself.
      if (es.readyState === EventSource.CLOSED) this.reopen();
    };
  }

  private reopen(): void {
    this.es?.close();
    this.es = null;
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => void this.connect(), RETRY_MS);
  }

  /** Every 15 s: events the stream missed, and proof that the connection is alive. */
  private async poll(): Promise<void> {
    this.prune();
    if (this.stopped || this.lastSeq === null || !this.es) return;
    try {
      const r = await call<{ items: Array<{ resource: string; key: string }>; lastSeq: number }>('GET', `/api/changes?since=${this.lastSeq}&$take=1000`);
      for (const c of r.items) {
        if (c.resource === 'orders') this.queueFetch(c.key);
        if (c.resource === 'orderendpoints') this.hooks.onEndpointChange?.(c.key);
      }
      this.lastSeq = Math.max(this.lastSeq ?? 0, r.lastSeq);
      if (this.es?.readyState === EventSource.OPEN) this.setConn('live');
    } catch {
      // Unreachable or refused: start over from a fresh position and list.
      this.streamFailed = true;
      this.setConn('offline');
      this.reopen();
    }
  }

  /**
   * A display stays live for days without a reload, and only a reload asked which orders are still
   * relevant: what ages out leaves the screen here (a cancel order nobody tapped away after
   * CANCEL_SHOWN_MS, the pass's orders past its window), and what is known of orders long gone is let
   * go, so the memory does not grow with every order of the week.
   */
  private prune(): void {
    const now = hubNow();
    const busy = (id: string) => this.serving.has(id) || this.outbox.some((j) => j.id === id);
    let shown = false;
    for (const o of [...this.orders.values()]) {
      if (this.relevant(o) || busy(o.id)) continue;
      this.orders.delete(o.id);
      shown = true;
    }
    for (const [id, o] of this.served) if (now - Date.parse(o.stateChangedAt ?? o.createdAt) > RECALL_WINDOW_MS) this.served.delete(id);
    // A cancel order keeps marking the orders of its ticket still on screen ("cancelled later").
    const tickets = new Set([...this.orders.values()].map((o) => o.ticketId));
    for (const [id, c] of this.cancels) if (now - Date.parse(c.createdAt) > CANCEL_SHOWN_MS && !tickets.has(c.ticketId)) this.cancels.delete(id);
    for (const id of [...this.versions.keys()]) {
      if (this.orders.has(id) || this.served.has(id) || this.cancels.has(id) || this.optimistic.has(id) || busy(id)) continue;
      this.versions.delete(id);
      this.seen.delete(id);
    }
    // A reload looks up only held orders among those an event brought meanwhile.
    for (const id of [...this.touched]) if (!this.orders.has(id)) this.touched.delete(id);
    const cutoff = Date.now() - 24 * 3600_000;
    for (const [id, at] of this.dismissed) if (at <= cutoff) this.dismissed.delete(id);
    if (shown) this.notify();
  }

  private queueFetch(id: string): void {
    this.pendingKeys.add(id);
    this.fetchTimer ??= setTimeout(() => void this.fetchPending(), 30);
  }

  private async fetchPending(): Promise<void> {
    this.fetchTimer = undefined;
    const ids = [...this.pendingKeys];
    this.pendingKeys.clear();
    for (let i = 0; i < ids.length; i += 100) {
      const chunk = ids.slice(i, i + 100);
      try {
        const r = await call<{ items: Order[] }>('GET', `/api/orders?id=${q(inList(chunk))}${this.scopeFilter()}&$take=1000`);
        for (const o of r.items) this.apply(o, true);
        this.notify();
      } catch {
        // The next reconnect reloads the whole list, which holds these too.
      }
    }
  }

  // ---- what the screen shows -----------------------------------------------------------------

  shownState(o: Order): State {
    return this.optimistic.get(o.id) ?? o.state;
  }

  isServing(id: string): number | null {
    return this.serving.get(id)?.until ?? null;
  }

  /**
   * A later cancel order of the same ticket at this endpoint: the cook should look before cooking.
   * Strictly later: a write that swaps an item's plu makes its cancel and its new order at once.
   */
  changedLater(o: Order): string | null {
    if (o.kind === 'Cancel') return null;
    const removed = new Map<string, number>();
    for (const c of this.cancels.values()) {
      if (c.ticketId !== o.ticketId || c.orderEndpointName !== o.orderEndpointName || c.createdAt <= o.createdAt) continue;
      for (const i of c.items) removed.set(i.name, (removed.get(i.name) ?? 0) + i.quantity);
    }
    return removed.size ? [...removed].map(([name, q]) => `−${q}× ${name}`).join(', ') : null;
  }

  isPending(id: string): boolean {
    return this.outbox.some((j) => j.id === id);
  }

  /** Orders per shown state, oldest first; cancel orders first in New (they need a look now). */
  columns(): Record<'New' | 'InProgress' | 'Ready', Order[]> {
    const cols = { New: [] as Order[], InProgress: [] as Order[], Ready: [] as Order[] };
    const all = [...this.orders.values()].sort(byAge);
    for (const o of all) if (o.kind === 'Cancel') cols.New.push(o);
    for (const o of all) {
      if (o.kind === 'Cancel') continue;
      const s = this.serving.has(o.id) ? 'Ready' : this.shownState(o);
      if (s === 'New' || s === 'InProgress' || s === 'Ready') cols[s].push(o);
    }
    return cols;
  }

  all(): Order[] {
    return [...this.orders.values()].sort(byAge);
  }

  get ready(): boolean {
    return this.loaded;
  }

  // ---- acting --------------------------------------------------------------------------------

  /** A tap: on to the next state; Served only after SERVE_DELAY_MS; a cancel order is put away. */
  bump(id: string): void {
    const o = this.orders.get(id);
    if (!o) return;
    if (o.kind === 'Cancel') return this.dismiss(id);
    if (this.serving.has(id)) return this.undoServe(id);
    const from = this.shownState(o);
    const to = FLOW[FLOW.indexOf(from) + 1];
    if (!to) return;
    this.remember({ id, from, to });
    if (to === 'Served') return this.serve(id);
    this.move(id, to);
  }

  /** Served after the undo delay (the pass serves a table's orders at once). */
  serve(id: string): void {
    if (this.serving.has(id)) return;
    const until = Date.now() + SERVE_DELAY_MS;
    const timer = setTimeout(() => this.commitServe(id), SERVE_DELAY_MS);
    this.serving.set(id, { until, timer });
    this.notify();
  }

  private commitServe(id: string): void {
    this.serving.delete(id);
    // Served cannot come back (CONTRACT §11), so it leaves the recall list.
    this.recalls = this.recalls.filter((b) => !(b.id === id && b.to === 'Served'));
    this.move(id, 'Served');
  }

  private undoServe(id: string): void {
    const s = this.serving.get(id);
    if (!s) return;
    clearTimeout(s.timer);
    this.serving.delete(id);
    this.recalls = this.recalls.filter((b) => !(b.id === id && b.to === 'Served'));
    this.notify();
  }

  /** The page is going away: send the Served bumps now rather than drop them. */
  private flushServing(keepalive: boolean): void {
    for (const [id, s] of [...this.serving]) {
      clearTimeout(s.timer);
      this.serving.delete(id);
      if (keepalive) {
        void call('POST', `/api/orders/${q(id)}/state`, { state: 'Served', _v: this.seenVersion(id) }, { idempotencyKey: newKey(), keepalive: true }).catch(
          () => undefined,
        );
      } else this.move(id, 'Served');
    }
  }

  private remember(b: Bump): void {
    this.recalls = [...this.recalls.filter((r) => r.id !== b.id), b].slice(-20);
  }

  /** The last bump that can still be taken back. */
  lastBump(): (Bump & { order: Order }) | null {
    for (let i = this.recalls.length - 1; i >= 0; i--) {
      const b = this.recalls[i];
      const order = this.orders.get(b.id);
      if (order) return { ...b, order };
    }
    return null;
  }

  /** One step back for the last bumped order (a cook's mis-tap). */
  recall(): void {
    const last = this.lastBump();
    if (!last) return;
    this.recalls = this.recalls.filter((b) => b.id !== last.id);
    if (last.to === 'Served') return this.undoServe(last.id);
    if (this.shownState(last.order) !== last.to) {
      this.say(t('movedElsewhere', { n: orderNumber(last.order) }));
      return;
    }
    this.move(last.id, last.from);
  }

  /** Orders served within the recall window, the latest first (at most `max`). */
  history(max = 12): Order[] {
    const since = hubNow() - RECALL_WINDOW_MS;
    const at = (o: Order) => Date.parse(o.stateChangedAt ?? o.createdAt);
    return [...this.served.values()]
      .filter((o) => at(o) >= since)
      .sort((a, b) => at(b) - at(a) || b.id.localeCompare(a.id))
      .slice(0, max);
  }

  isRecalling(id: string): boolean {
    return this.recalling.has(id);
  }

  /** A served order back to Ready (POST /api/kds/orders/{id}/recall): the plate went to the wrong table. */
  async recallServed(id: string): Promise<void> {
    const o = this.served.get(id);
    if (!o || this.recalling.has(id)) return;
    this.recalling.add(id);
    this.notify();
    try {
      const back = await call<Order>('POST', `/api/kds/orders/${q(id)}/recall`, { _v: o._v }, { idempotencyKey: newKey() });
      this.apply(back, false);
    } catch (e) {
      const why = e instanceof NetworkError ? t('unreachable') : e instanceof Error ? e.message : String(e);
      this.say(t('notRecalled', { n: orderNumber(o), why }));
      this.queueFetch(id);
    } finally {
      this.recalling.delete(id);
      this.notify();
    }
  }

  dismiss(id: string): void {
    this.dismissed.set(id, Date.now());
    try {
      localStorage.setItem(DISMISSED_KEY, JSON.stringify(Object.fromEntries(this.dismissed)));
    } catch {
      /* storage full or off: the cancel order just comes back at the next reload */
    }
    this.orders.delete(id);
    this.notify();
  }

  /** The `_v` a tap on `id` builds on: the one shown, unless a move of it is still on its way (then that move's answer). */
  private seenVersion(id: string): number | undefined {
    return this.outbox.some((j) => j.id === id) ? undefined : this.orders.get(id)?._v;
  }

  private move(id: string, state: State): void {
    this.optimistic.set(id, state);
    this.outbox.push({ id, state, key: newKey(), v: this.seenVersion(id) });
    this.notify();
    void this.drain();
  }

  private async drain(): Promise<void> {
    if (this.sending) return;
    this.sending = true;
    try {
      while (this.outbox.length && !this.stopped) {
        const job = this.outbox[0];
        try {
          const o = await call<Order>('POST', `/api/orders/${q(job.id)}/state`, { state: job.state, _v: job.v }, { idempotencyKey: job.key });
          this.outbox.shift();
          const next = this.outbox.find((j) => j.id === job.id);
          if (next && next.v === undefined) next.v = o._v;
          this.apply(o, false);
          if (!this.outbox.some((j) => j.id === job.id)) this.optimistic.delete(job.id);
          this.notify();
        } catch (e) {
          const later = e instanceof NetworkError || (e instanceof ApiError && [423, 429, 503].includes(e.status));
          if (later) {
            // Kept, with its key: the retry is the same request, so the hub does it once.
            this.setConn('offline');
            await new Promise<void>((r) => {
              const timer = setTimeout(r, RETRY_MS);
              this.wakeOutbox = () => {
                clearTimeout(timer);
                r();
              };
            });
            this.wakeOutbox = undefined;
            continue;
          }
          // The taps queued behind it built on this one: none of them stands any more.
          this.outbox.splice(0, this.outbox.length, ...this.outbox.filter((j) => j.id !== job.id));
          this.optimistic.delete(job.id);
          const o = this.orders.get(job.id);
          const n = o ? orderNumber(o) : job.id;
          this.say(e instanceof ApiError && e.status === 409 ? t('movedMeanwhile', { n }) : t('notMoved', { n, why: e instanceof Error ? e.message : String(e) }));
          this.queueFetch(job.id);
          if (e instanceof ApiError && e.status === 401 && !session()) return;
        }
      }
    } finally {
      this.sending = false;
    }
  }
}

/** Where an order goes: "Table 5 · Terasa", else the ticket's name, else its number. */
export function placeOf(o: Order): { title: string; sub: string | null } {
  const table = o.location?.tableName;
  if (table) return { title: /^\d+$/.test(table) ? t('table', { n: table }) : table, sub: o.location?.zoneName ?? null };
  return { title: o.ticketName || `#${orderNumber(o)}`, sub: o.location?.zoneName ?? null };
}
