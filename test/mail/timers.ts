/** Timers that fire only when a test moves its fake clock: hours of backoff in milliseconds. */
import type { FakeClock } from '../../hub/core/clock.js';
import type { Timers } from '../../hub/mail/worker.js';

export class FakeTimers implements Timers {
  private seq = 0;
  private readonly pending = new Map<number, { at: number; fn: () => void }>();

  constructor(private readonly clock: FakeClock) {}

  set(fn: () => void, ms: number): number {
    const id = ++this.seq;
    this.pending.set(id, { at: this.clock.now().getTime() + ms, fn });
    return id;
  }

  clear(handle: unknown): void {
    this.pending.delete(handle as number);
  }

  /** When the earliest timer is due (epoch ms), or null. */
  next(): number | null {
    let at: number | null = null;
    for (const t of this.pending.values()) if (at === null || t.at < at) at = t.at;
    return at;
  }

  /**
   * Moves the clock to each timer due within `ms` in turn, fires it and waits for `settle` (the
   * worker's run), then sets the clock to the end. Answers the times at which timers fired.
   */
  async advance(ms: number, settle: () => Promise<void>): Promise<number[]> {
    const end = this.clock.now().getTime() + ms;
    const fired: number[] = [];
    for (;;) {
      const due = [...this.pending].sort(([, a], [, b]) => a.at - b.at)[0];
      if (!due || due[1].at > end) break;
      this.pending.delete(due[0]);
      if (due[1].at > this.clock.now().getTime()) this.clock.set(new Date(due[1].at));
      fired.push(due[1].at);
      due[1].fn();
      await settle();
    }
    this.clock.set(new Date(end));
    return fired;
  }
}
