/**
 * What HQ takes from a store (CONTRACT §13 "Trust between the parts"): each event and heartbeat is
 * tied to the store whose NATS identity sent it — the subject its NATS permissions allow it, never
 * a store id in the body — and checked against its schema and against what PostgreSQL would refuse
 * (a time it cannot parse, an integer beyond its column, a NUL or a lone surrogate in text or jsonb,
 * a number beyond a numeric column) or what would make a later list or report fail (a ticket
 * amount that is not a number, items that are not an array). What fails is named here; ingest puts
 * it aside as a dead letter and goes on.
 */
import { z } from 'zod';
import { jsonDocumentProblem } from '../http/body.js';
import { brokenText } from '../http/text.js';
import { t } from '../i18n/index.js';
import { STORE_ID, storeInbox, subjectToken, type Heartbeat, type StoreEvent } from './protocol.js';

const INT4_MAX = 2_147_483_647;
/** Amounts HQ keeps in numeric(19, 4) columns, with room to spare over the hub's ±1,000,000,000. */
const AMOUNT_MAX = 1e12;

/** Text PostgreSQL stores: no NUL, no lone surrogate. */
const pgText = (max: number) =>
  z
    .string()
    .max(max)
    .refine((s) => brokenText(s) === null, 'holds a NUL or a lone UTF-16 surrogate');

const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(Z|[+-](\d{2}):(\d{2}))$/;

/** An ISO 8601 date-time with a zone that PostgreSQL's timestamptz takes as the same instant JavaScript reads. */
export function isPgDateTime(s: string): boolean {
  const m = ISO_DATE_TIME.exec(s);
  if (!m) return false;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const zoneOk = m[8] === 'Z' || (Number(m[9]) <= 15 && Number(m[10]) <= 59);
  return year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= days && hour <= 23 && minute <= 59 && second <= 59 && zoneOk;
}

const dateTime = z.string().max(64).refine(isPgDateTime, 'is not an ISO 8601 date-time with a zone');
const optional = <T extends z.ZodType>(t: T) => t.nullable().optional();
const amount = z.number().min(-AMOUNT_MAX).max(AMOUNT_MAX);
const money = optional(z.looseObject({ amount: optional(amount) }));
const bigintValue = z.number().int().min(Number.MIN_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER);

/** What HQ's SQL casts of a ticket (repo.ts TICKET_COLUMNS, lists.ts, the sales report): each of the type it is cast to. */
const ticketDoc = z.looseObject({
  openDate: optional(dateTime),
  closeDate: optional(dateTime),
  totalPrice: money,
  discountRate: optional(amount),
  closeInfo: optional(z.looseObject({ number: optional(bigintValue), dailySalesReportNumber: optional(bigintValue) })),
  items: optional(
    z
      .array(
        z.looseObject({
          quantity: optional(amount),
          discountRate: optional(amount),
          totalPrice: money,
          plu: optional(z.looseObject({ code: optional(bigintValue) })),
        }),
      )
      .max(10_000),
  ),
});

const eventSchema = z.object({
  storeId: z.string(),
  seq: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
  base: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  resource: pgText(64).regex(/^[a-z][a-z0-9/_-]*$/, 'is not a resource name'),
  key: pgText(1000).min(1),
  op: z.enum(['upsert', 'delete']),
  v: z.number().int().min(1).max(INT4_MAX),
  at: dateTime,
  doc: z.record(z.string(), z.unknown()).nullable(),
});

/** A JSON value's first number JSON.parse could not hold (1e400 became Infinity), or null. */
function nonFinite(value: unknown, path: string): string | null {
  if (typeof value === 'number') return Number.isFinite(value) ? null : path || '$';
  if (value === null || typeof value !== 'object') return null;
  for (const [k, v] of Object.entries(value)) {
    const found = nonFinite(v, Array.isArray(value) ? `${path}[${k}]` : path ? `${path}.${k}` : k);
    if (found) return found;
  }
  return null;
}

/** Whatever in a parsed document PostgreSQL's jsonb or a JSON column would not take, said in a line. */
function jsonProblem(value: unknown, where: string): string | null {
  const problem = jsonDocumentProblem(value);
  // In words, as the other reasons are (a dead letter's reason is read on HQ's page, not looked up).
  if (problem) return `${where}${problem.path ? `.${problem.path}` : ''}: ${t('en', problem.key, problem.params)}`;
  const inf = nonFinite(value, '');
  return inf ? `${where}${inf === '$' ? '' : `.${inf}`}: a number beyond what JSON numbers hold` : null;
}

const issue = (e: z.ZodError) => {
  const first = e.issues[0];
  return `${first.path.join('.') || 'message'}: ${first.message}`;
};

/** `pos.<storeId>.<resource>`: the store the NATS permissions let publish there, and the resource token. */
export function eventSubjectParts(subject: string): { storeId: string; token: string } | null {
  const [head, storeId, token, ...rest] = subject.split('.');
  return head === 'pos' && STORE_ID.test(storeId ?? '') && token && !rest.length ? { storeId, token } : null;
}

export type EventCheck =
  | { ok: true; event: StoreEvent }
  | { ok: false; storeId: string; seq: number | null; reason: string };

/** The seq a message id `<storeId>:<seq>` names for `storeId`. */
function seqOfMsgId(msgId: string | undefined, storeId: string | undefined): number | null {
  const m = storeId && msgId?.startsWith(`${storeId}:`) ? /^[1-9]\d{0,15}$/.exec(msgId.slice(storeId.length + 1)) : null;
  return m && Number.isSafeInteger(Number(m[0])) ? Number(m[0]) : null;
}

/**
 * One message of the events stream, as received, with its message id (`<storeId>:<seq>`, which
 * names the seq of a dead letter whose body is unreadable).
 */
export function checkEvent(subject: string, text: string, msgId?: string): EventCheck {
  const from = eventSubjectParts(subject);
  const idSeq = seqOfMsgId(msgId, from?.storeId);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    return { ok: false, storeId: from?.storeId ?? '', seq: idSeq, reason: `not JSON: ${(e as Error).message}` };
  }
  const claimed = (parsed as { seq?: unknown } | null)?.seq;
  const seq = idSeq ?? (Number.isSafeInteger(claimed) && (claimed as number) > 0 ? (claimed as number) : null);
  const refuse = (reason: string): EventCheck => ({ ok: false, storeId: from?.storeId ?? '', seq, reason: reason.slice(0, 1000) });
  if (!from) return refuse(`the subject ${subject} is not pos.<storeId>.<resource>`);
  const shape = jsonProblem(parsed, 'event');
  if (shape) return refuse(shape);
  const result = eventSchema.safeParse(parsed);
  if (!result.success) return refuse(issue(result.error));
  const event = result.data;
  // The identity is the subject (its NATS user may publish only there), never the body's word.
  if (event.storeId !== from.storeId) return refuse(`storeId: '${event.storeId}' in a message of store ${from.storeId}`);
  if (subjectToken(event.resource) !== from.token) return refuse(`resource: '${event.resource}' published as ${from.token}`);
  if (event.base >= event.seq) return refuse(`base: ${event.base} is not below seq ${event.seq}`);
  if (idSeq !== null && idSeq !== event.seq) return refuse(`seq: ${event.seq} in the message of id ${msgId}`);
  if (event.resource === 'tickets' && event.doc) {
    const ticket = ticketDoc.safeParse(event.doc);
    if (!ticket.success) return refuse(`doc.${issue(ticket.error)}`);
  }
  // The message as it came, not zod's copy (which would drop a member zod does not know).
  return { ok: true, event: parsed as StoreEvent };
}

const deviceStatus = z.record(z.string(), z.unknown());
const heartbeatSchema = z.object({
  storeId: z.string(),
  name: pgText(200),
  at: z.string().max(64),
  lastSeq: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  ackedSeq: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  appliedCatalogVersion: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  catalogError: z.object({ version: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER), detail: pgText(1000) }).nullable(),
  printers: z.array(deviceStatus).max(200),
  fiscalDevices: z.array(deviceStatus).max(200),
});

/** A heartbeat from `hq.heartbeat.<storeId>`, or why not. */
export function checkHeartbeat(subject: string, text: string): { ok: true; heartbeat: Heartbeat } | { ok: false; reason: string } {
  const [head, kind, storeId, ...rest] = subject.split('.');
  if (head !== 'hq' || kind !== 'heartbeat' || !STORE_ID.test(storeId ?? '') || rest.length) return { ok: false, reason: `the subject ${subject} is not hq.heartbeat.<storeId>` };
  if (text.length > 256 * 1024) return { ok: false, reason: 'larger than 256 KiB' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    return { ok: false, reason: `not JSON: ${(e as Error).message}` };
  }
  const shape = jsonProblem(parsed, 'heartbeat');
  if (shape) return { ok: false, reason: shape };
  const result = heartbeatSchema.safeParse(parsed);
  if (!result.success) return { ok: false, reason: issue(result.error) };
  if (result.data.storeId !== storeId) return { ok: false, reason: `storeId: '${result.data.storeId}' in a heartbeat of store ${storeId}` };
  return { ok: true, heartbeat: result.data };
}

/**
 * Why HQ must not answer a heartbeat of `storeId` on `reply`, or null. HQ's NATS user may answer
 * whatever reply subject a message it received names, and may publish to the JetStream API and the
 * catalog subjects anyway: a store naming `$JS.API.STREAM.DELETE.…`, `catalog.<another store>` or
 * another store's inbox would have HQ delete a stream, push a catalog or tell another store what
 * it may forget. So the answer goes only into the sending store's own inbox (its subject is its
 * identity), as plain tokens.
 */
export function heartbeatReplyProblem(storeId: string, reply: string): string | null {
  const prefix = `${storeInbox(storeId)}.`;
  if (!reply.startsWith(prefix) || reply.length > 256 || !/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+){0,7}$/.test(reply.slice(prefix.length))) {
    return `the reply subject ${reply.slice(0, 100)} is not in ${storeInbox(storeId)}.>`;
  }
  return null;
}
