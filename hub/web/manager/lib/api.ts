/**
 * The one way the page talks to the hub: every call goes through `request`, which adds the token,
 * turns problem+json into an ApiError, and recovers an expired session once (refresh) before
 * giving up. Lists use the hub's QueryResult paging; filters are written in NData (`Member=op:arg`).
 */

import { fetchWithin } from '../../shared/fetch.js';
import { language, messages } from '../../shared/i18n.js';
import type { MemberError, Problem as WireProblem } from '../../shared/types.js';
import { rightsNamedIn, rightWord } from './rights-words.js';
import { deviceError } from './device-words.js';

const t = messages({
  noAnswer: { en: 'The hub does not answer. Check that it is running and that this device is on the shop network.', sk: 'Hub neodpovedá. Skontrolujte, či beží a či je toto zariadenie v sieti prevádzky.', cs: 'Hub neodpovídá. Zkontrolujte, zda běží a zda je toto zařízení v síti provozovny.' },
  answered: { en: 'The hub answered {status}.', sk: 'Hub odpovedal {status}.', cs: 'Hub odpověděl {status}.' },
  sessionEnded: { en: 'Your session has ended. Please log in again.', sk: 'Vaše prihlásenie vypršalo. Prihláste sa znova.', cs: 'Vaše přihlášení vypršelo. Přihlaste se znovu.' },
  needsRight: { en: 'You are not allowed to do this: it needs the right “{right}”. Ask the owner to grant it.', sk: 'Na toto nemáte oprávnenie: treba právo „{right}“. Požiadajte majiteľa, aby vám ho pridelil.', cs: 'K tomu nemáte oprávnění: je třeba právo „{right}“. Požádejte majitele, aby vám ho přidělil.' },
  notAllowed: { en: 'You are not allowed to do this. {detail}', sk: 'Na toto nemáte oprávnenie. {detail}', cs: 'K tomu nemáte oprávnění. {detail}' },
  refused: { en: 'The hub refused this action.', sk: 'Hub túto akciu odmietol.', cs: 'Hub tuto akci odmítl.' },
  notFound: { en: 'Not found: it may have been deleted meanwhile.', sk: 'Nenašlo sa: medzitým to mohol niekto odstrániť.', cs: 'Nenalezeno: mezitím to mohl někdo odstranit.' },
  conflict: { en: 'Someone changed this meanwhile. Reload to see their version, then make your change again.', sk: 'Niekto to medzitým zmenil. Načítajte jeho verziu a urobte svoju zmenu znova.', cs: 'Někdo to mezitím změnil. Načtěte jeho verzi a udělejte svou změnu znovu.' },
  unavailable: { en: 'The device is unavailable.', sk: 'Zariadenie nie je dostupné.', cs: 'Zařízení není dostupné.' },
  tryLater: { en: 'Try again in a moment.', sk: 'Skúste to o chvíľu znova.', cs: 'Zkuste to za chvíli znovu.' },
  nothingChanged: { en: '{detail} Nothing was changed; try again in a moment.', sk: '{detail} Nič sa nezmenilo; skúste to o chvíľu znova.', cs: '{detail} Nic se nezměnilo; zkuste to za chvíli znovu.' },
  correct: { en: 'Please correct the highlighted fields.', sk: 'Opravte, prosím, zvýraznené polia.', cs: 'Opravte prosím zvýrazněná pole.' },
});

/** The words of a stale-version refusal (409, errorCode 6), to tell it from other form errors. */
export const CONFLICT = () => t('conflict');
/** The words for fields that fail their checks. */
export const CORRECT_FIELDS = () => t('correct');
/** The words for an ended session. */
export const SESSION_ENDED = () => t('sessionEnded');

export type { MemberError };

/** A refusal: the problem+json body, or only the status when the answer was not one (a proxy's page). */
export type Problem = Partial<WireProblem> & Pick<WireProblem, 'status'>;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly problem: Problem,
  ) {
    super(problem.detail || problem.title || t('answered', { status }));
  }
  get errors(): MemberError[] {
    return this.problem.errors ?? [];
  }
  /** 403 with errorCode 2: the user lacks a right (as opposed to a state that forbids the action). */
  get isMissingRight(): boolean {
    return this.status === 403 && this.problem.errorCode === 2;
  }
}

export interface QueryResult<T> {
  items: T[];
  count: number;
  totalCount: number;
}

/** A filter value is already NData (`eq:5`, `in:a,b`); an array repeats the member (ANDed). */
export type Filters = Record<string, string | string[] | null | undefined | false>;

export interface ListQuery {
  filters?: Filters;
  skip?: number;
  take?: number;
  sort?: string;
}

type Json = Record<string, unknown> | unknown[];

interface Auth {
  token: string | null;
  /** Called once on a 401; answers true when a new token is in place and the call may be retried. */
  recover: (() => Promise<boolean>) | null;
}

const auth: Auth = { token: null, recover: null };

export function setToken(token: string | null): void {
  auth.token = token;
}

export function onUnauthorized(recover: () => Promise<boolean>): void {
  auth.recover = recover;
}

/** NData operators. Values always carry their operator, so a value with a colon stays a value. */
const quote = (v: string) => (/[",]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
export const op = {
  eq: (v: string | number | boolean) => `eq:${v}`,
  ne: (v: string | number | boolean) => `ne:${v}`,
  contains: (v: string) => `contains:${v}`,
  ge: (v: string | number) => `ge:${v}`,
  lt: (v: string | number) => `lt:${v}`,
  in: (values: Array<string | number>) => `in:${values.map((v) => quote(String(v))).join(',')}`,
  range: (from?: string | null, to?: string | null) => [from ? `ge:${from}` : null, to ? `lt:${to}` : null].filter(Boolean).join(';') || null,
};

export function queryString(q: ListQuery): string {
  const params = new URLSearchParams();
  for (const [member, value] of Object.entries(q.filters ?? {})) {
    if (value === null || value === undefined || value === false || value === '') continue;
    for (const v of Array.isArray(value) ? value : [value]) params.append(member, v);
  }
  if (q.skip) params.set('$skip', String(q.skip));
  if (q.take !== undefined) params.set('$take', String(q.take));
  if (q.sort) params.set('$sort', q.sort);
  const s = params.toString();
  return s ? `?${s}` : '';
}

export const path = (...parts: Array<string | number>) => '/api/' + parts.map((p) => encodeURIComponent(String(p))).join('/');

/** How long a call may take: a list or a save is quick; a fiscal report, a backup or an export waits for a device or a disk. */
const TIMEOUT_MS = 30_000;
export const SLOW_TIMEOUT_MS = 120_000;

export async function request<T>(method: string, url: string, body?: Json, opts: { signal?: AbortSignal; retried?: boolean; timeoutMs?: number } = {}): Promise<T> {
  // The hub's messages (a field's error, a problem's detail) in the page's language, not the browser's.
  const headers: Record<string, string> = { accept: 'application/json, application/problem+json', 'accept-language': language() };
  if (auth.token) headers.authorization = `Bearer ${auth.token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  try {
    res = await fetchWithin(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }, opts.timeoutMs ?? TIMEOUT_MS, opts.signal);
  } catch (e) {
    if ((e as Error).name === 'AbortError') throw e;
    throw new ApiError(0, { status: 0, title: t('noAnswer') });
  }
  if (res.status === 401 && !opts.retried && auth.recover && !url.startsWith('/api/auth')) {
    if (await auth.recover()) return request<T>(method, url, body, { ...opts, retried: true });
  }
  const text = await res.text();
  let parsed: unknown = undefined;
  if (text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
  }
  if (!res.ok) {
    const problem: Problem =
      parsed && typeof parsed === 'object' ? { ...(parsed as Problem), status: res.status } : { status: res.status, title: res.statusText, detail: typeof parsed === 'string' ? parsed.slice(0, 300) : undefined };
    throw new ApiError(res.status, problem);
  }
  return parsed as T;
}

/**
 * A file from the hub (a CSV report, a backup), fetched with the session's token and handed to
 * the browser as a download: a plain link could not carry the token.
 */
export async function download(url: string, accept: string, fallbackName: string, retried = false): Promise<string> {
  // The file speaks the page's language (a CSV's words, separator and decimal comma), not the browser's.
  const headers: Record<string, string> = { accept: `${accept}, application/problem+json`, 'accept-language': language() };
  if (auth.token) headers.authorization = `Bearer ${auth.token}`;
  let res: Response;
  try {
    // The answer must start in time (an export is made before it starts); the file then takes as long as it takes.
    res = await fetchWithin(url, { headers }, SLOW_TIMEOUT_MS, undefined, { bodyToo: false });
  } catch {
    throw new ApiError(0, { status: 0, title: t('noAnswer') });
  }
  if (res.status === 401 && !retried && auth.recover && (await auth.recover())) return download(url, accept, fallbackName, true);
  if (!res.ok) {
    let problem: Problem = { status: res.status, title: res.statusText };
    try {
      problem = { ...(JSON.parse(await res.text()) as Problem), status: res.status };
    } catch {
      /* not problem+json: the status says enough */
    }
    throw new ApiError(res.status, problem);
  }
  const name = /filename="?([^";]+)"?/i.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? fallbackName;
  const blob = await res.blob();
  const href = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
  return name;
}

export const api = {
  get: <T>(url: string, signal?: AbortSignal) => request<T>('GET', url, undefined, { signal }),
  post: <T>(url: string, body: Json = {}, timeoutMs?: number) => request<T>('POST', url, body, { timeoutMs }),
  put: <T>(url: string, body: Json) => request<T>('PUT', url, body),
  del: <T>(url: string) => request<T>('DELETE', url),
  list: <T>(resource: string, q: ListQuery = {}, signal?: AbortSignal) => request<QueryResult<T>>('GET', `/api/${resource}${queryString(q)}`, undefined, { signal }),
  /** Every match, a thousand at a time (the most a page may hold). */
  async all<T>(resource: string, q: Omit<ListQuery, 'skip' | 'take'> = {}, signal?: AbortSignal): Promise<T[]> {
    const out: T[] = [];
    for (;;) {
      const page = await api.list<T>(resource, { ...q, skip: out.length, take: 1000 }, signal);
      out.push(...page.items);
      if (page.count === 0 || out.length >= page.totalCount) return out;
    }
  },
};

/** Words for a member path: `cards[0].serialNumber` → "Cards 1 › serial number". */
export function memberLabel(member: string): string {
  return member
    .replace(/\[(\d+)\]/g, (_, i) => ` ${Number(i) + 1}`)
    .split('.')
    .map((part) => part.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase())
    .join(' › ')
    .replace(/^./, (c) => c.toUpperCase());
}

/** A sentence a shop manager can act on, for any failure. */
export function describeError(e: unknown, notFound?: string): string {
  if (!(e instanceof ApiError)) return e instanceof Error ? e.message : String(e);
  const detail = e.problem.detail ?? '';
  switch (e.status) {
    case 0:
      return e.message;
    case 401:
      return t('sessionEnded');
    case 403: {
      if (e.isMissingRight) {
        // The right in words, whatever language the hub said its detail in.
        const rights = rightsNamedIn(detail);
        return rights.length ? t('needsRight', { right: rights.map(rightWord).join(', ') }) : t('notAllowed', { detail });
      }
      return detail || t('refused');
    }
    case 404:
      return notFound ?? (detail || t('notFound'));
    case 409:
      return e.problem.errorCode === 6 ? t('conflict') : detail;
    case 503:
      // The hub says what failed and that nothing changed; the device's fault is said in words here
      // (its own message stays beside them), and only the advice is added.
      return detail ? `${detail.replace(/\(([A-Z_]+: .*)\)(?=\.|\s|$)/, (_: string, fault: string) => `(${deviceError(fault)})`)} ${t('tryLater')}` : t('nothingChanged', { detail: t('unavailable') });
    default:
      if (e.status === 400 && e.errors.length) return t('correct');
      return detail || e.problem.title || e.message;
  }
}
