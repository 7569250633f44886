/**
 * The register's working state and its link to the hub: the open tickets (every register's, kept
 * current through /api/events), the writes still to send (the outbox), the catalog, and whether the
 * hub can be reached. Everything a waiter types lands here first, is shown at once and kept in
 * IndexedDB; "Send" queues the ticket's PUT, which goes out as soon as the hub answers.
 *
 * - Every write carries an Idempotency-Key kept with it (IndexedDB), so one retried after a lost
 *   reply, a hub restart or a reload of the tab is done once. A ticket's writes go out in order, each
 *   with the `_v` its changes start from: another register's change meanwhile is a 409, shown as a
 *   conflict the waiter settles (never overwritten).
 * - On (re)connect: the event stream first (it starts "now"), then the open tickets reloaded, so
 *   nothing changed meanwhile is missed; each ticket is taken only at a newer `_v` than held.
 * - A probe of /api/health every few seconds finds a dead link (a Wi-Fi gone quiet) that a stream
 *   would not notice for minutes.
 */
import type { Shift, Ticket } from '../shared/types';
import { ApiError, call, hasRight, NetworkError, newKey, onChange, session } from './api';
import { EMPTY_CATALOG, fiscalDevice, keptCatalog, loadCatalog, type Catalog } from './catalog';
import { idbAll, idbDelete, idbGet, idbPut } from './idb';
import { draftFrom, fromServer, hasChanges, nextLineId, rebase, carryOver, toWire, type Draft, type Line, type LocalTicket, type Location } from './tickets';
import { dec, num } from './money';

type Conn = 'connecting' | 'online' | 'offline';

interface Job {
  seq: number;
  ticketId: string;
  /** The Idempotency-Key of this write, kept across retries and reloads. */
  key: string;
  /** What "Send" sent: the draft at that moment. */
  snapshot: Draft;
  /** The request, fixed at its first attempt (a retry must be the same request). */
  body: Record<string, unknown> | null;
  createdAt: number;
}

const PROBE_MS = 5_000;
const RETRY_MS = 3_000;
const CATALOG_RESOURCES = ['plus', 'categories', 'modifiers', 'paymenttypes', 'zones', 'fiscaldevices', 'devices'];
const q = encodeURIComponent;
const inList = (values: string[]) => 'in:' + values.map((v) => (/[",]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v)).join(',');

/** What a close needs to be retried as the same request after a reload (the key, the payments chosen). */
export interface PendingClose {
  ticketId: string;
  key: string;
  body: Record<string, unknown>;
}

export class Till {
  readonly tickets = new Map<string, LocalTicket>();
  private jobs: Job[] = [];
  catalog: Catalog = EMPTY_CATALOG;
  /** This register's open shift (its drawer since the float), or null; `shiftKnown` once the hub said. */
  shift: Shift | null = null;
  shiftKnown = false;
  conn: Conn = 'connecting';
  /** Set once the kept state is read from IndexedDB. */
  ready = false;
  /** The hub's open tickets are loaded (at least once since the page started). */
  loaded = false;
  private readonly listeners = new Set<() => void>();
  private es: EventSource | null = null;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private probeTimer: ReturnType<typeof setInterval> | undefined;
  private fetchTimer: ReturnType<typeof setTimeout> | undefined;
  private catalogTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly pendingTickets = new Set<string>();
  private draining = false;
  private wake: (() => void) | undefined;
  private stopped = true;
  private unsubscribe: (() => void) | undefined;
  private token: string | undefined;
  private seq = 0;

  subscribe(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  notify(): void {
    for (const fn of [...this.listeners]) fn();
  }

  // ---- start and stop -----------------------------------------------------------------------

  /** Reads what this register kept (tickets, outbox, catalog); works without the hub. */
  async restore(): Promise<void> {
    const [tickets, jobs, catalog] = await Promise.all([
      idbAll<LocalTicket>('tickets').catch(() => []),
      idbAll<Job>('outbox').catch(() => []),
      keptCatalog(),
    ]);
    for (const t of tickets) this.tickets.set(t.id, t);
    this.jobs = jobs.sort((a, b) => a.seq - b.seq);
    this.seq = Math.max(0, ...this.jobs.map((j) => j.seq));
    if (catalog) this.catalog = catalog;
    this.ready = true;
    this.notify();
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.token = session()?.tokenId;
    this.unsubscribe = onChange(() => {
      const next = session()?.tokenId;
      if (!next) return this.stop();
      // A new token (a refresh, another waiter) means a new stream: the old URL carries the old token.
      if (next !== this.token) {
        this.token = next;
        void this.connect();
      }
    });
    addEventListener('online', this.retryNow);
    this.probeTimer = setInterval(() => void this.probe(), PROBE_MS);
    void this.connect();
  }

  stop(): void {
    this.stopped = true;
    this.closeStream();
    clearTimeout(this.retryTimer);
    clearInterval(this.probeTimer);
    this.unsubscribe?.();
    removeEventListener('online', this.retryNow);
  }

  private readonly retryNow = (): void => {
    if (this.stopped) return;
    if (this.conn !== 'online') void this.connect();
    this.wake?.();
  };

  private setConn(conn: Conn): void {
    if (this.conn === conn) return;
    this.conn = conn;
    this.notify();
    if (conn === 'online') this.wake?.();
  }

  private closeStream(): void {
    this.es?.close();
    this.es = null;
  }

  private async connect(): Promise<void> {
    clearTimeout(this.retryTimer);
    if (this.stopped || !session()) return;
    this.closeStream();
    try {
      await call('GET', '/api/health', undefined, { token: null, timeoutMs: 5000 });
    } catch {
      this.setConn('offline');
      this.retryTimer = setTimeout(() => void this.connect(), RETRY_MS);
      return;
    }
    this.openStream();
  }

  private openStream(): void {
    const token = session()?.tokenId;
    if (!token || this.stopped) return;
    const es = new EventSource(`/api/events?access_token=${q(token)}`);
    this.es = es;
    const key = (ev: Event): string | null => {
      try {
        return (JSON.parse((ev as MessageEvent<string>).data) as { key: string }).key;
      } catch {
        return null;
      }
    };
    es.onopen = () => {
      if (this.es !== es) return;
      // The stream starts now: what changed before it is in the lists loaded next.
      void this.reloadAll().then(
        () => {
          this.setConn('online');
          void this.drain();
        },
        (e: unknown) => {
          if (e instanceof NetworkError) this.lost();
        },
      );
    };
    es.addEventListener('tickets', (ev) => {
      const k = key(ev);
      if (k) this.queueFetch(k);
    });
    for (const resource of CATALOG_RESOURCES) es.addEventListener(resource, () => this.queueCatalog());
    // A shift opened, moved or closed (here, on the manager's page or by another tab of this register).
    es.addEventListener('shifts', () => void this.refreshShift().catch(() => undefined));
    es.onerror = () => {
      if (this.es !== es) return;
      // CONNECTING: the browser tries again by itself; CLOSED (401, 410): start over.
      this.setConn('offline');
      if (es.readyState === EventSource.CLOSED) this.lost();
    };
  }

  /** The link is gone: close what is open and try again shortly. */
  private lost(): void {
    this.setConn('offline');
    this.closeStream();
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => void this.connect(), RETRY_MS);
  }

  /** A dead Wi-Fi keeps a stream "open" for minutes: ask the hub, and start over when it does not answer. */
  private async probe(): Promise<void> {
    if (this.stopped || !session()) return;
    try {
      await call('GET', '/api/health', undefined, { token: null, timeoutMs: 4000 });
      if (this.conn !== 'online' && !this.es) void this.connect();
    } catch {
      if (this.conn === 'online' || this.es) this.lost();
    }
  }

  // ---- reading from the hub ----------------------------------------------------------------------

  private async reloadAll(): Promise<void> {
    const [tickets, catalog] = await Promise.all([this.listOpen(), loadCatalog(), this.refreshShift()]);
    this.catalog = catalog;
    const open = new Set(tickets.map((t) => t.id));
    for (const t of tickets) this.applyServer(t);
    // A ticket this register knew from the hub that is no longer open was closed or deleted elsewhere.
    const gone = [...this.tickets.values()].filter((t) => t.base && !open.has(t.id) && !this.jobsOf(t.id).length);
    if (gone.length) {
      const closed = await this.fetchTickets(gone.map((t) => t.id));
      for (const t of gone) {
        const found = closed.find((c) => c.id === t.id);
        if (found) this.applyServer(found);
        else this.forget(t.id, true);
      }
    }
    this.loaded = true;
    this.notify();
  }

  private async listOpen(): Promise<Ticket[]> {
    const out: Ticket[] = [];
    for (let skip = 0; ; skip += 1000) {
      const page = await call<{ items: Ticket[] }>('GET', `/api/tickets?IsClosed=false&$take=1000&$skip=${skip}`);
      out.push(...page.items);
      if (page.items.length < 1000) return out;
    }
  }

  private async fetchTickets(ids: string[]): Promise<Ticket[]> {
    const out: Ticket[] = [];
    for (let i = 0; i < ids.length; i += 100) {
      const chunk = ids.slice(i, i + 100);
      out.push(...(await call<{ items: Ticket[] }>('GET', `/api/tickets?Id=${q(inList(chunk))}&$take=1000`)).items);
    }
    return out;
  }

  private queueFetch(id: string): void {
    this.pendingTickets.add(id);
    this.fetchTimer ??= setTimeout(() => void this.fetchQueued(), 40);
  }

  private async fetchQueued(): Promise<void> {
    this.fetchTimer = undefined;
    const tickets = [...this.pendingTickets];
    this.pendingTickets.clear();
    try {
      const found = await this.fetchTickets(tickets);
      for (const t of found) this.applyServer(t);
      // Listed in the log, not found now: deleted (or moved out of what this user reads).
      for (const id of tickets) if (!found.some((t) => t.id === id)) this.forget(id, true);
      this.notify();
    } catch {
      // The next reconnect reloads everything, which holds these too.
    }
  }

  private queueCatalog(): void {
    clearTimeout(this.catalogTimer);
    this.catalogTimer = setTimeout(() => {
      void (async () => {
        try {
          // The device's settings (lock time, default printer) come with the session, which loadCatalog reads.
          this.catalog = await loadCatalog();
          this.notify();
        } catch {
          /* the next reconnect reloads it */
        }
      })();
    }, 150);
  }

  /** A ticket as the hub has it now: taken unless older than what is held; changes of this register kept. */
  private applyServer(ticket: Ticket): void {
    const t = this.tickets.get(ticket.id);
    if (t?.latest && ticket._v < t.latest._v) return;
    if (ticket.state === 'Closed') {
      if (!t) return;
      if (hasChanges(t) && t.base) {
        this.put({ ...t, latest: ticket, conflict: 'closed' });
        return;
      }
      this.forget(ticket.id, false);
      return;
    }
    if (!t) {
      this.put(fromServer(ticket));
      return;
    }
    if (this.jobsOf(ticket.id).length) {
      // Our own write is on its way: its answer decides (an event may bring it before the answer does).
      this.put({ ...t, latest: ticket });
      return;
    }
    if (!hasChanges(t) || !t.base) {
      this.put({ ...t, base: ticket, latest: ticket, draft: t.base ? draftFrom(ticket) : t.draft, conflict: null });
      return;
    }
    this.put({ ...t, latest: ticket, conflict: ticket._v !== t.base._v ? 'changed' : t.conflict });
  }

  /** A ticket that left the hub's open list: gone here too, unless it holds changes of this register. */
  private forget(id: string, deleted: boolean): void {
    const t = this.tickets.get(id);
    if (!t) return;
    if (hasChanges(t) && t.base) {
      this.put({ ...t, conflict: 'closed' });
      return;
    }
    if (!t.base && !deleted) return;
    this.tickets.delete(id);
    void idbDelete('tickets', id).catch(() => undefined);
    this.notify();
  }

  private put(t: LocalTicket): void {
    this.tickets.set(t.id, t);
    void idbPut('tickets', t).catch(() => undefined);
    this.notify();
  }

  /** This register's open shift as the hub has it now, with its figures as of now. */
  async refreshShift(): Promise<Shift | null> {
    const deviceName = session()?.user.device.name;
    if (!deviceName) return null;
    try {
      const r = await call<{ items: Shift[] }>('GET', `/api/shifts?deviceName=${q(deviceName)}&state=Open&$take=1`);
      this.setShift(r.items[0] ?? null);
    } catch (e) {
      if (e instanceof NetworkError) throw e;
      // A hub that keeps no shifts: the register counts the fiscal day's cash instead.
      this.shift = null;
      this.shiftKnown = false;
      this.notify();
    }
    return this.shift;
  }

  /** The shift as the hub answered a write of it (opened, cash moved: open; closed: none open now). */
  setShift(shift: Shift | null): void {
    this.shift = shift?.state === 'Open' ? shift : null;
    this.shiftKnown = true;
    this.notify();
  }

  // ---- what the screens read --------------------------------------------------------------------

  jobsOf(id: string): Job[] {
    return this.jobs.filter((j) => j.ticketId === id);
  }

  /** Tickets with a send waiting for the hub (the banner counts them). */
  waiting(): LocalTicket[] {
    const ids = new Set(this.jobs.map((j) => j.ticketId));
    return [...this.tickets.values()].filter((t) => ids.has(t.id));
  }

  isWaiting(id: string): boolean {
    return this.jobs.some((j) => j.ticketId === id);
  }

  open(): LocalTicket[] {
    return [...this.tickets.values()];
  }

  ticket(id: string): LocalTicket | undefined {
    return this.tickets.get(id);
  }

  at(tableName: string): LocalTicket[] {
    return this.open().filter((t) => t.draft.location?.tableName === tableName);
  }

  // ---- changing a ticket (here first; the hub when sent) ----------------------------------------------

  create(id: string, draft: Partial<Draft>): LocalTicket {
    const t: LocalTicket = {
      id,
      base: null,
      latest: null,
      draft: { name: '', purchaseType: 'WalkIn', location: null, discountRate: 0, customer: null, note: null, lines: [], ...draft },
      conflict: null,
      refusal: null,
      touchedAt: Date.now(),
    };
    this.put(t);
    return t;
  }

  change(id: string, fn: (d: Draft, t: LocalTicket) => Draft): void {
    const t = this.tickets.get(id);
    if (!t) return;
    this.put({ ...t, draft: fn(t.draft, t), touchedAt: Date.now() });
  }

  /** Adds a line (or one more of an unsent line of the same product without options or comment). */
  addLine(id: string, line: Omit<Line, 'id'>): void {
    const t = this.tickets.get(id);
    if (!t) return;
    const sent = new Set((t.base?.items ?? []).map((i) => i.id));
    const same = !line.modifiers.length && !line.comment
      ? t.draft.lines.find((l) => !sent.has(l.id) && l.plu.code === line.plu.code && l.plu.stockName === line.plu.stockName && !l.modifiers.length && !l.comment && l.type === line.type && l.unitPrice === line.unitPrice)
      : undefined;
    if (same) {
      this.change(id, (d) => ({ ...d, lines: d.lines.map((l) => (l === same ? { ...l, quantity: num(dec(l.quantity).plus(dec(line.quantity))) } : l)) }));
    } else {
      const newId = nextLineId(t);
      this.change(id, (d) => ({ ...d, lines: [...d.lines, { ...line, id: newId }] }));
    }
  }

  setLine(id: string, lineId: number, fn: (l: Line) => Line | null): void {
    this.change(id, (d, t) => {
      const existing = d.lines.find((l) => l.id === lineId);
      if (existing) {
        const next = fn(existing);
        return { ...d, lines: next ? d.lines.map((l) => (l.id === lineId ? next : l)) : d.lines.filter((l) => l.id !== lineId) };
      }
      // A sent line taken off and put back.
      const sent = t.base?.items.find((i) => i.id === lineId);
      if (!sent) return d;
      const back = fn(draftFrom({ ...t.base!, items: [sent] }).lines[0]);
      return back ? { ...d, lines: [...d.lines, back].sort((a, b) => a.id - b.id) } : d;
    });
  }

  /** Drops what was not sent: the ticket as the hub has it (a ticket never sent disappears). */
  discard(id: string): void {
    const t = this.tickets.get(id);
    if (!t) return;
    this.dropJobs(id);
    if (!t.base) {
      this.tickets.delete(id);
      void idbDelete('tickets', id).catch(() => undefined);
      this.notify();
      return;
    }
    const theirs = t.latest ?? t.base;
    this.put({ ...t, base: theirs, draft: draftFrom(theirs), conflict: null, refusal: null });
  }

  /** Settles a conflict: the waiter's changes again on top of theirs, or (closed meanwhile) on a new ticket. */
  keepMine(id: string, newId: string): LocalTicket | null {
    const t = this.tickets.get(id);
    if (!t?.latest) return null;
    if (t.conflict === 'closed' || t.latest.state === 'Closed') {
      const fresh = carryOver(t, newId);
      this.tickets.delete(id);
      void idbDelete('tickets', id).catch(() => undefined);
      this.put(fresh);
      return fresh;
    }
    const next = rebase(t, t.latest);
    this.put(next);
    return next;
  }

  /** "Send": the draft goes to the hub now, or as soon as it can be reached. */
  send(id: string): void {
    const t = this.tickets.get(id);
    if (!t || !hasChanges(t) || t.conflict) return;
    const last = this.jobs.filter((j) => j.ticketId === id).at(-1);
    if (last && !last.body) {
      last.snapshot = t.draft;
      void idbPut('outbox', last).catch(() => undefined);
    } else {
      const job: Job = { seq: ++this.seq, ticketId: id, key: newKey(), snapshot: t.draft, body: null, createdAt: Date.now() };
      this.jobs.push(job);
      void idbPut('outbox', job).catch(() => undefined);
    }
    if (t.refusal) this.put({ ...t, refusal: null });
    this.notify();
    void this.drain();
  }

  private dropJobs(id: string): void {
    for (const j of this.jobs.filter((x) => x.ticketId === id)) void idbDelete('outbox', j.seq).catch(() => undefined);
    this.jobs = this.jobs.filter((j) => j.ticketId !== id);
  }

  private async drain(): Promise<void> {
    if (this.draining || this.stopped) return;
    this.draining = true;
    try {
      while (this.jobs.length && !this.stopped && session()) {
        const job = this.jobs[0];
        const t = this.tickets.get(job.ticketId);
        if (!t || t.conflict) {
          this.dropJobs(job.ticketId);
          continue;
        }
        if (!job.body) {
          job.body = toWire({ ...t, draft: job.snapshot });
          await idbPut('outbox', job).catch(() => undefined);
        }
        try {
          const stored = await call<Ticket>('PUT', `/api/tickets/${q(job.ticketId)}`, job.body, { idempotencyKey: job.key });
          this.jobs.shift();
          void idbDelete('outbox', job.seq).catch(() => undefined);
          this.sent(job.ticketId, stored);
          this.setConn('online');
        } catch (e) {
          if (e instanceof NetworkError || (e instanceof ApiError && [423, 429, 503].includes(e.status))) {
            if (e instanceof NetworkError) this.lost();
            // Kept with its key: the retry is the same request, so the hub does it once.
            await new Promise<void>((resolve) => {
              const timer = setTimeout(resolve, RETRY_MS);
              this.wake = () => {
                clearTimeout(timer);
                resolve();
              };
            });
            this.wake = undefined;
            continue;
          }
          if (e instanceof ApiError && e.status === 401) return;
          await this.refused(job, e);
        }
      }
    } finally {
      this.draining = false;
      this.notify();
    }
  }

  /** The hub stored our write: it is the new base; a change from elsewhere since then is a conflict. */
  private sent(id: string, stored: Ticket): void {
    const t = this.tickets.get(id);
    if (!t) return;
    const latest = t.latest && t.latest._v > stored._v ? t.latest : stored;
    const next: LocalTicket = { ...t, base: stored, latest, refusal: null };
    if (latest !== stored && !this.jobsOf(id).length) {
      if (hasChanges(next)) next.conflict = latest.state === 'Closed' ? 'closed' : 'changed';
      else Object.assign(next, { base: latest, draft: draftFrom(latest) });
    }
    this.put(next);
  }

  private async refused(job: Job, e: unknown): Promise<void> {
    const id = job.ticketId;
    this.dropJobs(id);
    const t = this.tickets.get(id);
    if (!t) return;
    const gone = e instanceof ApiError && (e.status === 404 || (e.status === 403 && e.problem.errorCode === 8));
    if ((e instanceof ApiError && e.isConflict) || gone) {
      // Someone else changed (or closed) it: show theirs beside ours.
      try {
        const [theirs] = await this.fetchTickets([id]);
        const cur = this.tickets.get(id) ?? t;
        this.put({ ...cur, latest: theirs ?? cur.latest, conflict: !theirs || theirs.state === 'Closed' ? 'closed' : 'changed' });
      } catch {
        this.put({ ...t, conflict: gone ? 'closed' : 'changed' });
      }
      return;
    }
    this.put({ ...t, refusal: e instanceof Error ? e.message : String(e) });
  }

  /** Resolves once the ticket's sends are through; fails when one is refused or the hub cannot be reached. */
  async flush(id: string): Promise<LocalTicket> {
    const t = this.tickets.get(id);
    if (t && hasChanges(t) && !this.jobsOf(id).length && !t.conflict) this.send(id);
    for (;;) {
      const cur = this.tickets.get(id);
      if (!cur) throw new Error('gone');
      if (cur.conflict) throw new ConflictError();
      if (cur.refusal) throw new Error(cur.refusal);
      if (!this.jobsOf(id).length) return cur;
      if (this.conn === 'offline') throw new NetworkError('offline');
      await new Promise<void>((resolve) => {
        const off = this.subscribe(() => {
          off();
          resolve();
        });
      });
    }
  }

  // ---- what needs the hub now ---------------------------------------------------------------------

  /** A batch action on whole tickets (PATCH /api/tickets), their own changes sent first; the hub's answer is what shows. */
  private async batch(action: 'Relocate' | 'Handover' | 'Takeover', ids: string[], members: Record<string, unknown> = {}): Promise<void> {
    for (const id of ids) await this.flush(id);
    const stored = await call<Ticket[]>('PATCH', `/api/tickets?action=${action}`, { ids, ...members }, { idempotencyKey: newKey() });
    for (const t of stored) this.adopt(t);
  }

  /** Moves whole tickets to another table (PATCH Relocate). */
  relocate(ids: string[], location: Location): Promise<void> {
    return this.batch('Relocate', ids, { location });
  }

  /** Hands tickets over to colleague `userName` (PATCH Handover: TicketHandover, and TicketUpdateAny for another's). */
  handover(ids: string[], userName: string): Promise<void> {
    return this.batch('Handover', ids, { userName });
  }

  /** Makes others' tickets the logged-in waiter's (PATCH Takeover: TicketTakeover and TicketUpdateAny). */
  takeover(ids: string[]): Promise<void> {
    return this.batch('Takeover', ids);
  }

  /** The hub's answer to an action on a ticket whose changes were all sent first: it is what the register shows now. */
  private adopt(stored: Ticket): void {
    const t = this.tickets.get(stored.id);
    if (!t) return this.put(fromServer(stored));
    const latest = t.latest && t.latest._v > stored._v ? t.latest : stored;
    this.put({ ...t, base: latest, latest, draft: draftFrom(latest), conflict: null, refusal: null });
  }

  /** Moves quantities of items to another ticket (PATCH Split); answers the target. */
  async split(sourceId: string, items: Array<{ id: number; quantity: number }>, target: { id: string; name?: string; location?: Location | null }): Promise<LocalTicket> {
    await this.flush(sourceId);
    if (this.tickets.has(target.id)) await this.flush(target.id);
    const stored = await call<Ticket[]>('PATCH', '/api/tickets?action=Split', { ids: [sourceId], items, target }, { idempotencyKey: newKey() });
    for (const t of stored) this.adopt(t);
    if (!stored.some((t) => t.id === sourceId)) this.forget(sourceId, true);
    return this.tickets.get(target.id)!;
  }

  async preliminary(id: string): Promise<void> {
    await this.flush(id);
    await call('POST', `/api/tickets/${q(id)}/print_preliminary_ticket`, {}, { idempotencyKey: newKey() });
  }

  /** Deletes an open ticket the hub has (TicketDelete); a ticket never sent is just dropped. */
  async remove(id: string): Promise<void> {
    const t = this.tickets.get(id);
    if (!t) return;
    if (t.base) {
      this.dropJobs(id);
      await call('DELETE', `/api/tickets/${q(id)}`, undefined, { idempotencyKey: newKey() });
    }
    this.tickets.delete(id);
    void idbDelete('tickets', id).catch(() => undefined);
    this.notify();
  }

  /** The close in progress for a ticket (its key and payments), kept across reloads. */
  async pendingClose(id: string): Promise<PendingClose | null> {
    return (await idbGet<PendingClose>('kv', `close:${id}`).catch(() => undefined)) ?? null;
  }

  /**
   * Pays and fiscalizes (POST close). The request and its Idempotency-Key are kept before it goes
   * out: a retry after a refusal of the fiscal device, a lost reply or a reload is the same request,
   * and the hub never issues a second receipt for the ticket.
   */
  async close(id: string, body: Record<string, unknown>, retry: PendingClose | null): Promise<Ticket> {
    const pending: PendingClose = retry ?? { ticketId: id, key: newKey(), body };
    await idbPut('kv', pending, `close:${id}`).catch(() => undefined);
    const closed = await call<Ticket>('POST', `/api/tickets/${q(id)}/close`, pending.body, { idempotencyKey: pending.key, timeoutMs: 90_000 });
    await idbDelete('kv', `close:${id}`).catch(() => undefined);
    this.jobs = this.jobs.filter((j) => j.ticketId !== id);
    this.tickets.delete(id);
    void idbDelete('tickets', id).catch(() => undefined);
    this.notify();
    return closed;
  }

  async forgetClose(id: string): Promise<void> {
    await idbDelete('kv', `close:${id}`).catch(() => undefined);
  }

  /** The fiscal device as the hub sees it now (after a refusal: paper out? offline?). */
  async fiscalNow(): Promise<Catalog['fiscal']> {
    const f = await fiscalDevice();
    this.catalog = { ...this.catalog, fiscal: f };
    this.notify();
    return f;
  }

  /** Starts a return of a closed ticket's items (POST return): a new open ticket of negative items. */
  async startReturn(closedId: string, items: Array<{ id: number; quantity: number }>): Promise<LocalTicket> {
    const t = await call<Ticket>('POST', `/api/tickets/${q(closedId)}/return`, { items }, { idempotencyKey: newKey() });
    const local = fromServer(t);
    this.put(local);
    return local;
  }

  /** A right of the logged-in waiter (what the screens offer). */
  can(right: string): boolean {
    return hasRight(right);
  }
}

export class ConflictError extends Error {}

export const till = new Till();
