/**
 * The print queue's queries stay on indexes that hold only undelivered jobs, so a printer dead for
 * a day (thousands queued) or a year of printed jobs never slows a start, a health poll or the
 * next job.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kitchenOrders } from '../../hub/resources/orders/prints.js';
import { endpointsWithOpenJobs, markInterrupted, nextJob, openJobCounts, queueDepth } from '../../hub/printing/store.js';
import { startHub, type TestHub } from '../support/hub.js';

let hub: TestHub;
beforeAll(async () => {
  hub = await startHub();
});
afterAll(() => hub.close());

/** EXPLAIN QUERY PLAN of every statement on print_jobs that `run` prepares. */
function plansOf(run: () => unknown): string[] {
  const client = hub.db.$client;
  const prepare = client.prepare;
  const sources: string[] = [];
  client.prepare = function (this: typeof client, source: string) {
    if (/FROM print_jobs/.test(source)) sources.push(source);
    return prepare.call(this, source);
  } as typeof client.prepare;
  try {
    run();
  } finally {
    client.prepare = prepare;
  }
  expect(sources.length).toBeGreaterThan(0);
  return sources.map((s) => {
    const params = Array.from(s.matchAll(/\?/g), () => 'Kitchen');
    return (client.prepare(`EXPLAIN QUERY PLAN ${s}`).all(...params) as Array<{ detail: string }>).map((r) => r.detail).join(' | ');
  });
}

describe('print queue indexes', () => {
  it.each([
    ['the start-up recovery', () => markInterrupted(hub.db, kitchenOrders, 0), /print_jobs_printing/],
    ['the next job', () => nextJob(hub.db, 'Kitchen'), /print_jobs_open/],
    ['the next job past one printed but not yet written', () => nextJob(hub.db, 'Kitchen', 'job-just-printed'), /print_jobs_open/],
    ['a queue depth', () => queueDepth(hub.db, 'Kitchen'), /print_jobs_open/],
    ['the depths of /api/health and /metrics', () => openJobCounts(hub.db), /print_jobs_open/],
    ['the printers with work', () => endpointsWithOpenJobs(hub.db), /print_jobs_open/],
  ])('%s reads an index of undelivered jobs only', (_name, run, index) => {
    for (const plan of plansOf(run)) {
      expect(plan).toMatch(index);
      expect(plan).not.toMatch(/SCAN print_jobs(?! USING)/);
    }
  });
});
