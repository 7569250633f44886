/**
 * Enqueueing print jobs (the outbox side of the durable print queue). Called inside the
 * transaction of the write that causes the job, so a job exists if and only if its cause does.
 */
import { rawSql, type Db } from '../../db/client.js';
import { newId } from '../resources/engine/service.js';

export type PrintJobKind = 'order' | 'preliminary' | 'reprint' | 'test';

export function enqueuePrintJob(db: Db, job: { endpointName: string; kind: PrintJobKind; refId: string | null; payload: unknown; at: number }): string {
  const id = newId();
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
