/** The one source of "now" for the hub. Tests pass a fake; nothing else calls `new Date()` for business time. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that moves only when told to: for tests of expiry, throttling windows and numbering periods. */
export class FakeClock implements Clock {
  private ms: number;
  constructor(start: Date | string = '2026-11-21T10:00:00Z') {
    this.ms = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.ms);
  }
  set(to: Date | string): void {
    this.ms = new Date(to).getTime();
  }
  advance(ms: number): void {
    this.ms += ms;
  }
}
