/** Async work run one piece at a time, in call order; a piece that fails does not stop the ones after it. */
export class OneAtATime {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(work: () => Promise<T>): Promise<T> {
    const p = this.tail.then(work);
    this.tail = p.catch(() => {});
    return p;
  }

  /** Resolves once everything queued so far has finished. */
  async idle(): Promise<void> {
    await this.tail;
  }
}
