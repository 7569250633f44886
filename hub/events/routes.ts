/**
 * GET /api/changes (polling) and GET /api/events (Server-Sent Events) over the change log.
 * The database is the only buffer: each stream keeps a cursor and reads from the log when its
 * socket can take more, so a slow client costs a cursor, not memory. A stream sends only entries
 * known to be on stable storage (CONTRACT §12): a display never shows a sale a power cut then takes back.
 */
import type { Request, Response } from 'express';
import { z } from 'zod';
import { whenDurable, type Db } from '../../db/client.js';
import type { Caller } from '../http/caller.js';
import { HubError, ErrorCode, saidError } from '../http/errors.js';
import { ERR, type ErrorSpec } from '../http/api-docs.js';
import { catalogIssue, routes } from '../http/route.js';
import { changesSince, compactedThrough, lastSeq, onChange } from '../engine/change-log.js';

const PAGE = 500;
export const HEARTBEAT_MS = 15_000;
const POLL_MS = 50;
const SESSION_CHECK_MS = 1000;

function gone(since: number, through: number): HubError {
  return saidError(410, ErrorCode.Gone, 'error.gone', { since, through });
}

/**
 * A change-log position: a whole number (`Last-Event-ID`, which an EventSource sends back as it got
 * it) of at most 15 digits, so always exact; the OpenAPI document states the same form.
 */
const POSITION = /^\s*[0-9]{1,15}\s*$/;
const position = z.string().transform((raw, ctx) => {
  const text = raw.trim();
  if (POSITION.test(text)) return Number(text);
  catalogIssue(ctx, 'query.notPosition', { value: text });
  return z.NEVER;
});

class Stream {
  cursor: number;
  /** The highest seq this stream may send: what the log held when its last durability wait began. */
  private through = 0;
  private writing = false;
  private closed = false;
  constructor(
    private readonly db: Db,
    private readonly res: Response,
    since: number,
    /**
     * Resources whose entries this reader may not see (CONTRACT §12: reading is a right too), asked
     * again before every send: a right taken away while the stream is open hides its entries from the
     * next one on. Undefined: the session the stream was opened with has ended (CONTRACT §9).
     */
    private readonly hiddenNow: () => readonly string[] | undefined,
  ) {
    this.cursor = since;
    res.on('drain', () => this.pump());
    res.on('close', () => (this.closed = true));
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Ends the stream if its session has (logout, expiry, a user or device made inactive). */
  endIfSessionEnded(): void {
    if (!this.closed && this.hiddenNow() === undefined) this.end();
  }

  /** Writes what the log holds past the cursor, up to `through` (durable), until the socket pushes back. */
  pump(through = this.through): void {
    this.through = Math.max(this.through, through);
    if (this.writing || this.closed) return;
    const hidden = this.hiddenNow();
    if (hidden === undefined) return this.end();
    this.writing = true;
    try {
      for (;;) {
        const batch = changesSince(this.db, this.cursor, PAGE, this.through, hidden);
        let ok = true;
        for (const c of batch) {
          ok = this.res.write(`id: ${c.seq}\nevent: ${c.resource}\ndata: ${JSON.stringify(c)}\n\n`);
          this.cursor = c.seq;
        }
        // A short page is all there is up to `through`: entries hidden from this reader are passed over for good.
        if (batch.length < PAGE) {
          this.cursor = Math.max(this.cursor, this.through);
          return;
        }
        if (!ok) return; // 'drain' calls pump again
      }
    } finally {
      this.writing = false;
    }
  }

  end(): void {
    this.closed = true;
    this.res.end();
  }

  heartbeat(): void {
    if (!this.closed) this.res.write(`: heartbeat\n\n`);
  }
}

/** Once everything up to `seq` is on disk, lets the streams send it. */
function releaseWhenDurable(db: Db, seq: number, streams: Iterable<Stream>): void {
  whenDurable(db).then(
    () => {
      for (const s of streams) s.pump(seq);
    },
    // The disk failed: send nothing more (the hub is stopping; see main.ts).
    () => {
      for (const s of streams) s.end();
    },
  );
}

/**
 * The two readers of the change log; `endStreams()` ends every open stream (their clients reconnect
 * and resume), `close()` does so for good: the hub is stopping, and no stream or timer starts again.
 */
export interface EventStreams {
  /** A page of the log after `since` (0: from the start), at most `take` entries. */
  changes(query: { since?: number; take?: number }, res: Response): void;
  /** The stream from `since` (undefined: from now). */
  events(since: number | undefined, req: Request, res: Response): void;
  endStreams(): void;
  close(): void;
}

/**
 * `callerOf` answers a session's caller as it is now (undefined once the session has ended), so a
 * stream follows its reader's rights as they change; `hiddenFrom` names the resources a caller reads nothing of.
 */
export function eventStreams(db: Db, callerOf: (tokenHash: string) => Caller | undefined, hiddenFrom: (caller: Caller) => readonly string[]): EventStreams {
  const streams = new Set<Stream>();
  let seen = lastSeq(db);
  let poller: NodeJS.Timeout | undefined;
  let heartbeat: NodeJS.Timeout | undefined;
  let sessionCheck: NodeJS.Timeout | undefined;
  let stopListening: (() => void) | undefined;
  let checkQueued = false;
  // After close() (the hub stopping) the database may be closed at any moment: no timer may start
  // again, and a register reconnecting meanwhile gets a stream that ends at once.
  let closed = false;

  const startTimers = () => {
    if (poller || closed) return;
    seen = lastSeq(db);
    const check = () => {
      checkQueued = false;
      if (closed) return;
      const now = lastSeq(db);
      if (now === seen) return;
      seen = now;
      releaseWhenDurable(db, now, streams);
    };
    // A change written here is sent as soon as it is durable: checked once the event loop's turn that
    // wrote it ends (every change of that turn together), not at the next poll — that waited up to
    // 50 ms, 50 ms on the dot for a register writing right after its last event. The poll stays for
    // writes from other connections (a script, a restore), which this process is not told of.
    stopListening = onChange(db, () => {
      if (checkQueued) return;
      checkQueued = true;
      setImmediate(check);
    });
    poller = setInterval(check, POLL_MS);
    heartbeat = setInterval(() => streams.forEach((s) => s.heartbeat()), HEARTBEAT_MS);
    // A logout, an expiry or a deactivated user or device ends the stream within a second.
    sessionCheck = setInterval(() => {
      for (const s of streams) s.endIfSessionEnded();
    }, SESSION_CHECK_MS);
    poller.unref();
    heartbeat.unref();
    sessionCheck.unref();
  };
  const stopTimersIfIdle = () => {
    if (streams.size > 0) return;
    clearInterval(poller);
    clearInterval(heartbeat);
    clearInterval(sessionCheck);
    stopListening?.();
    poller = heartbeat = sessionCheck = stopListening = undefined;
  };

  const changes: EventStreams['changes'] = ({ since = 0, take = 100 }, res) => {
    const through = compactedThrough(db);
    if (since < through) throw gone(since, through);
    const items = changesSince(db, since, take, undefined, hiddenFrom(res.locals.caller as Caller));
    res.json({ items, count: items.length, lastSeq: items.length ? items[items.length - 1].seq : since });
  };

  const events: EventStreams['events'] = (since, req, res) => {
    // A new subscriber without a position starts at "now": it has just loaded what it needs.
    const start = since ?? lastSeq(db);
    const through = compactedThrough(db);
    if (start < through) throw gone(start, through);
    res.status(200);
    res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    res.setHeader('Cache-Control', 'no-cache, no-transform');
    res.setHeader('Connection', 'keep-alive');
    res.setHeader('X-Accel-Buffering', 'no');
    res.flushHeaders();
    req.socket.setNoDelay(true);
    res.write(`retry: 2000\n: position ${start}\n\n`);
    if (closed) {
      res.end();
      return;
    }
    const caller = res.locals.caller as Caller;
    const stream = new Stream(db, res, start, () => {
      const now = callerOf(caller.tokenHash);
      return now && hiddenFrom(now);
    });
    streams.add(stream);
    startTimers();
    releaseWhenDurable(db, lastSeq(db), [stream]);
    res.on('close', () => {
      streams.delete(stream);
      stopTimersIfIdle();
    });
  };
  const endStreams = () => {
    for (const s of streams) s.end();
    streams.clear();
    stopTimersIfIdle();
  };
  return {
    changes,
    events,
    endStreams,
    close() {
      closed = true;
      endStreams();
    },
  };
}

const change = z.object({
  seq: z.number().int(),
  resource: z.string().meta({ description: 'The path name of the resource: `tickets`, `plus`, `orders`, ...' }),
  key: z.string(),
  op: z.enum(['upsert', 'delete']),
  _v: z.number().int(),
  at: z.string(),
}).openapi('Change');
const GONE: ErrorSpec = { status: 410, codes: [ErrorCode.Gone], why: 'The position is older than the change log keeps (at least 30 days): reload, then follow from `lastSeq`.' };
const HIDDEN = 'Entries of resources the caller may not read (CONTRACT §12) are left out.';

export const eventRoutes = routes<{ events: EventStreams }>((route) => [
  route({
    method: 'get',
    path: '/api/changes',
    operationId: 'events.changes',
    tags: ['Events'],
    summary: 'The change log, for polling clients',
    description: `Every stored change, in order. Ask again with \`since=lastSeq\`. ${HIDDEN}`,
    query: z.object({
      since: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional().meta({ description: 'The last `seq` already seen (0: from the start).' }),
      $take: z.number().int().min(0).max(1000).optional().meta({ description: 'At most this many changes (default 100).' }),
    }),
    responses: {
      200: {
        description: '`lastSeq` is the highest `seq` in the answer, or `since` when it is empty.',
        schema: z.object({ items: z.array(change), count: z.number().int(), lastSeq: z.number().int() }),
      },
    },
    errors: [ERR.validation('A position that is not a whole number; `$take` out of range.'), ERR.unauthenticated(), GONE],
    handler:
      ({ events }) =>
      ({ query }, _req, res) =>
        events.changes({ since: query.since, take: query.$take }, res),
  }),
  route({
    method: 'get',
    path: '/api/events',
    operationId: 'events.stream',
    tags: ['Events'],
    summary: 'The change log as Server-Sent Events',
    description:
      'One event per stored change: `id:` the `seq`, `event:` the resource path name, `data:` the change as JSON. ' +
      'Resumes after `Last-Event-ID` (or `?since=`) with nothing missed or repeated; without a position it starts now. ' +
      `Only changes on stable storage are sent. A comment line every 15 s keeps idle connections open. Browsers may pass the token as \`?access_token=\`. ${HIDDEN} ` +
      'The stream ends when its session does (logout, expiry, a deactivated user or device).',
    headers: z.object({ 'Last-Event-ID': position.optional().openapi({ pattern: POSITION.source }) }),
    query: z.object({
      since: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional().meta({ description: 'A position, when no `Last-Event-ID` is sent.' }),
      lastEventId: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional().meta({ description: 'The same as `since` (the name some EventSource polyfills send).' }),
      access_token: z.string().optional().meta({ description: "The token, from a browser's EventSource, which cannot send `Authorization`." }),
    }),
    responses: { 200: { description: 'An endless `text/event-stream`.', schema: z.string(), contentType: 'text/event-stream' } },
    errors: [ERR.validation('A `Last-Event-ID` that is not a whole number.'), ERR.unauthenticated(), GONE],
    handler:
      ({ events }) =>
      ({ headers, query }, req, res) =>
        events.events(headers['Last-Event-ID'] ?? query.since ?? query.lastEventId, req, res),
  }),
]);
