/**
 * The register's service worker (served as /pos/sw.js, scope /pos/): it keeps the page and its
 * assets, so a register opened from the home screen starts without the network — the hub may be
 * rebooting, the garden's Wi-Fi may be gone — and shows the tickets it keeps in IndexedDB.
 *
 * - The page (/pos/) is asked for on the network first (a new build reaches the tablet at its next
 *   start), with the copy kept from the last time it loaded as the answer when the hub cannot be
 *   reached within a few seconds.
 * - Hashed assets (/assets/…) never change under their name: kept, answered from the cache first.
 *   Each time the page loads from the network, what it names is fetched into the cache and what it
 *   no longer names is dropped.
 * - The API is never answered from here: what the hub says is always the hub's (the page keeps its
 *   own copy of what it needs, and says when it is offline).
 *
 * A service worker needs a secure context: https, or http on localhost. On a shop's plain-http LAN
 * the browser does not start it (the README's Register section says what to do about it); the page
 * works the same without it, it only cannot start with the hub unreachable.
 */

interface WaitUntilEvent extends Event {
  waitUntil(work: Promise<unknown>): void;
}
interface FetchEvent extends WaitUntilEvent {
  readonly request: Request;
  respondWith(answer: Promise<Response> | Response): void;
}
interface WorkerScope {
  addEventListener(type: 'install' | 'activate', listener: (event: WaitUntilEvent) => void): void;
  addEventListener(type: 'fetch', listener: (event: FetchEvent) => void): void;
  skipWaiting(): Promise<void>;
  readonly clients: { claim(): Promise<void> };
  readonly location: Location;
}

const worker = self as unknown as WorkerScope;
const CACHE = 'poshub-pos';
const PAGE = '/pos/';
/** What the page needs beside its own assets. */
const EXTRAS = ['/pos/manifest.webmanifest', '/pos-icon.svg', '/pos-icon-192.png', '/pos-icon-512.png'];
/** How long a start waits for the hub before it answers with the kept page. */
const PAGE_TIMEOUT_MS = 4000;

/** The assets a page names: its scripts, styles and module preloads. */
function assetsOf(html: string): string[] {
  return [...new Set([...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]))];
}

/** Keeps `page` and every asset it names; drops kept assets it no longer names (an older build's). */
async function keep(page: Response): Promise<void> {
  const cache = await caches.open(CACHE);
  const html = await page.clone().text();
  const wanted = assetsOf(html);
  for (const url of wanted) {
    if (await cache.match(url)) continue;
    const res = await fetch(url, { cache: 'no-cache' });
    if (res.ok) await cache.put(url, res);
  }
  await cache.put(PAGE, page);
  for (const request of await cache.keys()) {
    const path = new URL(request.url).pathname;
    if (path.startsWith('/assets/') && !wanted.includes(path)) await cache.delete(request);
  }
}

worker.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const page = await fetch(PAGE, { cache: 'no-cache' });
      if (page.ok) await keep(page);
      const cache = await caches.open(CACHE);
      await Promise.all(EXTRAS.map((url) => cache.add(url).catch(() => undefined)));
      await worker.skipWaiting();
    })(),
  );
});

worker.addEventListener('activate', (event) => {
  event.waitUntil(worker.clients.claim());
});

async function pageAnswer(request: Request): Promise<Response> {
  const cache = await caches.open(CACHE);
  try {
    const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timeout')), PAGE_TIMEOUT_MS));
    const res = await Promise.race([fetch(request, { cache: 'no-cache' }), timeout]);
    if (res.ok) {
      await keep(res.clone());
      return res;
    }
    return (await cache.match(PAGE)) ?? res;
  } catch {
    const kept = await cache.match(PAGE);
    if (kept) return kept;
    throw new Error('the register page is not kept yet and the hub cannot be reached');
  }
}

async function assetAnswer(request: Request): Promise<Response> {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(request);
  if (kept) return kept;
  const res = await fetch(request);
  if (res.ok) await cache.put(request, res.clone());
  return res;
}

/** The manifest and icons: the kept copy at once, refreshed behind it. */
async function extraAnswer(request: Request): Promise<Response> {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(request);
  const fresh = fetch(request)
    .then(async (res) => {
      if (res.ok) await cache.put(request, res.clone());
      return res;
    })
    .catch(() => undefined);
  return kept ?? (await fresh) ?? Response.error();
}

worker.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== worker.location.origin || url.pathname.startsWith('/api/')) return;
  if (request.mode === 'navigate' && (url.pathname === '/pos' || url.pathname === PAGE)) event.respondWith(pageAnswer(request));
  else if (url.pathname.startsWith('/assets/')) event.respondWith(assetAnswer(request));
  else if (EXTRAS.includes(url.pathname)) event.respondWith(extraAnswer(request));
});
