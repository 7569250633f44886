/**
 * The chain's real servers for tests, each on a free 127.0.0.1 port in a temp dir: Debian's
 * `nats-server -js`, an embedded PostgreSQL (the one HQ itself would start), HQ processes
 * (what `npm run hq` runs), and a TCP proxy between a hub and NATS that can cut,
 * black-hole, or drop only JetStream's publish acks.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import pg from 'pg';
import { connect as natsConnect, type NatsConnection } from '@nats-io/transport-node';
import { startEmbedded } from '../../hub/hq/db.js';
import { ROOT, againIfPortTaken, freePort, scriptCommand, type Exit } from './process.js';
import { untilTrue } from './wait.js';

/** nats-server on PATH, or why not. In CI a missing server fails the tests instead of skipping them. */
export function natsServerPath(): string | null {
  for (const p of ['/usr/bin/nats-server', '/usr/local/bin/nats-server']) if (existsSync(p)) return p;
  try {
    return execFileSync('sh', ['-c', 'command -v nats-server'], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
}

export function chainTestsAvailable(): boolean {
  if (natsServerPath()) return true;
  if (process.env.CI === 'true') {
    throw new Error('nats-server is not installed: the chain tests need it (Debian package nats-server; .ci/run installs it with apt-get).');
  }
  process.stderr.write('\nchain tests SKIPPED: nats-server is not installed (apt-get install nats-server)\n');
  return false;
}

async function waitForPort(port: number, ms: number, alive: () => boolean): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = connect(port, '127.0.0.1');
      s.once('connect', () => {
        s.destroy();
        resolve(true);
      });
      s.once('error', () => resolve(false));
    });
    if (ok) return;
    if (!alive() || Date.now() > until) throw new Error(`nothing listens on ${port}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface NatsServer {
  url: string;
  port: number;
  /** Its storage, removed by removeNats. */
  dir: string;
  /** The configuration it runs with, as `npm run hq -- nats-config` printed it. */
  config: string;
  /** Each NATS user's password (`hq` and every store's). */
  passwords: Record<string, string>;
  /** A store hub's chain settings: its own NATS user (POS_HUB_HQ_*), store id and `url` (another route to the server, a proxy). */
  storeEnv(storeId: string, url?: string): Record<string, string>;
  /** HQ's NATS settings (POS_HQ_NATS_*). */
  hqEnv(): Record<string, string>;
  /** A client connected as `user` (HQ's by default), with the store's own inbox prefix for a store. */
  connect(user?: string): Promise<NatsConnection>;
  stop(): Promise<void>;
  /** Starts it again on the same port and storage (after stop). */
  start(): Promise<void>;
  /**
   * Stops it, removes its JetStream storage (every stream with its messages, consumers and duplicate
   * window: a disk lost) and starts it again empty on the same port, with the same users.
   */
  restartEmpty(): Promise<void>;
}

/**
 * The chain's NATS configuration as an operator makes it: `npm run hq -- nats-config <stores>`
 * (what `npm run hq` runs, with the arguments), its password files in `dir`.
 */
export function generatedNatsConfig(stores: string[], dir: string): { config: string; passwords: Record<string, string> } {
  const [cmd, args] = scriptCommand('hq', 'hq');
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('POS_')));
  const config = execFileSync(cmd, [...args, 'nats-config', ...stores], { cwd: ROOT, env: { ...base, POS_HQ_DATA_DIR: dir }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const passwords = Object.fromEntries(['hq', ...stores].map((u) => [u, readFileSync(join(dir, 'nats', `${u}.password`), 'utf8').trim()]));
  return { config, passwords };
}

/** nats-server with JetStream and the generated configuration for `stores` (each its own user); `extra`: more of its configuration (a tls block). */
export async function startNats(opts: { stores: string[]; extra?: string }): Promise<NatsServer> {
  const bin = natsServerPath();
  if (!bin) throw new Error('nats-server is not installed');
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'poshub-nats-'));
  const { config, passwords } = generatedNatsConfig(opts.stores, dir);
  writeFileSync(join(dir, 'nats.conf'), `${config}${opts.extra ?? ''}\n`, { mode: 0o600 });
  const configArgs = ['-c', join(dir, 'nats.conf')];
  let child: ChildProcess | undefined;
  let exited = true;
  const start = async () => {
    const server = spawn(bin, [...configArgs, '-js', '-p', String(port), '-sd', dir, '-a', '127.0.0.1'], { stdio: 'ignore' });
    child = server;
    exited = false;
    // A test process that dies (or a script that throws) must not leave the server behind.
    const orphan = () => server.kill('SIGKILL');
    process.once('exit', orphan);
    server.once('exit', () => {
      exited = true;
      process.removeListener('exit', orphan);
    });
    await waitForPort(port, 10_000, () => !exited);
  };
  const stop = async () => {
    if (!child || exited) return;
    const gone = new Promise((r) => child!.once('exit', r));
    child.kill('SIGTERM');
    await gone;
  };
  await start();
  const url = `nats://127.0.0.1:${port}`;
  return {
    url,
    port,
    dir,
    config,
    passwords,
    storeEnv: (storeId, via = url) => ({ POS_HUB_HQ_URL: via, POS_HUB_HQ_USER: storeId, POS_HUB_HQ_PASSWORD: passwords[storeId], POS_HUB_STORE_ID: storeId }),
    hqEnv: () => ({ POS_HQ_NATS_URL: url, POS_HQ_NATS_USER: 'hq', POS_HQ_NATS_PASSWORD: passwords.hq }),
    connect: (user = 'hq') =>
      natsConnect({ servers: `127.0.0.1:${port}`, user, pass: passwords[user], inboxPrefix: user === 'hq' ? undefined : `_INBOX_${user}`, timeout: 5000 }),
    start,
    stop,
    async restartEmpty() {
      await stop();
      const storage = join(dir, 'jetstream');
      if (!existsSync(storage)) throw new Error(`no JetStream storage at ${storage}`);
      rmSync(storage, { recursive: true, force: true });
      await start();
    },
  };
}

/** Stops the server and removes its storage. */
export async function removeNats(n: NatsServer): Promise<void> {
  await n.stop();
  rmSync(n.dir, { recursive: true, force: true });
}

export interface Postgres {
  url: string;
  pool: pg.Pool;
  stop(): Promise<void>;
}

export async function startPostgres(): Promise<Postgres> {
  const dir = mkdtempSync(join(tmpdir(), 'poshub-pg-'));
  const server = await startEmbedded(dir, pino({ level: 'silent' }));
  const pool = new pg.Pool({ connectionString: server.url, max: 2 });
  pool.on('error', () => {}); // an idle client losing the server as it stops is no test failure
  return {
    url: server.url,
    pool,
    async stop() {
      await pool.end();
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface HqProcess {
  url: string;
  child: ChildProcess;
  exit: Promise<Exit>;
  output(): string;
  call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  stop(signal?: NodeJS.Signals): Promise<Exit>;
}

export const HQ_ADMIN_PASSWORD = 'hq-admin-password';

/** An HQ process with its own admin token for `call`. */
export async function startHq(env: Record<string, string>): Promise<HqProcess> {
  return againIfPortTaken(() => startHqOnce(env));
}

async function startHqOnce(env: Record<string, string>): Promise<HqProcess> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'poshub-hq-'));
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('POS_')));
  const [cmd, args] = scriptCommand('hq', 'hq'); // what `npm run hq` runs, without npm
  const child = spawn(cmd, args, {
    cwd: ROOT,
    env: { ...base, POS_HQ_PORT: String(port), POS_HQ_HOST: '127.0.0.1', POS_HQ_DATA_DIR: dataDir, POS_HQ_ADMIN_PASSWORD: HQ_ADMIN_PASSWORD, POS_HQ_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const orphan = () => child.kill('SIGKILL');
  process.once('exit', orphan);
  child.once('exit', () => process.removeListener('exit', orphan));
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  const exit = new Promise<Exit>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  let exited = false;
  void exit.then(() => {
    exited = true;
    rmSync(dataDir, { recursive: true, force: true });
  });
  const url = `http://127.0.0.1:${port}`;
  const until = Date.now() + 60_000;
  for (;;) {
    if (exited || Date.now() > until) {
      child.kill('SIGKILL');
      throw new Error(`HQ did not start:\n${out}`);
    }
    try {
      if ((await fetch(`${url}/hq/api/health`, { signal: AbortSignal.timeout(2000) })).ok) break;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  let token: string | undefined;
  const call: HqProcess['call'] = async (method, path, body) => {
    if (!token && path !== '/hq/api/auth') {
      const r = await call('POST', '/hq/api/auth', { userName: 'admin', password: HQ_ADMIN_PASSWORD });
      token = r.body.tokenId;
    }
    const res = await fetch(url + path, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  return {
    url,
    child,
    exit,
    output: () => out,
    call,
    async stop(signal = 'SIGTERM') {
      if (!exited) child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      const result = await exit;
      clearTimeout(timer);
      return result;
    },
  };
}

/**
 * An HQ start that is meant to fail: its exit and what it printed, within `ms`. Still running then,
 * it is killed and this throws.
 */
export async function failedHqStart(env: Record<string, string>, ms = 40_000): Promise<Exit & { stdout: string; stderr: string }> {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('POS_')));
  const [cmd, args] = scriptCommand('hq', 'hq');
  const child = spawn(cmd, args, { cwd: ROOT, env: { ...base, POS_HQ_HOST: '127.0.0.1', POS_HQ_ADMIN_PASSWORD: HQ_ADMIN_PASSWORD, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const exit = new Promise<Exit>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const timer = setTimeout(() => child.kill('SIGKILL'), ms);
  const result = await exit;
  clearTimeout(timer);
  if (result.signal === 'SIGKILL') throw new Error(`HQ did not exit within ${ms} ms:\n${stdout}${stderr}`);
  return { ...result, stdout, stderr };
}

export type ProxyMode = 'pass' | 'cut' | 'blackhole' | 'dropAcks' | 'dropDeliveries' | 'delay';

/** How late `delay` hands the server's messages on. */
export const PROXY_DELAY_MS = 100;

export interface Proxy {
  port: number;
  url: string;
  /** Publish acks (dropAcks) or deliveries (dropDeliveries) dropped so far. */
  dropped: number;
  set(mode: ProxyMode): void;
  close(): Promise<void>;
}

/**
 * A TCP proxy to `targetPort`. `cut` closes every connection and refuses new ones; `blackhole`
 * keeps them open and lets nothing through either way; `dropAcks` passes everything except the
 * server's JetStream publish acks for `stream` (the message landed, the sender never hears so);
 * `dropDeliveries` passes everything except the messages a consumer of `stream` delivers (those whose
 * reply subject is `$JS.ACK.<stream>.…`: the server counts them delivered, the client never sees them);
 * `delay` hands everything from the server on PROXY_DELAY_MS late, in order (a slow link: a sender
 * with a window of acks outstanding publishes at window / delay).
 */
export async function startProxy(targetPort: number, stream: string): Promise<Proxy> {
  let mode: ProxyMode = 'pass';
  const pairs = new Set<{ client: Socket; server: Socket }>();
  const ackMarker = Buffer.from(`"stream":"${stream}"`);
  const deliveryMarker = ` $JS.ACK.${stream}.`;
  const closePair = (p: { client: Socket; server: Socket }) => {
    p.client.destroy();
    p.server.destroy();
  };
  const proxy: Proxy = {
    port: 0,
    url: '',
    dropped: 0,
    set(next) {
      mode = next;
      if (next === 'cut') for (const p of pairs) closePair(p);
    },
    async close() {
      for (const p of pairs) closePair(p);
      await new Promise((r) => server.close(r));
    },
  };
  /** Server → client: NATS protocol lines, with MSG/HMSG payloads that may be dropped whole. */
  const fromServer = (client: Socket) => {
    let buf = Buffer.alloc(0);
    // When the last delayed write goes out: later writes wait for it, so nothing overtakes.
    let lastDue = 0;
    const send = (bytes: Buffer) => {
      const due = Math.max(mode === 'delay' ? Date.now() + PROXY_DELAY_MS : 0, lastDue);
      if (due <= Date.now()) {
        client.write(bytes);
        return;
      }
      lastDue = due;
      setTimeout(() => client.write(bytes), due - Date.now());
    };
    return (chunk: Buffer) => {
      if (mode === 'blackhole') return;
      buf = Buffer.concat([buf, chunk]);
      for (;;) {
        const eol = buf.indexOf('\r\n');
        if (eol < 0) return;
        const line = buf.subarray(0, eol).toString('latin1');
        let size = eol + 2;
        if (/^H?MSG /i.test(line)) {
          const total = Number(line.trim().split(/\s+/).pop());
          if (buf.length < eol + 2 + total + 2) return;
          size = eol + 2 + total + 2;
          const payload = buf.subarray(eol + 2, eol + 2 + total);
          if ((mode === 'dropAcks' && payload.includes(ackMarker) && !payload.includes('"error"')) || (mode === 'dropDeliveries' && line.includes(deliveryMarker))) {
            proxy.dropped++;
            buf = buf.subarray(size);
            continue;
          }
        }
        send(buf.subarray(0, size));
        buf = buf.subarray(size);
      }
    };
  };
  const server: Server = createServer((client) => {
    if (mode === 'cut') {
      client.destroy();
      return;
    }
    const upstream = connect(targetPort, '127.0.0.1');
    const pair = { client, server: upstream };
    pairs.add(pair);
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('data', (c: Buffer) => {
      if (mode !== 'blackhole') upstream.write(c);
    });
    upstream.on('data', fromServer(client));
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  proxy.port = (server.address() as { port: number }).port;
  proxy.url = `nats://127.0.0.1:${proxy.port}`;
  return proxy;
}

/** Polls `check` until it returns true (or throws its last failure after `ms`). */
export const eventually = (check: () => Promise<boolean>, ms: number, what: string): Promise<void> => untilTrue(check, { ms, what, every: 100 });
