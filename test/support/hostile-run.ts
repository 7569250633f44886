/**
 * Sends the generated hostile requests (hostile-input.ts) to an in-process hub (createApp through
 * startHub, on 127.0.0.1) — a shop with a register, plus, tickets open and closed, a customer —
 * with the admin logged in on a sale device, so every right and the Sale environment let each
 * request go as deep as its input allows. Checks every answer:
 *
 * - no 5xx (a 503 DeviceUnavailable of a fiscal device the input pointed at 127.0.0.1:9 is the
 *   contract's answer, not a fault: counted apart);
 * - every 4xx is application/problem+json with its status, errorCode and the request's traceId, and
 *   a 400 names the member at fault (`errors[].memberName`);
 * - the hub answers its health and every list afterwards (no stored value breaks a later read).
 *
 * Used by test/http/generated-hostile.test.ts (in `npm test`) and `npm run hostile` (a large run).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADMIN_PASSWORD, startHub, type TestHub } from './hub.js';
import { checkAnswer } from './answers.js';
import { collectionOf, HostileGenerator, operationsOf, type HostileRequest, type Known, type Operation } from './hostile-input.js';
import { expect2xx, item, register, restaurant } from '../tickets/fixture.js';

export interface Failure {
  request: HostileRequest;
  status: number;
  problem: string;
  body: string;
}

export interface HostileReport {
  seed: number;
  operations: number;
  requests: number;
  byStatus: Record<string, number>;
  /** 503 DeviceUnavailable answers (a fiscal device the input pointed at a closed port). */
  deviceUnavailable: number;
  failures: Failure[];
  /** Answers the OpenAPI document does not describe (a status it does not list, a body off its schema). */
  undocumented: Failure[];
  /** Reads that failed after the run (health, lists, items). */
  afterwards: string[];
  ms: number;
  /** Time spent answering, by operation (ms), for finding what makes a run slow. */
  msByOperation: Record<string, number>;
  /** Operations that never answered 2xx: the run reached no further than their checks. */
  neverAccepted: string[];
  /** The slowest requests (ms, what). */
  slowest: Array<{ ms: number; request: HostileRequest; status: number }>;
}

const SALE_DEVICE = 'FuzzRegister';
const SPARE_USER = 'fuzz-spare';

/** Builds the shop, returns what the generator should know of it. */
async function shop(hub: TestHub): Promise<{ known: Known; protectedKeys: string[] }> {
  await restaurant(hub);
  await expect2xx(hub.call('POST', '/api/devices', { name: SALE_DEVICE, envName: 'CashRegister', settings: { DefaultFiscalName: 'FP1', DefaultOrderEndpointName: 'Bar' } }));
  await expect2xx(hub.call('POST', '/api/orderendpoints', { name: 'Pass', type: 'Tablet' }));
  await expect2xx(hub.call('POST', '/api/devices', { name: 'FuzzPDA', envName: 'PDA' }));
  await expect2xx(hub.call('POST', '/api/plus', { code: 6, stockName: 'Menu', name: 'Syr', type: 'StockItem', unitPrice: { amount: 2 }, vatInfo: { category: 1, rate: 20 } }));
  await expect2xx(hub.call('POST', '/api/customers', { id: 'cust-1', firstName: 'Ján', lastName: 'Novák', cards: [{ serialNumber: 'CARD-1' }] }));
  await expect2xx(hub.call('POST', '/api/categories', { name: 'Jedlá' }));
  await expect2xx(hub.call('POST', '/api/modifiers', { id: 'sauce', name: 'Sauce', options: [{ id: 'ketchup', name: 'Ketchup', unitPrice: { amount: 0.3 } }] }));
  await expect2xx(hub.call('POST', '/api/users', { userName: SPARE_USER, password: 'pw', rights: [] }));
  const cashier = await register(hub);
  for (let i = 0; i < 3; i++) await expect2xx(hub.call('POST', '/api/tickets', { id: `open-${i}`, name: `Table ${i}`, items: [item(1, 1), item(3, 2)] }, { token: cashier.token }));
  const closed = await expect2xx(hub.call('POST', '/api/tickets', { id: 'closed-0', items: [item(3, 1)] }, { token: cashier.token }));
  await expect2xx(hub.call('POST', `/api/tickets/${closed.id}/close`, { payments: [{ paymentTypeNumber: 1, amount: 5 }] }, { token: cashier.token }));
  await expect2xx(hub.call('POST', '/api/stocktakings', { id: 'take-1', items: [] }));
  await expect2xx(hub.call('POST', '/api/backups'));
  const users = (await hub.call('GET', '/api/users')).body.items as Array<{ id: string; userName: string }>;
  return {
    protectedKeys: users.filter((u) => u.userName === 'admin' || u.userName === SPARE_USER).map((u) => u.id),
    known: {
      keys: {},
      docs: {},
      values: {
        stockName: ['Menu'],
        code: [1, 2, 3, 4, 5, 6],
        plu: [{ code: 1, stockName: 'Menu' }, { code: 3, stockName: 'Menu' }, { code: 6, stockName: 'Menu' }],
        dailySalesReportNumber: [1, 2],
        sourceStockName: ['Menu'],
        targetStockName: ['Menu'],
        paymentTypeNumber: [1, 2],
        fiscalName: ['FP1'],
        orderEndpointName: ['Kitchen', 'Bar', 'Pass'],
        orderEndpointNames: [['Kitchen'], []],
        categoryNames: [['Jedlá'], []],
        category: ['Jedlá', null],
        userName: [cashier.userName, SPARE_USER, 'admin'],
        // Never the run's own register: a login there would end the admin's session on it.
        deviceName: ['BackOffice', 'FuzzPDA'],
        password: ['pw'],
        modifierId: ['sauce'],
        optionId: ['ketchup'],
        customer: [{ id: 'cust-1' }, { cardSerialNumber: 'CARD-1' }],
        ids: [['open-0'], ['open-1', 'open-2']],
        ticketId: ['open-0', 'closed-0'],
        envName: ['CashRegister', 'Tool'],
        driver: ['simulator', 'datecs', 'ekasa', 'escpos'],
        from: ['2026-11-01', '2026-11-21'],
        to: ['2026-11-30', '2026-11-21'],
      },
    },
  };
}

/**
 * Existing keys of every path parameter, read from the collections (the run's own users and the
 * sale device left out: the run keeps its sessions), and the documents stored under them.
 */
async function existingKeys(hub: TestHub, ops: Operation[], protectedKeys: string[]): Promise<Pick<Known, 'keys' | 'docs'>> {
  const keys: Known['keys'] = {};
  const docs: Known['docs'] = {};
  const lists = new Map<string, unknown[]>();
  for (const op of ops) {
    for (const p of op.parameters.filter((x) => x.in === 'path')) {
      const collection = collectionOf(op.template, p.name);
      if (!lists.has(collection)) {
        const r = await hub.call('GET', `${collection}?$take=20`);
        lists.set(collection, r.status === 200 && Array.isArray(r.body?.items) ? r.body.items : []);
      }
      const values = lists
        .get(collection)!
        .map((x) => (x as Record<string, unknown>)[p.name])
        .filter((v) => v !== undefined && v !== null && !protectedKeys.includes(String(v)) && v !== SALE_DEVICE && v !== 'BackOffice')
        .map(String);
      (keys[collection] ??= {})[p.name] = values;
      for (const doc of lists.get(collection)!) {
        const key = (doc as Record<string, unknown>)[p.name];
        if (values.includes(String(key))) (docs[collection] ??= {})[String(key)] = doc as Known['docs'][string][string];
      }
    }
  }
  return { keys, docs };
}

interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

/**
 * One request over a kept-alive connection (node:http: a third of fetch's cost per request, and the
 * client shares the hub's thread here). An event stream that opened is answered by its head.
 */
function request(agent: Agent, url: string, method: string, headers: Record<string, string>, body: string | undefined): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers: body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) }, agent }, (res) => {
      const answer = new Headers();
      for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) answer.set(k, Array.isArray(v) ? v.join(', ') : v);
      if ((answer.get('content-type') ?? '').startsWith('text/event-stream')) {
        res.destroy();
        resolve({ status: res.statusCode ?? 0, headers: answer, text: '' });
        return;
      }
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: answer, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** An answer's fault, or null when it is one the contract allows. */
function faultOf(status: number, headers: Headers, text: string): string | null {
  if (status >= 500) {
    if (status === 503) {
      try {
        const b = JSON.parse(text);
        if (b.errorCode === 9 && headers.get('retry-after')) return null;
      } catch {
        /* judged below */
      }
    }
    return `${status}`;
  }
  if (status < 400) return null;
  const type = headers.get('content-type') ?? '';
  if (!type.startsWith('application/problem+json')) return `${status} as ${type || 'no content type'}, not problem+json`;
  let b: Record<string, unknown>;
  try {
    b = JSON.parse(text);
  } catch {
    return `${status}: the problem is not JSON`;
  }
  if (b.status !== status) return `problem.status ${String(b.status)} on a ${status}`;
  if (typeof b.errorCode !== 'number') return 'a problem without errorCode';
  if (b.traceId !== headers.get('x-request-id')) return 'traceId is not the X-Request-Id';
  if (status === 400) {
    const members = b.errors as Array<{ memberName?: unknown }> | undefined;
    if (!Array.isArray(members) || !members.length) return 'a 400 that names no member';
    if (members.some((m) => typeof m.memberName !== 'string' || !m.memberName)) return 'a 400 member without memberName';
  }
  return null;
}

export interface RunOptions {
  seed: number;
  /** Requests in all (spread evenly over the operations). */
  total: number;
  /** Requests in flight at once. */
  concurrency?: number;
  /** Called every 1,000 requests (the script prints progress). */
  progress?: (done: number) => void;
}

export async function runHostile(opts: RunOptions): Promise<HostileReport> {
  const started = Date.now();
  // The run is about answers, not the disk: in memory where the machine has it (tmpfs syncs cost nothing),
  // and few backups kept, so the handful the run makes already prune.
  const dataDir = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'poshub-hostile-'));
  const hub = await startHub({ locale: 'sk', dataDir, backupKeep: 3 });
  const agent = new Agent({ keepAlive: true, maxSockets: opts.concurrency ?? 12 });
  try {
    const { known, protectedKeys } = await shop(hub);
    const doc = (await hub.call('GET', '/api/openapi.json', undefined, { token: null })).body;
    // The document and docs pages are read-only and large; everything else is fair game.
    const ops = operationsOf(doc);
    Object.assign(known, await existingKeys(hub, ops, protectedKeys));
    let token = await hub.login('admin', ADMIN_PASSWORD, SALE_DEVICE);
    const relogin = async () => {
      // Hostile logins may have spent this address's failures: the window passes on the shop's clock.
      hub.clock.advance(16 * 60_000);
      token = await hub.login('admin', ADMIN_PASSWORD, SALE_DEVICE);
    };

    const generator = new HostileGenerator(doc, opts.seed, known);
    const report: HostileReport = { seed: opts.seed, operations: ops.length, requests: 0, byStatus: {}, deviceUnavailable: 0, failures: [], undocumented: [], afterwards: [], ms: 0, msByOperation: {}, slowest: [], neverAccepted: [] };
    const accepted = new Set<string>();
    const queue = generator.requests(opts.total, ops);
    let sessionLost = false;

    const send = async (req: HostileRequest): Promise<void> => {
      const headers: Record<string, string> = { ...req.headers };
      // Logging out ends the session it is sent with: a spare one, so the run keeps its own.
      if (req.operationId === 'auth.logout') headers.authorization = `Bearer ${await hub.login(SPARE_USER, 'pw', 'BackOffice').catch(() => 'gone')}`;
      else if (!('authorization' in headers)) headers.authorization = `Bearer ${token}`;
      const t0 = performance.now();
      let res: Answer;
      try {
        res = await request(agent, hub.url + req.url, req.method, headers, req.body);
      } catch (e) {
        report.failures.push({ request: req, status: 0, problem: `no answer: ${(e as Error).message}`, body: '' });
        return;
      }
      const text = res.text;
      report.requests++;
      const ms = performance.now() - t0;
      report.msByOperation[req.operationId] = (report.msByOperation[req.operationId] ?? 0) + ms;
      if (report.slowest.length < 10 || ms > report.slowest[report.slowest.length - 1].ms) {
        report.slowest.push({ ms, request: req, status: res.status });
        report.slowest.sort((a, b) => b.ms - a.ms);
        report.slowest.length = Math.min(report.slowest.length, 10);
      }
      report.byStatus[res.status] = (report.byStatus[res.status] ?? 0) + 1;
      if (res.status === 503) report.deviceUnavailable++;
      if (res.status < 300) accepted.add(req.operationId);
      if (res.status === 401 && req.operationId !== 'auth.logout') sessionLost = true;
      const fault = faultOf(res.status, res.headers, text);
      if (fault) report.failures.push({ request: req, status: res.status, problem: fault, body: text.slice(0, 600) });
      else {
        let parsed: unknown = text;
        try {
          parsed = text ? JSON.parse(text) : undefined;
        } catch {
          /* not JSON */
        }
        try {
          checkAnswer(req.method, req.url, res.status, res.headers.get('content-type'), parsed);
        } catch (e) {
          report.undocumented.push({ request: req, status: res.status, problem: (e as Error).message.slice(0, 400), body: text.slice(0, 300) });
        }
      }
    };

    const concurrency = opts.concurrency ?? 12;
    let done = 0;
    for (;;) {
      const batch: HostileRequest[] = [];
      for (let i = 0; i < concurrency * 4; i++) {
        const next = queue.next();
        if (next.done) break;
        batch.push(next.value);
      }
      if (!batch.length) break;
      for (let i = 0; i < batch.length; i += concurrency) await Promise.all(batch.slice(i, i + concurrency).map(send));
      done += batch.length;
      if (opts.progress && Math.floor(done / 1000) !== Math.floor((done - batch.length) / 1000)) opts.progress(done);
      if (sessionLost && (await hub.call('GET', '/api/auth', undefined, { token })).status === 401) await relogin();
      sessionLost = false;
    }

    // Afterwards: whatever was stored, the hub still answers its health, its lists and their items.
    const health = await hub.call('GET', '/api/health', undefined, { token: null });
    if (health.status !== 200 || health.body.status !== 'ok') report.afterwards.push(`health: ${health.status} ${JSON.stringify(health.body)}`);
    if ((await hub.call('GET', '/api/auth', undefined, { token })).status !== 200) await relogin();
    // Lists a session reads as they are: not those that need a parameter (a register's X-Register-Key, stock value's dates).
    const sessionLists = ops.filter((o) => o.method === 'GET' && !o.template.includes('{') && !/events|docs|openapi|metrics|reports/.test(o.template) && !o.parameters.some((p) => p.in !== 'path' && p.required === true));
    for (const op of sessionLists) {
      const list = await hub.call('GET', `${op.template}?$take=1000`, undefined, { token });
      if (list.status !== 200) report.afterwards.push(`${op.template}: ${list.status} ${JSON.stringify(list.body).slice(0, 300)}`);
      const template = ops.find((o) => o.method === 'GET' && o.template.startsWith(`${op.template}/{`) && o.template.split('/').length === op.template.split('/').length + 1);
      const param = template?.parameters.find((p) => p.in === 'path')?.name;
      for (const x of (list.body?.items ?? []).slice(0, 50)) {
        if (!template || !param || x[param] === undefined) continue;
        const one = await hub.call('GET', `${op.template}/${encodeURIComponent(String(x[param]))}`, undefined, { token });
        if (one.status !== 200) report.afterwards.push(`${op.template}/${String(x[param])}: ${one.status}`);
      }
    }
    report.neverAccepted = ops.map((o) => o.operationId).filter((id) => !accepted.has(id));
    report.ms = Date.now() - started;
    return report;
  } finally {
    agent.destroy();
    await hub.fiscal.closeAll();
    await hub.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The report as lines a person reads: figures, then each distinct failure once with one request that shows it. */
export function describeReport(report: HostileReport, max = 30): string {
  const lines = [
    `seed ${report.seed}: ${report.requests} requests over ${report.operations} operations in ${(report.ms / 1000).toFixed(1)} s`,
    `statuses: ${Object.entries(report.byStatus)
      .sort(([a], [b]) => Number(a) - Number(b))
      .map(([s, n]) => `${s}×${n}`)
      .join(' ')}`,
    `never answered 2xx: ${report.neverAccepted.join(', ') || 'none'}`,
    `503 DeviceUnavailable: ${report.deviceUnavailable}; failures: ${report.failures.length}; answers off the document: ${report.undocumented.length}; reads failing afterwards: ${report.afterwards.length}`,
  ];
  const distinct = (list: Failure[]) => {
    const seen = new Map<string, Failure & { n: number }>();
    for (const f of list) {
      const key = `${f.request.operationId} ${f.status} ${f.problem.replace(/\d+/g, 'N').slice(0, 120)}`;
      const s = seen.get(key);
      if (s) s.n++;
      else seen.set(key, { ...f, n: 1 });
    }
    return [...seen.values()];
  };
  for (const [title, list] of [['failures', report.failures], ['off the document', report.undocumented]] as const) {
    const d = distinct(list);
    if (!d.length) continue;
    lines.push(`${title} (${d.length} distinct):`);
    for (const f of d.slice(0, max)) {
      lines.push(`  ×${f.n} ${f.request.operationId} → ${f.status}: ${f.problem}`);
      lines.push(`     ${f.request.method} ${f.request.url.slice(0, 200)}  [${f.request.what.slice(0, 200)}]`);
      if (f.request.body !== undefined) lines.push(`     body ${JSON.stringify(f.request.body.slice(0, 200))}`);
      if (f.body) lines.push(`     answer ${f.body.slice(0, 200)}`);
    }
  }
  for (const a of report.afterwards.slice(0, max)) lines.push(`  afterwards: ${a}`);
  const slow = Object.entries(report.msByOperation).sort(([, a], [, b]) => b - a).slice(0, 8);
  lines.push(`slowest operations (ms in all): ${slow.map(([op, ms]) => `${op} ${Math.round(ms)}`).join(', ')}`);
  for (const s of report.slowest) lines.push(`  ${Math.round(s.ms)} ms ${s.status} ${s.request.method} ${s.request.url.slice(0, 80)} [${s.request.what.slice(0, 120)}]`);
  return lines.join('\n');
}
