/**
 * Bounded password hashing (issue 17): scrypt takes ~40 ms of a core and 16 MB, and a flood of 400
 * logins once made a register's real login wait 6.6 s. Hashes run at most `concurrency` at a time;
 * each client address may have at most `perAddress` waiting or running, beyond which it is told to
 * come back (429) at once; and waiting addresses take turns, so one flooding address cannot starve
 * the others: a register's login waits for at most a turn around the addresses asking.
 */
import { errors } from './errors.js';

interface Job {
  run: () => void;
}

export class HashGate {
  private running = 0;
  /** Per address: its jobs not started yet. Map order is the turn order. */
  private readonly waiting = new Map<string, Job[]>();
  private readonly inUse = new Map<string, number>();

  constructor(
    private readonly concurrency = 2,
    private readonly perAddress = 4,
  ) {}

  /** Admits a hash for `address` now (429 when that address has too many in the gate), and runs `fn` in its turn. */
  run<T>(address: string, fn: () => Promise<T>): Promise<T> {
    const held = this.inUse.get(address) ?? 0;
    if (held >= this.perAddress) throw errors.tooManyRequests(1, 'tooMany.loginsAtOnce');
    this.inUse.set(address, held + 1);
    return new Promise<T>((resolve, reject) => {
      const job: Job = {
        run: () => {
          this.running++;
          fn()
            .then(resolve, reject)
            .finally(() => {
              this.running--;
              const left = (this.inUse.get(address) ?? 1) - 1;
              if (left > 0) this.inUse.set(address, left);
              else this.inUse.delete(address);
              this.next();
            });
        },
      };
      this.waiting.set(address, [...(this.waiting.get(address) ?? []), job]);
      this.next();
    });
  }

  /** Starts jobs while there is room, one address at a time in turn. */
  private next(): void {
    while (this.running < this.concurrency && this.waiting.size > 0) {
      const [address, jobs] = this.waiting.entries().next().value as [string, Job[]];
      this.waiting.delete(address);
      const [job, ...rest] = jobs;
      if (rest.length) this.waiting.set(address, rest); // to the back of the line
      job.run();
    }
  }
}
