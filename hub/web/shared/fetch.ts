/**
 * fetch with a deadline, for every page's calls to the hub (the house rule: every network call has a
 * timeout). A hub that accepted the connection and then hangs — a restart half done, a Wi-Fi link that
 * dropped without a reset — would otherwise leave a button busy for as long as the browser waits
 * (minutes). A caller's own signal (a view left, a search typed over) still aborts as before, with the
 * browser's AbortError; the deadline aborts with DeadlineExceeded, so the caller can tell the two apart.
 */
export class DeadlineExceeded extends Error {
  constructor(readonly timeoutMs: number) {
    super(`no answer within ${timeoutMs} ms`);
    this.name = 'DeadlineExceeded';
  }
}

/** Statuses whose answers have no body (a Response made with one throws). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * `bodyToo: false` holds the deadline only until the answer starts (its status and headers): a file
 * download (a backup of a big store runs to gigabytes) then takes as long as the link needs.
 */
export async function fetchWithin(url: string, init: RequestInit, timeoutMs: number, signal?: AbortSignal, opts: { bodyToo?: boolean } = {}): Promise<Response> {
  const abort = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    abort.abort();
  }, timeoutMs);
  const follow = () => abort.abort();
  if (signal?.aborted) abort.abort();
  signal?.addEventListener('abort', follow);
  try {
    // The deadline covers the body too, unless told not to: read here whole, before it ends.
    const res = await fetch(url, { ...init, signal: abort.signal });
    if (opts.bodyToo === false) return res;
    const body = await res.arrayBuffer();
    return new Response(NULL_BODY.has(res.status) ? null : body, { status: res.status, statusText: res.statusText, headers: res.headers });
  } catch (e) {
    if (timedOut) throw new DeadlineExceeded(timeoutMs);
    throw e;
  } finally {
    clearTimeout(timer);
    // A body read later (bodyToo: false) still stops when the caller aborts.
    if (opts.bodyToo !== false) signal?.removeEventListener('abort', follow);
  }
}
