/**
 * The chain over TLS (CONTRACT §13, README "Security"): nats-server with a `tls {}` block and a
 * certificate of a CA of the chain's own; a store hub reaches it at a `tls://` URL with that CA and
 * its heartbeat arrives; a `tls://` URL never falls back to a server that offers no TLS.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectNats } from '../../hub/hq/nats-connect.js';
import { heartbeatSubject, type Heartbeat } from '../../hub/hq/protocol.js';
import { startHubProcess, type HubProcess } from '../support/process.js';
import { chainTestsAvailable, removeNats, startNats, type NatsServer } from '../support/chain.js';

const available = chainTestsAvailable();
let dir: string;
let secure: NatsServer;
let plain: NatsServer;
let hub: HubProcess | undefined;
let caFile: string;
const open: NatsConnection[] = [];

/** A CA and a server certificate it signed for 127.0.0.1, as an operator makes them with openssl. */
function certificates(into: string): { ca: string; cert: string; key: string } {
  const f = (name: string) => join(into, name);
  const run = (...args: string[]) => execFileSync('openssl', args, { cwd: into, stdio: 'ignore' });
  run('req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', f('ca.key'), '-out', f('ca.crt'), '-days', '2', '-subj', '/CN=POS Hub test CA');
  run('req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', f('server.key'), '-out', f('server.csr'), '-subj', '/CN=127.0.0.1');
  writeFileSync(f('san.ext'), 'subjectAltName=IP:127.0.0.1\n');
  run('x509', '-req', '-in', f('server.csr'), '-CA', f('ca.crt'), '-CAkey', f('ca.key'), '-CAcreateserial', '-out', f('server.crt'), '-days', '2', '-extfile', f('san.ext'));
  return { ca: f('ca.crt'), cert: f('server.crt'), key: f('server.key') };
}

beforeAll(async () => {
  if (!available) return;
  dir = mkdtempSync(join(tmpdir(), 'poshub-tls-'));
  const { ca, cert, key } = certificates(dir);
  [secure, plain] = await Promise.all([
    startNats({ stores: ['t1'], extra: `tls { cert_file: ${JSON.stringify(cert)}, key_file: ${JSON.stringify(key)} }` }),
    startNats({ stores: ['t1'] }),
  ]);
  caFile = ca;
}, 60_000);

afterAll(async () => {
  await hub?.stop(3000, 'SIGKILL').catch(() => {});
  await Promise.all(open.map((c) => c.close().catch(() => {})));
  if (secure) await removeNats(secure);
  if (plain) await removeNats(plain);
  if (dir) rmSync(dir, { recursive: true, force: true });
}, 30_000);

describe.skipIf(!available)('the chain over TLS', () => {
  it("a store at a tls:// URL with the chain's CA: its heartbeat reaches HQ", async () => {
    const hqConn = await connectNats({ url: `tls://127.0.0.1:${secure.port}`, user: 'hq', password: secure.passwords.hq, caFile }, 'test hq');
    open.push(hqConn);
    const beat = new Promise<Heartbeat>((resolve) => {
      hqConn.subscribe(heartbeatSubject('t1'), { max: 1, callback: (err, m) => {
        if (!err) resolve(m.json<Heartbeat>());
      } });
    });
    await hqConn.flush();
    hub = await startHubProcess({ ...secure.storeEnv('t1', `tls://127.0.0.1:${secure.port}`), POS_HUB_HQ_TLS_CA: caFile, POS_HUB_HQ_HEARTBEAT: '200ms' });
    expect((await beat).storeId).toBe('t1');
  });

  it('never talks in clear to a server without TLS, nor trusts a certificate of another CA', async () => {
    await expect(connectNats({ url: `tls://127.0.0.1:${plain.port}`, user: 'hq', password: plain.passwords.hq }, 'test hq', { timeoutMs: 2000 })).rejects.toThrow(/tls/i);
    // Without the chain's CA the server's certificate is not trusted: no connection.
    await expect(connectNats({ url: `tls://127.0.0.1:${secure.port}`, user: 'hq', password: secure.passwords.hq }, 'test hq', { timeoutMs: 2000 })).rejects.toThrow();
  });
});
