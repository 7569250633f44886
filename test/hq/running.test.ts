/**
 * HQ as a process (CONTRACT §13 "npm run hq", §12 "Start-up"): a taken port or a data directory that
 * cannot be one stops the start naming the variable, never after saying "listening"; several HQ
 * processes run on the default embedded PostgreSQL of one data directory, each stopping with exit 0
 * on SIGTERM, the last one taking the database down with it.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainTestsAvailable, failedHqStart, removeNats, startHq, startNats, type HqProcess, type NatsServer } from '../support/chain.js';

const available = chainTestsAvailable();
let nats: NatsServer;
const dirs: string[] = [];
const hqs: HqProcess[] = [];

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'poshub-hq-run-'));
  dirs.push(d);
  return d;
}

/** Bytes sent as they are to the server at `url`, and everything it answers before it closes. */
function rawHttp(url: string, bytes: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let out = '';
    socket.on('data', (c) => (out += c.toString('utf8')));
    socket.on('end', () => resolve(out));
    socket.on('error', reject);
    socket.write(bytes);
  });
}

beforeAll(async () => {
  if (available) nats = await startNats({ stores: ['s1'] });
}, 60_000);

afterAll(async () => {
  for (const hq of hqs) await hq.stop('SIGKILL');
  if (nats) await removeNats(nats);
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
}, 60_000);

describe.skipIf(!available)('npm run hq', () => {
  it('a taken port or a data directory that cannot be one exits 1 naming its variable, never "listening"', async () => {
    const squatter: Server = createServer();
    const port = await new Promise<number>((resolve) => squatter.listen(0, '127.0.0.1', () => resolve((squatter.address() as { port: number }).port)));
    try {
      const taken = await failedHqStart({ ...nats.hqEnv(), POS_HQ_DATA_DIR: tempDir(), POS_HQ_PORT: String(port) });
      expect(taken.code, taken.stderr).toBe(1);
      expect(taken.stderr).toContain(`port ${port} on 127.0.0.1 is already in use (POS_HQ_PORT)`);
      expect(taken.stdout).not.toMatch(/listening/);
    } finally {
      squatter.close();
    }
    const file = join(tempDir(), 'not-a-directory');
    writeFileSync(file, 'a file');
    const notDir = await failedHqStart({ ...nats.hqEnv(), POS_HQ_DATA_DIR: file, POS_HQ_PORT: '0' });
    expect(notDir.code).toBe(1);
    expect(notDir.stderr).toContain(`POS_HQ_DATA_DIR='${file}'`);
  }, 120_000);

  it('two HQ processes share the embedded PostgreSQL of one data directory; each stops with 0, the last stops the database', async () => {
    const dataDir = tempDir();
    const env = { ...nats.hqEnv(), POS_HQ_DATA_DIR: dataDir };
    const first = await startHq(env);
    hqs.push(first);
    const second = await startHq(env);
    hqs.push(second);
    // The second start left the first one's database alone.
    for (const hq of [first, second]) expect((await hq.call('GET', '/hq/api/health')).body.db).toBe('ok');
    // What Node's HTTP parser refuses is answered as problem+json here too (CONTRACT §13: errors as in §2).
    const refused = await rawHttp(first.url, `GET /hq/api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(refused).toMatch(/^HTTP\/1\.1 431 /);
    expect(refused).toMatch(/content-type: application\/problem\+json/i);
    expect(JSON.parse(refused.slice(refused.indexOf('\r\n\r\n') + 4))).toMatchObject({ status: 431, errorCode: 3 });

    expect(await first.stop('SIGTERM'), first.output()).toEqual({ code: 0, signal: null });
    const stores = await second.call('GET', '/hq/api/stores');
    expect(stores.status).toBe(200);
    expect((await second.call('GET', '/hq/api/health')).body.db).toBe('ok');

    expect(existsSync(join(dataDir, 'pg', 'postmaster.pid'))).toBe(true);
    expect(await second.stop('SIGTERM'), second.output()).toEqual({ code: 0, signal: null });
    expect(existsSync(join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);
  }, 180_000);
});
