import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { DeviceError } from '../../../drivers/faults.js';
import { openChannel, type Channel } from '../../../drivers/transport/index.js';
import { untilTrue } from '../../support/wait.js';

interface Peer {
  server: Server;
  port: number;
  sockets: Socket[];
  received: () => Buffer;
  connected: Promise<Socket>;
}

const servers: Server[] = [];
const channels: Channel[] = [];

async function listen(onSocket: (s: Socket) => void = () => {}): Promise<Peer> {
  const sockets: Socket[] = [];
  const chunks: Buffer[] = [];
  let first!: (s: Socket) => void;
  const connected = new Promise<Socket>((r) => (first = r));
  const server = createServer((s) => {
    sockets.push(s);
    s.on('data', (c) => chunks.push(c));
    s.on('error', () => {});
    onSocket(s);
    first(s);
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, port: (server.address() as AddressInfo).port, sockets, received: () => Buffer.concat(chunks), connected };
}

async function open(port: number, opts = {}): Promise<Channel> {
  const ch = await openChannel(`tcp://127.0.0.1:${port}`, { connectTimeoutMs: 1000, writeTimeoutMs: 1000, ...opts });
  channels.push(ch);
  return ch;
}

const until = (cond: () => boolean) => untilTrue(cond, { ms: 2000, every: 5 });

afterEach(async () => {
  await Promise.all(channels.splice(0).map((c) => c.close()));
  for (const s of servers.splice(0)) {
    s.close();
  }
});

describe('tcp channel', () => {
  it('writes bytes that arrive unchanged and reads replies by count and by framer', async () => {
    const peer = await listen((s) => s.on('data', (c) => c[0] === 0x10 && s.write(Buffer.from([0x12, 0x01, 0x02, 0x03, 0xff]))));
    const ch = await open(peer.port);
    expect(ch.isOpen).toBe(true);
    expect(ch.address).toBe(`tcp://127.0.0.1:${peer.port}`);
    await ch.write(Uint8Array.from([0x1b, 0x40, 0xc5, 0x00]));
    await until(() => peer.received().length === 4);
    expect([...peer.received()]).toEqual([0x1b, 0x40, 0xc5, 0x00]);

    await ch.write(Uint8Array.from([0x10]));
    expect([...(await ch.read(1, 1000))]).toEqual([0x12]);
    // A framer: everything up to and including 0x03.
    const frame = await ch.read((b) => b.indexOf(0x03) + 1, 1000);
    expect([...frame]).toEqual([0x01, 0x02, 0x03]);
    expect([...ch.discard()]).toEqual([0xff]);
  });

  it('keeps input that arrived before the read and serves it to the next read', async () => {
    const peer = await listen((s) => s.write(Buffer.from('hello')));
    const ch = await open(peer.port);
    await new Promise((r) => setTimeout(r, 30));
    expect((await ch.read(5, 100)).toString()).toBe('hello');
  });

  it('refuses a second read while one waits', async () => {
    const peer = await listen();
    const ch = await open(peer.port);
    const first = ch.read(1, 200);
    await expect(ch.read(1, 200)).rejects.toThrow(/already waiting/);
    await expect(first).rejects.toMatchObject({ code: 'TIMEOUT' });
  });

  it('answers OFFLINE at once when nothing listens on the port', async () => {
    const peer = await listen();
    await new Promise((r) => peer.server.close(r));
    // A connect timeout longer than the test's own: only the refusal itself can answer in time.
    const e = await openChannel(`tcp://127.0.0.1:${peer.port}`, { connectTimeoutMs: 10 * 60_000 }).catch((x) => x);
    expect(e).toBeInstanceOf(DeviceError);
    expect(e).toMatchObject({ code: 'OFFLINE', vendorCode: 'ECONNREFUSED', outcomeUnknown: false });
  });

  it('times out a read without closing the channel', async () => {
    const peer = await listen();
    const ch = await open(peer.port);
    const t = Date.now();
    await expect(ch.read(1, 80)).rejects.toMatchObject({ code: 'TIMEOUT', outcomeUnknown: true });
    expect(Date.now() - t).toBeGreaterThanOrEqual(70);
    expect(ch.isOpen).toBe(true);
  });

  it('times out a write to a peer that never reads, and drops the connection (outcome unknown)', async () => {
    const peer = await listen((s) => s.pause());
    const ch = await open(peer.port, { writeTimeoutMs: 300 });
    const closed = new Promise((r) => ch.on('close', r));
    // Far more than the loopback socket buffers hold, so the write cannot complete.
    const e = await ch.write(Buffer.alloc(64 * 1024 * 1024, 0x41)).catch((x) => x);
    expect(e).toMatchObject({ code: 'TIMEOUT', outcomeUnknown: true });
    await closed;
    expect(ch.isOpen).toBe(false);
    await expect(ch.write(Uint8Array.from([1]))).rejects.toMatchObject({ code: 'OFFLINE' });
  });

  it('reports a peer that drops the connection: close event, waiting read fails OFFLINE', async () => {
    const peer = await listen();
    const ch = await open(peer.port);
    const socket = await peer.connected;
    const closed = new Promise((r) => ch.on('close', r));
    const pending = ch.read(10, 2000);
    socket.destroy();
    await expect(pending).rejects.toMatchObject({ code: 'OFFLINE', outcomeUnknown: true });
    await closed;
    expect(ch.isOpen).toBe(false);
    await expect(ch.read(1, 100)).rejects.toMatchObject({ code: 'OFFLINE' });
  });

  it('closes cleanly: the peer sees the end of the stream after the last byte', async () => {
    let ended = false;
    const peer = await listen((s) => s.on('end', () => {
      ended = true;
      s.end();
    }));
    const ch = await open(peer.port);
    await ch.write(Buffer.from('last'));
    await ch.close();
    expect(ch.isOpen).toBe(false);
    await until(() => ended);
    expect(peer.received().toString()).toBe('last');
    await ch.close(); // twice is harmless
  });

  it('closes within the close timeout even when the peer never finishes its side', async () => {
    const peer = await listen((s) => s.pause());
    const ch = await open(peer.port, { closeTimeoutMs: 100 });
    await peer.connected;
    peer.sockets[0].removeAllListeners('end');
    // The peer never ends its side: only the close timeout can end this (else the test times out).
    await ch.close();
    expect(ch.isOpen).toBe(false);
  });
});
