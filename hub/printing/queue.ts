/**
 * Enqueueing print jobs (the outbox side of the durable print queue). Called inside the
 * transaction of the write that causes the job, so a job exists if and only if its cause does.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { newId } from '../resources/engine/service.js';

export type PrintJobKind = 'order' | 'preliminary' | 'reprint' | 'test';

export function enqueuePrintJob(db: Db, job: { endpointName: string; kind: PrintJobKind; refId: string | null; payload: unknown; at: number }): string {
  const id = newId();
  db.run(
    sql`INSERT INTO print_jobs (id, endpoint_name, kind, ref_id, payload, state, attempts, created_at)
        VALUES (${id}, ${job.endpointName}, ${job.kind}, ${job.refId}, ${JSON.stringify(job.payload)}, 'Queued', 0, ${job.at})`,
  );
  return id;
}
