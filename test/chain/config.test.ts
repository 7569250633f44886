/** The chain's settings (CONTRACT §13), for the hub and for HQ: defaults, and every problem named at once. */
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../hub/core/config.js';
import { loadHqConfig } from '../../hub/hq/config.js';
import { startHq } from '../support/chain.js';
import { freePort } from '../support/process.js';

function problems(load: () => unknown): string[] {
  try {
    load();
  } catch (e) {
    if (e instanceof ConfigError) return e.problems;
    throw e;
  }
  return [];
}

describe('the hub in a chain', () => {
  it('is alone without POS_HUB_HQ_URL', () => {
    expect(loadConfig({}).chain).toBeUndefined();
  });

  it('reads the HQ settings, the store id defaulting to the hub id later and the name to the shop name', () => {
    expect(loadConfig({ POS_HUB_HQ_URL: 'tls://hq.example:4222', POS_HUB_SHOP_NAME: 'Bistro', POS_HUB_HQ_USER: 'store7', POS_HUB_HQ_PASSWORD: 'pw' }).chain).toEqual({
      url: 'tls://hq.example:4222',
      user: 'store7',
      password: 'pw',
      credsFile: undefined,
      caFile: undefined,
      storeId: undefined,
      storeName: 'Bistro',
      heartbeatMs: 30_000,
      timeoutMs: 5000,
    });
    expect(loadConfig({ POS_HUB_HQ_URL: 'tls://hq.example:4222', POS_HUB_HQ_TIMEOUT: '20s' }).chain?.timeoutMs).toBe(20_000);
  });

  it('names every bad chain setting at once', () => {
    const found = problems(() =>
      loadConfig({ POS_HUB_HQ_URL: 'http://hq:80', POS_HUB_HQ_USER: 'only-user', POS_HUB_STORE_ID: 'bad id!', POS_HUB_HQ_HEARTBEAT: '0', POS_HUB_HQ_CREDS: '/nonexistent.creds', POS_HUB_HQ_TIMEOUT: '500ms' }),
    );
    for (const name of ['POS_HUB_HQ_URL', 'POS_HUB_HQ_USER and POS_HUB_HQ_PASSWORD', 'POS_HUB_STORE_ID', 'POS_HUB_HQ_HEARTBEAT', "POS_HUB_HQ_CREDS='/nonexistent.creds'", "POS_HUB_HQ_TIMEOUT='500ms'"]) {
      expect(found.some((p) => p.includes(name)), name).toBe(true);
    }
    expect(problems(() => loadConfig({ POS_HUB_STORE_ID: 's1' }))).toEqual([expect.stringContaining('POS_HUB_HQ_URL is not')]);
  });
});

/** A credentials file of `mode` in a fresh temp dir. */
function credsFile(mode: number): string {
  const file = join(mkdtempSync(join(tmpdir(), 'poshub-creds-')), 'store.creds');
  writeFileSync(file, '-----BEGIN NATS USER JWT-----\nx\n------END NATS USER JWT------\n', { mode });
  chmodSync(file, mode);
  return file;
}

describe('the link to HQ\'s NATS (CONTRACT §13)', () => {
  const hub = (env: Record<string, string>) => problems(() => loadConfig({ POS_HUB_HQ_URL: 'nats://127.0.0.1:4222', ...env }));
  const hq = (env: Record<string, string>) => problems(() => loadHqConfig(env));

  it('refuses nats:// to another machine, a store and HQ alike, unless the insecure flag says so', () => {
    for (const url of ['nats://hq.example:4222', 'nats://10.0.0.5:4222', 'nats://[2001:db8::1]:4222']) {
      expect(hub({ POS_HUB_HQ_URL: url })).toEqual([expect.stringMatching(/^POS_HUB_HQ_URL=.* without TLS.*POS_HUB_HQ_INSECURE=1/)]);
      expect(hq({ POS_HQ_NATS_URL: url })).toEqual([expect.stringMatching(/^POS_HQ_NATS_URL=.* without TLS.*POS_HQ_NATS_INSECURE=1/)]);
      expect(hub({ POS_HUB_HQ_URL: url, POS_HUB_HQ_INSECURE: '1' })).toEqual([]);
      expect(hq({ POS_HQ_NATS_URL: url, POS_HQ_NATS_INSECURE: '1' })).toEqual([]);
    }
    // This machine, and TLS anywhere, need no flag.
    for (const url of ['nats://127.0.0.1:4222', 'nats://localhost:4222', 'nats://[::1]:4222', 'tls://hq.example:4222']) {
      expect(hub({ POS_HUB_HQ_URL: url }), url).toEqual([]);
      expect(hq({ POS_HQ_NATS_URL: url }), url).toEqual([]);
    }
    expect(hub({ POS_HUB_HQ_INSECURE: 'yes' })).toEqual([expect.stringContaining("POS_HUB_HQ_INSECURE='yes'")]);
  });

  it('refuses a credentials file others may read, and a CA file without tls://', () => {
    expect(hub({ POS_HUB_HQ_CREDS: credsFile(0o644) })).toEqual([expect.stringMatching(/POS_HUB_HQ_CREDS=.*mode 644.*chmod 600/)]);
    expect(hq({ POS_HQ_NATS_CREDS: credsFile(0o640) })).toEqual([expect.stringMatching(/POS_HQ_NATS_CREDS=.*mode 640.*chmod 600/)]);
    expect(hub({ POS_HUB_HQ_CREDS: credsFile(0o600) })).toEqual([]);
    expect(hq({ POS_HQ_NATS_CREDS: credsFile(0o600) })).toEqual([]);
    const ca = credsFile(0o644);
    expect(hub({ POS_HUB_HQ_TLS_CA: ca })).toEqual([expect.stringContaining('POS_HUB_HQ_TLS_CA is set but POS_HUB_HQ_URL is not tls://')]);
    expect(loadConfig({ POS_HUB_HQ_URL: 'tls://hq.example:4222', POS_HUB_HQ_TLS_CA: ca }).chain?.caFile).toBe(ca);
    expect(loadHqConfig({ POS_HQ_NATS_URL: 'tls://hq.example:4222', POS_HQ_NATS_TLS_CA: ca }).natsCa).toBe(ca);
  });
});

describe('HQ', () => {
  it('has the defaults of CONTRACT §13', () => {
    expect(loadHqConfig({})).toMatchObject({ natsUrl: 'nats://127.0.0.1:4222', databaseUrl: undefined, port: 8090, host: '0.0.0.0', offlineAfterMs: 90_000, catalogResendMs: 120_000, crashAfterCommit: false });
    expect(loadHqConfig({ POS_HQ_CATALOG_RESEND: '1s' }).catalogResendMs).toBe(1000);
    expect(loadHqConfig({}).dataDir).toMatch(/hq-data$/);
  });

  it('without a NATS server stops at once, naming NATS and where it looked, before starting a database', async () => {
    const closed = await freePort(); // nothing listens there
    // The database points nowhere either: NATS is asked first, so NATS is what the message names.
    const noDatabase = await freePort();
    const failed = await startHq({ POS_HQ_NATS_URL: `nats://127.0.0.1:${closed}`, POS_HQ_DATABASE_URL: `postgres://hq:pw@127.0.0.1:${noDatabase}/hq` }).then(
      async (hq) => {
        await hq.stop();
        return 'started';
      },
      (e: Error) => e.message,
    );
    expect(failed).toContain(`POS Hub HQ failed to start: cannot reach NATS at nats://127.0.0.1:${closed} (POS_HQ_NATS_URL)`);
    expect(failed).not.toContain(String(noDatabase));
  });

  it('names every bad setting at once, without showing a database password', () => {
    const found = problems(() => loadHqConfig({ POS_HQ_DATABASE_URL: 'mysql://u:secret@h/db', POS_HQ_PORT: '99999', POS_HQ_OFFLINE_AFTER: 'soon', POS_HQ_FAULT: 'explode', POS_HQ_CATALOG_RESEND: '500ms' }));
    expect(found).toHaveLength(5);
    expect(found.some((p) => p.startsWith("POS_HQ_CATALOG_RESEND='500ms'"))).toBe(true);
    expect(found.join('\n')).not.toContain('secret');
  });
});
