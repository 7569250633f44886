/** A small Server-Sent Events client over fetch, for tests and scripts that follow /api/events. */
export interface SseEvent {
  id?: string;
  event?: string;
  data: string;
}

export class SseClient {
  readonly events: SseEvent[] = [];
  private readonly controller = new AbortController();
  private waiters: Array<() => void> = [];
  status = 0;
  done: Promise<void>;

  constructor(url: string, headers: Record<string, string>) {
    this.done = this.run(url, headers);
  }

  private async run(url: string, headers: Record<string, string>): Promise<void> {
    let res: Response;
    try {
      res = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: this.controller.signal });
    } catch {
      return;
    }
    this.status = res.status;
    this.notify();
    if (!res.body) return;
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const ev: SseEvent = { data: '' };
          let hasData = false;
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) continue;
            const [field, ...rest] = line.split(':');
            const value = rest.join(':').replace(/^ /, '');
            if (field === 'id') ev.id = value;
            else if (field === 'event') ev.event = value;
            else if (field === 'data') {
              ev.data += (hasData ? '\n' : '') + value;
              hasData = true;
            }
          }
          if (hasData) {
            this.events.push(ev);
            this.notify();
          }
        }
      }
    } catch {
      /* aborted */
    }
  }

  private notify(): void {
    const w = this.waiters;
    this.waiters = [];
    w.forEach((f) => f());
  }

  /** Resolves once `predicate` holds over the events received, or rejects after `timeoutMs`. */
  async waitFor(predicate: (events: SseEvent[]) => boolean, timeoutMs = 2000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate(this.events)) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out after ${timeoutMs} ms with ${this.events.length} events`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, Math.min(left, 100));
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  close(): void {
    this.controller.abort();
  }
}
