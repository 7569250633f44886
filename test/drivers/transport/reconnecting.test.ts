import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { backoffDelay, openChannel, ReconnectingChannel, type Timers } from '../../../drivers/transport/index.js';

/** Time that moves only when the test says; sleep() resolves once `now` has passed its deadline. */
class ManualTimers implements Timers {
  ms = 1_000_000;
  private sleepers: Array<{ at: number; resolve: () => void }> = [];
  now = () => this.ms;
  sleep = (ms: number) => new Promise<void>((resolve) => this.sleepers.push({ at: this.ms + ms, resolve }));
  advance(ms: number) {
    this.ms += ms;
    const due = this.sleepers.filter((s) => s.at <= this.ms);
    this.sleepers = this.sleepers.filter((s) => s.at > this.ms);
    for (const s of due) s.resolve();
  }
}

const servers: Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}

async function listenOn(port: number, onSocket: (s: Socket) => void = () => {}): Promise<Server> {
  const server = createServer((s) => {
    s.on('error', () => {});
    onSocket(s);
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  return server;
}

describe('backoff', () => {
  it('grows by the factor from the first failure and stops at the cap', () => {
    const b = { initialMs: 100, maxMs: 1000, factor: 2 };
    expect([0, 1, 2, 3, 4, 5, 9].map((n) => backoffDelay(b, n))).toEqual([0, 100, 200, 400, 800, 1000, 1000]);
  });
});

describe('reconnecting channel', () => {
  it('backs off after refusals without dialling, reports offline and online once each', async () => {
    const port = await freePort();
    const timers = new ManualTimers();
    let dials = 0;
    const rc = new ReconnectingChannel(`tcp://127.0.0.1:${port}`, {
      backoff: { initialMs: 100, maxMs: 400, factor: 2 },
      timers,
      channel: { connectTimeoutMs: 500 },
      open: (a, o) => {
        dials += 1;
        return openChannel(a, o);
      },
    });
    const events: string[] = [];
    rc.on('online', () => events.push('online'));
    rc.on('offline', (e) => events.push(`offline ${e.code}`));
    expect(rc.state).toBe('unknown');

    await expect(rc.get()).rejects.toMatchObject({ code: 'OFFLINE' });
    expect(dials).toBe(1);
    expect(rc.retryInMs()).toBe(100);
    // Inside the backoff: fails at once, no dial.
    await expect(rc.get()).rejects.toMatchObject({ code: 'OFFLINE' });
    expect(dials).toBe(1);

    const waits: number[] = [];
    for (let i = 0; i < 4; i++) {
      waits.push(rc.retryInMs());
      timers.advance(rc.retryInMs());
      await expect(rc.get()).rejects.toMatchObject({ code: 'OFFLINE' });
    }
    expect(waits).toEqual([100, 200, 400, 400]);
    expect(dials).toBe(5);
    expect(rc.lastError?.vendorCode).toBe('ECONNREFUSED');

    await listenOn(port);
    timers.advance(rc.retryInMs());
    const ch = await rc.get();
    expect(ch.isOpen).toBe(true);
    expect(rc.state).toBe('online');
    expect(rc.lastError).toBeNull();
    expect(rc.retryInMs()).toBe(0);
    expect(await rc.get()).toBe(ch);
    expect(events).toEqual(['offline OFFLINE', 'online']);
    await rc.close();
    expect(ch.isOpen).toBe(false);
    await expect(rc.get()).rejects.toMatchObject({ code: 'OFFLINE' });
  });

  it('waitForRetry sleeps exactly until the backoff allows the next dial', async () => {
    const port = await freePort();
    const timers = new ManualTimers();
    const rc = new ReconnectingChannel(`tcp://127.0.0.1:${port}`, { backoff: { initialMs: 250, maxMs: 1000, factor: 2 }, timers });
    await expect(rc.get()).rejects.toBeTruthy();
    let woke = false;
    const waiting = rc.waitForRetry().then(() => (woke = true));
    timers.advance(249);
    await Promise.resolve();
    expect(woke).toBe(false);
    timers.advance(1);
    await waiting;
    expect(woke).toBe(true);
    await rc.close();
  });

  it('reopens after the device dropped the connection, without counting it as a failure', async () => {
    const port = await freePort();
    const sockets: Socket[] = [];
    await listenOn(port, (s) => sockets.push(s));
    const rc = new ReconnectingChannel(`tcp://127.0.0.1:${port}`, { timers: new ManualTimers() });
    const offline: unknown[] = [];
    rc.on('offline', (e) => offline.push(e));
    const first = await rc.get();
    const closed = new Promise((r) => first.on('close', r));
    sockets[0].destroy();
    await closed;
    const second = await rc.get();
    expect(second).not.toBe(first);
    expect(second.isOpen).toBe(true);
    expect(offline).toEqual([]);
    await rc.close();
  });

  it('shares one dial between concurrent callers', async () => {
    const port = await freePort();
    await listenOn(port);
    let dials = 0;
    const rc = new ReconnectingChannel(`tcp://127.0.0.1:${port}`, {
      open: (a, o) => {
        dials += 1;
        return openChannel(a, o);
      },
    });
    const [a, b] = await Promise.all([rc.get(), rc.get()]);
    expect(a).toBe(b);
    expect(dials).toBe(1);
    await rc.close();
  });

  it('reset(error, true) drops the channel, starts the backoff and keeps a device that connects but does not work offline until it answers', async () => {
    const port = await freePort();
    await listenOn(port);
    const timers = new ManualTimers();
    const rc = new ReconnectingChannel(`tcp://127.0.0.1:${port}`, { timers, backoff: { initialMs: 100, maxMs: 100, factor: 2 } });
    const ch = await rc.get();
    const { DeviceError } = await import('../../../drivers/faults.js');
    rc.reset(new DeviceError('TIMEOUT', 'no status reply'), true);
    expect(rc.state).toBe('offline');
    expect(rc.retryInMs()).toBe(100);
    await expect(rc.get()).rejects.toMatchObject({ code: 'TIMEOUT' });
    await new Promise((r) => setTimeout(r, 20));
    expect(ch.isOpen).toBe(false);
    timers.advance(100);
    const online: number[] = [];
    rc.on('online', () => online.push(1));
    expect((await rc.get()).isOpen).toBe(true);
    // Taking a connection again proves nothing: it is online once the device answers (working()).
    expect(rc.state).toBe('offline');
    expect(online).toEqual([]);
    rc.working();
    expect(rc.state).toBe('online');
    expect(online).toEqual([1]);
    await rc.close();
  });
});
