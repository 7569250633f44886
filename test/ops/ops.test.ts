import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub, type TestHub } from '../support/hub.js';

let hub: TestHub;
const METRICS_TOKEN = 'monitoring-7f3a9c2e51d04b68';
beforeAll(async () => {
  hub = await startHub({ rateLimit: 20, metricsToken: METRICS_TOKEN });
});
afterAll(() => hub.close());

describe('rate limiting per address', () => {
  it('lets a burst through, then answers 429 with Retry-After until tokens refill', async () => {
    // Burst is 5 × 20 = 100; the login in startHub spent one.
    const replies = [];
    for (let i = 0; i < 105; i++) replies.push((await hub.call('GET', '/api/health', undefined, { token: null })).status);
    expect(replies.filter((s) => s === 200).length).toBeGreaterThanOrEqual(98);
    const limited = await hub.call('GET', '/api/stocks');
    expect(limited.status).toBe(429);
    expect(limited.body.errorCode).toBe(10);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    hub.clock.advance(1000);
    expect((await hub.call('GET', '/api/stocks')).status).toBe(200);
  });
});

describe('backups', () => {
  it('needs the right Backup', async () => {
    hub.clock.advance(10_000);
    const other = await hub.userWith([]);
    expect((await hub.call('POST', '/api/backups', undefined, { token: other })).status).toBe(403);
    expect((await hub.call('GET', '/api/backups', undefined, { token: other })).status).toBe(403);
    // Listing them is reading settings (CONTRACT §12).
    const reader = await hub.userWith(['SettingsRead']);
    expect((await hub.call('GET', '/api/backups', undefined, { token: reader })).status).toBe(200);
    expect((await hub.call('POST', '/api/backups', undefined, { token: reader })).status).toBe(403);
  });

  it('writes an online backup into <data>/backups and lists it, keeping the newest', async () => {
    hub.clock.advance(10_000);
    const r = await hub.call('POST', '/api/backups');
    expect(r.status).toBe(201);
    expect(r.body.file).toMatch(/^hub-\d{8}-\d{6}\.sqlite$/);
    expect(r.body.size).toBeGreaterThan(10_000);
    const list = await hub.call('GET', '/api/backups');
    expect(list.body.items.map((b: any) => b.file)).toContain(r.body.file);
    const { checkDbFile } = await import('../../db/client.js');
    expect(checkDbFile(join(hub.dataDir, 'backups', r.body.file))).toBeNull();
  });

  it('downloads a kept backup by its name with Backup, and nothing else', async () => {
    const made = (await hub.call('POST', '/api/backups')).body;
    const r = await fetch(`${hub.url}/api/backups/${made.file}`, { headers: { authorization: `Bearer ${hub.adminToken}` } });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^application\/vnd\.sqlite3/);
    expect(r.headers.get('content-disposition')).toBe(`attachment; filename=${made.file}`);
    const bytes = Buffer.from(await r.arrayBuffer());
    expect(bytes.equals(readFileSync(join(hub.dataDir, 'backups', made.file)))).toBe(true);
    // Only names the list holds: no other file of the data directory, however the name is spelt.
    for (const name of ['hub-20990101-000000.sqlite', '..%2Fhub.sqlite', '%2E%2E%2Fadmin-password.txt', 'hub.sqlite']) {
      const miss = await hub.call('GET', `/api/backups/${name}`);
      expect([miss.status, miss.body?.errorCode], name).toEqual([404, 7]);
    }
    // SettingsRead lists the backups but may not take one away.
    const reader = await hub.userWith(['SettingsRead']);
    expect((await hub.call('GET', `/api/backups/${made.file}`, undefined, { token: reader })).status).toBe(403);
  });

  it('checkDbFile refuses a file that is not a hub database', async () => {
    const { checkDbFile } = await import('../../db/client.js');
    const junk = join(hub.dataDir, 'junk.sqlite');
    writeFileSync(junk, 'not a database at all');
    expect(checkDbFile(junk)).not.toBeNull();
  });
});

describe('each device\'s last contact', () => {
  it('health lists every device with its last login or request, for SettingsRead only', async () => {
    await hub.call('POST', '/api/devices', { name: 'Pokladňa 7', envName: 'CashRegister' });
    await hub.call('POST', '/api/devices', { name: 'Terasa 7', envName: 'Pda' });
    await hub.call('POST', '/api/users', { userName: 'waiter7', password: 'pw-7', rights: ['TicketCreate'] });
    const loginAt = hub.clock.now().toISOString();
    const waiter = await hub.login('waiter7', 'pw-7', 'Pokladňa 7');
    const contacts = async () => (await hub.call('GET', '/api/health', undefined, { token: await hub.userWith(['SettingsRead']) })).body.devices as any[];
    expect((await contacts()).find((d) => d.name === 'Pokladňa 7')).toEqual({ name: 'Pokladňa 7', envName: 'CashRegister', isActive: true, lastContactAt: loginAt });
    expect((await contacts()).find((d) => d.name === 'Terasa 7')).toMatchObject({ lastContactAt: null });
    hub.clock.advance(90_000);
    await hub.call('GET', '/api/tickets', undefined, { token: waiter });
    expect((await contacts()).find((d) => d.name === 'Pokladňa 7').lastContactAt).toBe(hub.clock.now().toISOString());
    // Without SettingsRead the devices are not listed.
    expect((await hub.call('GET', '/api/health', undefined, { token: waiter })).body.devices).toBeUndefined();
  });
});

describe('metrics', () => {
  it('answers nobody without a token, nor a user without Metrics (CONTRACT §9)', async () => {
    hub.clock.advance(10_000);
    const anonymous = await fetch(`${hub.url}/metrics`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(await anonymous.text()).not.toMatch(/poshub_/);
    const waiter = await hub.userWith(['TicketCreate']);
    const refused = await fetch(`${hub.url}/metrics`, { headers: { authorization: `Bearer ${waiter}` } });
    expect(refused.status).toBe(403);
    expect((await refused.json()).detail).toContain('Metrics');
    expect((await fetch(`${hub.url}/metrics`, { headers: { authorization: 'Bearer monitoring-7f3a9c2e51d04b6X' } })).status).toBe(401);
    const reader = await hub.userWith(['Metrics']);
    expect((await fetch(`${hub.url}/metrics`, { headers: { authorization: `Bearer ${reader}` } })).status).toBe(200);
  });

  it('answers 401, not 500, to a bearer as long as the monitoring token holding a character beyond ASCII', async () => {
    // A header byte above 0x7f is one character but two bytes in UTF-8: the comparison once threw.
    const lookalike = `${METRICS_TOKEN.slice(0, -1)}\u00e9`;
    const res = await fetch(`${hub.url}/metrics`, { headers: { authorization: `Bearer ${lookalike}` } });
    expect([res.status, res.headers.get('www-authenticate')]).toEqual([401, 'Bearer']);
    expect((await res.json()).errorCode).toBe(1);
  });

  it('serves Prometheus text to the monitoring token', async () => {
    hub.clock.advance(10_000);
    const res = await fetch(`${hub.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/plain/);
    const text = await res.text();
    expect(text).toMatch(/poshub_http_requests_total\{method="GET",status="2xx"\} \d+/);
    expect(text).toMatch(/poshub_http_request_duration_seconds_count \d+/);
    expect(text).toMatch(/poshub_change_log_seq \d+/);
    expect(text).toMatch(/process_resident_memory_bytes \d+/);
    for (const m of ['nodejs_heap_size_used_bytes', 'nodejs_heap_size_total_bytes', 'nodejs_external_memory_bytes']) expect(text).toMatch(new RegExp(`^${m} \\d+$`, 'm'));
  });
});
