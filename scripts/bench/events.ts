/**
 * Event delivery (issue 10 asked: a kitchen display and a waiter's client learn of a change within a
 * second): from a ticket write's request leaving a register to its `tickets` event reaching a client
 * that follows /api/events — the write, its durable commit, and the push, one write at a time.
 * Measured here and not asserted in a test: a test that timed it would flake on a loaded machine.
 */
import { SseClient, type SseEvent } from '../../test/support/sse.js';

export interface Delivery {
  p50: number;
  p99: number;
  max: number;
  n: number;
}

/** Writes `n` tickets one after another and times each until a follower of /api/events is told of it. */
export async function measureEventDelivery(
  base: string,
  followerToken: string,
  write: () => Promise<string>,
  n: number,
  percentile: (values: number[], p: number) => number,
): Promise<Delivery> {
  const follower = new SseClient(`${base}/api/events`, { authorization: `Bearer ${followerToken}` });
  const times: number[] = [];
  try {
    await follower.waitFor(() => follower.status !== 0, 10_000);
    if (follower.status !== 200) throw new Error(`/api/events answered ${follower.status}`);
    // Events already looked at are not parsed again: each wait reads only what came since.
    let read = 0;
    const seen = new Set<string>();
    const told = (id: string) => (events: SseEvent[]) => {
      for (; read < events.length; read++) seen.add(String((JSON.parse(events[read].data) as { key?: unknown }).key));
      return seen.has(id);
    };
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      const id = await write();
      await follower.waitFor(told(id), 10_000);
      times.push(performance.now() - t0);
    }
  } finally {
    follower.close();
    await follower.done;
  }
  return { p50: percentile(times, 50), p99: percentile(times, 99), max: Math.round(Math.max(...times) * 10) / 10, n: times.length };
}
