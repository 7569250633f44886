/**
 * The print queue's store: enqueueing a job (called inside the transaction of the write that causes
 * it, so a job exists if and only if its cause does), and the print_jobs table as the workers use it.
 * Each change of a kitchen order's job is shown on the order (its `print` field) in the same
 * transaction, by the orders resource (KitchenOrders below: printing sits below the resources that
 * queue its jobs and imports none of them; the composition hands that half in).
 *
 * States: Queued → Printing → Printed | Waiting (printer offline, out of paper, open: retried) |
 * Failed (cannot ever print here) | Unknown (the hub stopped while printing; reprinted marked).
 * `attempts` counts the times the job's bytes were sent, so attempts > 0 on a new send means the
 * job may already be on paper and gets a REPRINT mark.
 */
import { sql } from 'drizzle-orm';
import { inTransaction, rawSql, type Db } from '../../db/client.js';
import type { Doc } from '../engine/define.js';
import { newId } from '../core/ids.js';

export const JOB_STATES = ['Queued', 'Printing', 'Printed', 'Waiting', 'Failed', 'Unknown'] as const;
export type JobState = (typeof JOB_STATES)[number];
/** States a worker still has to deliver. */
export const OPEN_STATES: JobState[] = ['Queued', 'Printing', 'Waiting', 'Unknown'];

export interface PrintJob {
  id: string;
  endpointName: string;
  kind: PrintJobKind;
  refId: string | null;
  payload: Record<string, unknown>;
  state: JobState;
  attempts: number;
  lastError: string | null;
  createdAt: number;
  printedAt: number | null;
}

/**
 * The kitchen orders as printing reads and marks them: the orders resource's
 * (hub/resources/orders/prints.ts), given by the composition.
 */
export interface KitchenOrders {
  /** An order's stored document; undefined when it no longer exists. */
  get(db: Db, id: string): Doc | undefined;
  /** A kitchen order's job changed: the order shows its state, in the job's transaction. */
  showJob(db: Db, job: PrintJob, at: number): void;
}

interface Row {
  id: string;
  endpoint_name: string;
  kind: string;
  ref_id: string | null;
  payload: string;
  state: string;
  attempts: number;
  last_error: string | null;
  created_at: number;
  printed_at: number | null;
}

const fromRow = (r: Row): PrintJob => ({
  id: r.id,
  endpointName: r.endpoint_name,
  kind: r.kind as PrintJobKind,
  refId: r.ref_id,
  payload: JSON.parse(r.payload) as Record<string, unknown>,
  state: r.state as JobState,
  attempts: r.attempts,
  lastError: r.last_error,
  createdAt: r.created_at,
  printedAt: r.printed_at,
});

// Literal, not bound: SQLite uses the partial index print_jobs_open only when it can see that the
// query's state list is the index's own.
const open = sql.raw(OPEN_STATES.map((s) => `'${s}'`).join(', '));

export function getJob(db: Db, id: string): PrintJob | undefined {
  const r = db.get<Row>(sql`SELECT * FROM print_jobs WHERE id = ${id}`);
  return r && fromRow(r);
}

/**
 * The endpoint's oldest undelivered job: jobs print in the order they were written. `passOver`: a
 * job already delivered whose new state is not written yet (hub/printing/states.ts).
 */
export function nextJob(db: Db, endpointName: string, passOver?: string): PrintJob | undefined {
  // Served by the partial index print_jobs_open in order, however long a day's backlog grows.
  const r =
    passOver === undefined
      ? db.get<Row>(sql`SELECT * FROM print_jobs WHERE endpoint_name = ${endpointName} AND state IN (${open}) ORDER BY created_at, rowid LIMIT 1`)
      : db.get<Row>(sql`SELECT * FROM print_jobs WHERE endpoint_name = ${endpointName} AND state IN (${open}) AND id != ${passOver} ORDER BY created_at, rowid LIMIT 1`);
  return r && fromRow(r);
}

export function queueDepth(db: Db, endpointName: string): number {
  return db.get<{ n: number }>(sql`SELECT count(*) AS n FROM print_jobs WHERE endpoint_name = ${endpointName} AND state IN (${open})`)?.n ?? 0;
}

/** Undelivered jobs per printer (printers without any are absent), from the open-jobs index. */
export function openJobCounts(db: Db): Map<string, number> {
  const rows = db.all<{ name: string; n: number }>(sql`SELECT endpoint_name AS name, count(*) AS n FROM print_jobs WHERE state IN (${open}) GROUP BY endpoint_name`);
  return new Map(rows.map((r) => [r.name, r.n]));
}

/** Endpoints that have undelivered jobs (a worker may be missing for some: inactive, deleted). */
export function endpointsWithOpenJobs(db: Db): string[] {
  return db.all<{ name: string }>(sql`SELECT DISTINCT endpoint_name AS name FROM print_jobs WHERE state IN (${open})`).map((r) => r.name);
}

export interface JobUpdate {
  state: JobState;
  /** Adds one send (the job's bytes are about to go out). */
  sending?: boolean;
  lastError?: string | null;
  printedAt?: number | null;
}

/** A job as it is after `u`. */
export function applyUpdate(job: PrintJob, u: JobUpdate): PrintJob {
  return {
    ...job,
    state: u.state,
    attempts: job.attempts + (u.sending ? 1 : 0),
    lastError: u.lastError === undefined ? job.lastError : u.lastError,
    printedAt: u.printedAt === undefined ? job.printedAt : u.printedAt,
  };
}

const UPDATE_JOB = 'UPDATE print_jobs SET state = ?, attempts = ?, last_error = ?, printed_at = ? WHERE id = ?';

/**
 * Jobs' new states (each whole), and their kitchen orders' `print` fields. Called inside a write
 * (inTransaction): several jobs' changes go into one (hub/printing/states.ts).
 */
export function writeJobStates(db: Db, orders: KitchenOrders, jobs: PrintJob[], at: number): void {
  for (const next of jobs) {
    rawSql.run(db, UPDATE_JOB, [next.state, next.attempts, next.lastError, next.printedAt, next.id]);
    // A kitchen order shows its own job's state (a COPY's job is the reprint request's business).
    if (next.kind === 'order' && next.refId) orders.showJob(db, next, at);
  }
}

/** One job's new state, and its kitchen order's `print` field, in one transaction of its own. */
export function updateJob(db: Db, orders: KitchenOrders, job: PrintJob, u: JobUpdate, at: number): PrintJob {
  const next = applyUpdate(job, u);
  inTransaction(db, () => writeJobStates(db, orders, [next], at));
  return next;
}

/**
 * At start: a job left Printing by a stopped hub may or may not be on paper. It becomes Unknown,
 * and since its bytes went out (attempts > 0) the next send carries a REPRINT mark.
 */
export function markInterrupted(db: Db, orders: KitchenOrders, at: number): number {
  const rows = db.all<Row>(sql`SELECT * FROM print_jobs WHERE state = 'Printing'`); // index print_jobs_printing
  for (const r of rows) updateJob(db, orders, fromRow(r), { state: 'Unknown', lastError: 'The hub stopped while this job was printing; it is printed again, marked REPRINT.' }, at);
  return rows.length;
}

export type PrintJobKind = 'order' | 'preliminary' | 'reprint' | 'test' | 'receiptCopy' | 'shiftReport';

/**
 * The endpoints that got a job on a connection since the print service last looked (takeAnnounced):
 * a write wakes only their workers. Every other worker would run its next-job query for nothing,
 * once per register write. A job a rolled-back write announced wakes its worker for nothing, no
 * worse; one written by another process is found by the idle workers' poll.
 */
const announced = new WeakMap<Db, Set<string>>();

/** The endpoints announced on `db` since the last call (and forgets them). */
export function takeAnnounced(db: Db): ReadonlySet<string> {
  const names = announced.get(db);
  announced.delete(db);
  return names ?? new Set();
}

export function enqueuePrintJob(db: Db, job: { endpointName: string; kind: PrintJobKind; refId: string | null; payload: unknown; at: number }): string {
  const id = newId();
  const names = announced.get(db);
  if (names) names.add(job.endpointName);
  else announced.set(db, new Set([job.endpointName]));
  rawSql.run(db, "INSERT INTO print_jobs (id, endpoint_name, kind, ref_id, payload, state, attempts, created_at) VALUES (?, ?, ?, ?, ?, 'Queued', 0, ?)", [
    id,
    job.endpointName,
    job.kind,
    job.refId,
    JSON.stringify(job.payload),
    job.at,
  ]);
  return id;
}

/** The order endpoints as the print service drives them (one, or all). */
export interface EndpointRow {
  name: string;
  type: string;
  address: string;
  is_active: number;
  settings: string | null;
}

export function endpointRows(db: Db, name?: string): EndpointRow[] {
  const where = name === undefined ? sql`` : sql`WHERE name = ${name}`;
  return db.all<EndpointRow>(sql`SELECT name, type, address, is_active, json_extract(doc, '$.settings') AS settings FROM order_endpoints ${where} ORDER BY name`);
}
