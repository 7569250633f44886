/**
 * Repeatable randomness for tests (mulberry32): the same seed gives the same sequence, so a failing
 * random history is replayed by its seed.
 */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A seeded generator with the draws a test makes. */
export class Random {
  readonly next: () => number;
  constructor(readonly seed: number) {
    this.next = rng(seed);
  }
  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.next() * xs.length)];
  }
  /** One of `choices`, each as likely as its weight. */
  weighted<T extends string>(choices: Record<T, number>): T {
    const entries = Object.entries(choices) as Array<[T, number]>;
    let r = this.next() * entries.reduce((s, [, w]) => s + w, 0);
    for (const [k, w] of entries) if ((r -= w) < 0) return k;
    return entries[entries.length - 1][0];
  }
}
