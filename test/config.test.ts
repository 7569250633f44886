/** hub/core/config.ts (CONTRACT §10): every variable, the defaults, and every problem reported at once. */
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, parseDuration } from '../hub/core/config.js';

function problemsOf(env: NodeJS.ProcessEnv): string[] {
  try {
    loadConfig(env);
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    expect((e as ConfigError).message).toContain('Invalid configuration');
    return (e as ConfigError).problems;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    expect(loadConfig({})).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      dataDir: resolve('./data'),
      adminPassword: undefined,
      tokenTtlMs: 12 * 3600_000,
      mdns: true,
      logLevel: 'info',
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      smtpUrl: undefined,
      smtpFrom: undefined,
      shopName: 'POS Hub',
      mdnsInterface: undefined,
      rateLimit: 1000,
      backupEveryMs: 24 * 3600_000,
      backupKeep: 14,
    });
  });

  it('treats an empty variable as unset', () => {
    const empty = Object.fromEntries(
      [
        ...['PORT', 'HOST', 'DATA_DIR', 'ADMIN_PASSWORD', 'TOKEN_TTL', 'MDNS', 'MDNS_INTERFACE', 'LOG_LEVEL', 'TIMEZONE'],
        ...['SMTP_URL', 'SMTP_FROM', 'SHOP_NAME', 'RATE_LIMIT', 'BACKUP_EVERY', 'BACKUP_KEEP'],
      ].map((n) => [`POS_HUB_${n}`, '']),
    );
    expect(loadConfig(empty)).toEqual(loadConfig({}));
  });

  it('reads every variable', () => {
    const config = loadConfig({
      POS_HUB_PORT: '9090',
      POS_HUB_HOST: '127.0.0.1',
      POS_HUB_DATA_DIR: 'var/hub',
      POS_HUB_ADMIN_PASSWORD: 'correct horse',
      POS_HUB_TOKEN_TTL: '90m',
      POS_HUB_MDNS: '0',
      POS_HUB_LOG_LEVEL: 'DEBUG',
      POS_HUB_TIMEZONE: 'Europe/Bratislava',
      POS_HUB_SMTP_URL: 'smtps://shop:secret@mail.example.com:465',
      POS_HUB_SMTP_FROM: 'Bistro <bistro@example.com>',
      POS_HUB_SHOP_NAME: 'Bistro Šťastie',
      POS_HUB_MDNS_INTERFACE: '192.168.1.10',
      POS_HUB_RATE_LIMIT: '0',
      POS_HUB_BACKUP_EVERY: '6h',
      POS_HUB_BACKUP_KEEP: '3',
    });
    expect(config).toMatchObject({
      port: 9090,
      host: '127.0.0.1',
      dataDir: resolve('var/hub'),
      adminPassword: 'correct horse',
      tokenTtlMs: 90 * 60_000,
      mdns: false,
      logLevel: 'debug',
      timeZone: 'Europe/Bratislava',
      smtpUrl: 'smtps://shop:secret@mail.example.com:465',
      smtpFrom: 'Bistro <bistro@example.com>',
      shopName: 'Bistro Šťastie',
      mdnsInterface: '192.168.1.10',
      rateLimit: 0,
      backupEveryMs: 6 * 3600_000,
      backupKeep: 3,
    });
    expect(loadConfig({ POS_HUB_DATA_DIR: '/srv/pos' }).dataDir).toBe('/srv/pos');
    expect(loadConfig({ POS_HUB_BACKUP_EVERY: '0' }).backupEveryMs).toBe(0);
    expect(loadConfig({ POS_HUB_BACKUP_EVERY: '24d' }).backupEveryMs).toBe(24 * 86_400_000);
  });

  it.each([
    ['0', 0],
    ['1', 1],
    ['65535', 65535],
  ])('accepts POS_HUB_PORT=%s', (text, port) => {
    expect(loadConfig({ POS_HUB_PORT: text }).port).toBe(port);
  });

  it.each([
    ['1', true],
    ['true', true],
    ['TRUE', true],
    ['0', false],
    ['false', false],
    ['False', false],
  ])('reads POS_HUB_MDNS=%s', (text, on) => {
    expect(loadConfig({ POS_HUB_MDNS: text }).mdns).toBe(on);
  });

  it.each([
    ['1m', 60_000],
    ['365d', 365 * 86_400_000],
  ])('accepts POS_HUB_TOKEN_TTL=%s', (text, ms) => {
    expect(loadConfig({ POS_HUB_TOKEN_TTL: text }).tokenTtlMs).toBe(ms);
  });

  it.each(['::', '::1', 'hub.local', '192.168.1.10', 'localhost'])('accepts POS_HUB_HOST=%s', (host) => {
    expect(loadConfig({ POS_HUB_HOST: host }).host).toBe(host);
  });

  it.each(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])('accepts POS_HUB_LOG_LEVEL=%s', (level) => {
    expect(loadConfig({ POS_HUB_LOG_LEVEL: level }).logLevel).toBe(level);
  });

  it.each([
    ['POS_HUB_PORT', 'abc'],
    ['POS_HUB_PORT', '-1'],
    ['POS_HUB_PORT', '65536'],
    ['POS_HUB_PORT', '80.5'],
    ['POS_HUB_PORT', '99999999999999999999'],
    ['POS_HUB_HOST', 'bad host'],
    ['POS_HUB_HOST', 'http://hub'],
    ['POS_HUB_TOKEN_TTL', 'forever'],
    ['POS_HUB_TOKEN_TTL', '0'],
    ['POS_HUB_TOKEN_TTL', '30s'],
    ['POS_HUB_TOKEN_TTL', '-5h'],
    ['POS_HUB_TOKEN_TTL', '999999999d'],
    ['POS_HUB_TOKEN_TTL', '366d'],
    ['POS_HUB_MDNS', 'yes'],
    ['POS_HUB_LOG_LEVEL', 'verbose'],
    ['POS_HUB_TIMEZONE', 'Mars/Olympus_Mons'],
    ['POS_HUB_SMTP_URL', 'http://mail.example.com'],
    ['POS_HUB_SMTP_URL', 'not a url'],
    ['POS_HUB_SMTP_URL', 'smtp://'],
    ['POS_HUB_SMTP_URL', 'smtp://mail.example.com:0'],
    ['POS_HUB_SMTP_URL', 'smtp://shop%zz:secret@mail.example.com:587'],
    ['POS_HUB_SMTP_FROM', 'nobody'],
    ['POS_HUB_ADMIN_PASSWORD', 'abc'],
    ['POS_HUB_MDNS_INTERFACE', 'eth0'],
    ['POS_HUB_RATE_LIMIT', 'lots'],
    ['POS_HUB_RATE_LIMIT', '-1'],
    ['POS_HUB_BACKUP_EVERY', 'daily'],
    ['POS_HUB_BACKUP_EVERY', '30s'],
    ['POS_HUB_BACKUP_EVERY', '30d'],
    ['POS_HUB_BACKUP_KEEP', '0'],
    ['POS_HUB_BACKUP_KEEP', 'all'],
    ['POS_HUB_METRICS_TOKEN', 'monitoring token'],
    ['POS_HUB_METRICS_TOKEN', 'tökén-für-prometheus'],
    ['POS_HUB_SHOP_NAME', 'Bistro\u001b@'],
    ['POS_HUB_SHOP_NAME', 'Bistro\nU Kohúta'],
    ['POS_HUB_SHOP_NAME', '   '],
    ['POS_HUB_SHOP_NAME', 'B'.repeat(201)],
  ])('refuses %s=%s, naming the variable', (name, value) => {
    const problems = problemsOf({ [name]: value });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(name);
  });

  it('takes a shop name in any script, up to 200 characters', () => {
    expect(loadConfig({ POS_HUB_SHOP_NAME: 'Reštaurácia U Zlatého Kohúta – Кафе 咖啡' }).shopName).toBe('Reštaurácia U Zlatého Kohúta – Кафе 咖啡');
    expect(loadConfig({ POS_HUB_SHOP_NAME: 'Š'.repeat(200) }).shopName).toHaveLength(200);
  });

  it('never repeats a secret in a problem', () => {
    const [smtp] = problemsOf({ POS_HUB_SMTP_URL: 'ftp://user:hunter2@mail' });
    expect(smtp).not.toContain('hunter2');
    const [admin] = problemsOf({ POS_HUB_ADMIN_PASSWORD: 'pw1' });
    expect(admin).not.toContain('pw1');
    const [metrics] = problemsOf({ POS_HUB_METRICS_TOKEN: 'scrape me' });
    expect(metrics).not.toContain('scrape me');
    expect(loadConfig({ POS_HUB_METRICS_TOKEN: 'monitoring-7f3a9c2e51d04b68' }).metricsToken).toBe('monitoring-7f3a9c2e51d04b68');
  });

  it('reports every problem at once', () => {
    const problems = problemsOf({
      POS_HUB_PORT: 'abc',
      POS_HUB_HOST: 'a b',
      POS_HUB_TOKEN_TTL: 'soon',
      POS_HUB_MDNS: 'maybe',
      POS_HUB_LOG_LEVEL: 'loud',
      POS_HUB_TIMEZONE: 'Nowhere/City',
      POS_HUB_SMTP_URL: 'http://x',
      POS_HUB_SMTP_FROM: 'x',
      POS_HUB_ADMIN_PASSWORD: 'x',
      POS_HUB_MDNS_INTERFACE: 'x',
      POS_HUB_RATE_LIMIT: 'x',
      POS_HUB_BACKUP_EVERY: 'x',
      POS_HUB_BACKUP_KEEP: 'x',
    });
    const names = [
      ...['PORT', 'HOST', 'TOKEN_TTL', 'MDNS', 'LOG_LEVEL', 'TIMEZONE', 'SMTP_URL', 'SMTP_FROM', 'ADMIN_PASSWORD'],
      ...['MDNS_INTERFACE', 'RATE_LIMIT', 'BACKUP_EVERY', 'BACKUP_KEEP'],
    ].map((n) => `POS_HUB_${n}`);
    expect(problems).toHaveLength(names.length);
    for (const name of names) expect(problems.some((p) => p.includes(name)), name).toBe(true);
    try {
      loadConfig({ POS_HUB_PORT: 'abc', POS_HUB_MDNS: 'maybe' });
    } catch (e) {
      expect((e as Error).message).toMatch(/POS_HUB_PORT[\s\S]*POS_HUB_MDNS/);
    }
  });
});

describe('parseDuration', () => {
  it.each([
    ['12h', 12 * 3600_000],
    ['90m', 90 * 60_000],
    ['3600', 3600_000],
    ['3600s', 3600_000],
    ['1d', 86_400_000],
    ['1500ms', 1500],
    [' 2H ', 2 * 3600_000],
  ])('%s', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each(['', 'h', '1.5h', '-1h', '1w', '12 hours'])('refuses %j', (text) => {
    expect(parseDuration(text)).toBeNull();
  });
});
