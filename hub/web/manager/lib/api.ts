/**
 * The one way the page talks to the hub: every call goes through `request`, which adds the token,
 * turns problem+json into an ApiError, and recovers an expired session once (refresh) before
 * giving up. Lists use the hub's QueryResult paging; filters are written in NData (`Member=op:arg`).
 */

import type { MemberError, Problem as WireProblem } from '../../shared/types';

export type { MemberError };

/** A refusal: the problem+json body, or only the status when the answer was not one (a proxy's page). */
export type Problem = Partial<WireProblem> & Pick<WireProblem, 'status'>;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly problem: Problem,
  ) {
    super(problem.detail || problem.title || `The hub answered ${status}.`);
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

export async function request<T>(method: string, url: string, body?: Json, opts: { signal?: AbortSignal; retried?: boolean } = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json, application/problem+json' };
  if (auth.token) headers.authorization = `Bearer ${auth.token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: opts.signal });
  } catch (e) {
    if ((e as Error).name === 'AbortError') throw e;
    throw new ApiError(0, { status: 0, title: 'The hub does not answer. Check that it is running and that this device is on the shop network.' });
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

export const api = {
  get: <T>(url: string, signal?: AbortSignal) => request<T>('GET', url, undefined, { signal }),
  post: <T>(url: string, body: Json = {}) => request<T>('POST', url, body),
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
      return 'Your session has ended. Please log in again.';
    case 403: {
      if (e.isMissingRight) {
        const right = /right (.+?)\.?$/.exec(detail)?.[1];
        return right ? `You are not allowed to do this: it needs the right “${right}”. Ask the owner to grant it.` : `You are not allowed to do this. ${detail}`;
      }
      return detail || 'The hub refused this action.';
    }
    case 404:
      return notFound ?? (detail || 'Not found: it may have been deleted meanwhile.');
    case 409:
      return e.problem.errorCode === 6 ? 'Someone changed this meanwhile. Reload to see their version, then make your change again.' : detail;
    case 503:
      return `${detail || 'The device is unavailable.'} Nothing was changed; try again in a moment.`;
    default:
      if (e.status === 400 && e.errors.length) return 'Please correct the highlighted fields.';
      return detail || e.problem.title || e.message;
  }
}
