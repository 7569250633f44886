/**
 * Waiting in real time for something another process, socket or worker does: the one polling helper
 * of the tests. Where the hub's own time matters, tests move the FakeClock instead.
 */

export interface WaitOptions {
  /** Give up after this long (ms). */
  ms?: number;
  /** What is waited for, for the failure message. */
  what?: string;
  /** How often to look (ms). */
  every?: number;
  /** More to say on failure (a process's output). */
  context?: () => string;
}

/**
 * Reads `read` until `done` holds for its value and returns that value. A read that throws counts as
 * not yet; after `ms` it fails naming what it waited for and the last value or error.
 */
export async function until<T>(read: () => T | Promise<T>, done: (value: T) => boolean, opts: WaitOptions | number = {}): Promise<T> {
  const { ms = 5000, what = 'the condition', every = 10, context } = typeof opts === 'number' ? { ms: opts } : opts;
  const end = Date.now() + ms;
  for (;;) {
    let last: string;
    try {
      const value = await read();
      if (done(value)) return value;
      last = JSON.stringify(value) ?? String(value);
    } catch (e) {
      last = String(e);
    }
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}; last: ${last}${context ? `\n${context()}` : ''}`);
    await new Promise((r) => setTimeout(r, every));
  }
}

/** Until `check` answers true. */
export async function untilTrue(check: () => boolean | Promise<boolean>, opts: WaitOptions | number = {}): Promise<void> {
  await until(check, (ok) => ok === true, opts);
}
