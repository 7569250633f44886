/**
 * Event delivery (issue 10 asked: a kitchen display and a waiter's client learn of a change within a
 * second): from a ticket write's request leaving a register to its `tickets` event reaching a client
 * that follows /api/events — the write, its durable commit, and the push, one write at a time.
 * Measured here and not asserted in a test: a test that timed it would flake on a loaded machine.
 */

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
  const stream = new AbortController();
  const res = await fetch(`${base}/api/events`, { headers: { authorization: `Bearer ${followerToken}`, accept: 'text/event-stream' }, signal: stream.signal });
  if (!res.ok || !res.body) throw new Error(`/api/events answered ${res.status}`);
  const waiting = new Map<string, () => void>();
  const seen = new Set<string>();
  // Reads the stream's `data:` lines and tells the waiter of each key as its event comes.
  const reading = (async () => {
    const decoder = new TextDecoder();
    let buffered = '';
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      buffered += decoder.decode(chunk, { stream: true });
      let nl: number;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        if (!line.startsWith('data:')) continue;
        try {
          const key = String((JSON.parse(line.slice(5)) as { key?: unknown }).key);
          seen.add(key);
          waiting.get(key)?.();
        } catch {
          /* a line that is not an event's JSON (a comment, a heartbeat) */
        }
      }
    }
  })().catch(() => undefined);

  const times: number[] = [];
  try {
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      let told!: () => void;
      const arrived = new Promise<void>((resolve) => (told = resolve));
      const id = await write();
      if (seen.has(id)) told();
      else waiting.set(id, told);
      const timeout = new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), 10_000).unref());
      if ((await Promise.race([arrived, timeout])) === 'late') throw new Error(`no event for ticket ${id} within 10 s`);
      waiting.delete(id);
      times.push(performance.now() - t0);
    }
  } finally {
    stream.abort();
    await reading;
  }
  return { p50: percentile(times, 50), p99: percentile(times, 99), max: Math.round(Math.max(...times) * 10) / 10, n: times.length };
}
