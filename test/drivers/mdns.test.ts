import { networkInterfaces } from 'node:os';
import { describe, expect, it } from 'vitest';
import { Announcement, watchHubs, type DiscoveredHub } from '../../drivers/mdns.js';
import { multicastOrSkip } from '../support/multicast.js';
import { untilTrue } from '../support/wait.js';


describe('mDNS announcement (loopback only)', () => {
  it('announces _poshub._tcp with its TXT record, then withdraws it with goodbyes', async (ctx) => {
    await multicastOrSkip(ctx);
    const errors: Error[] = [];
    const up: DiscoveredHub[] = [];
    const down: DiscoveredHub[] = [];
    const name = `Test Bistro (${process.pid})`;
    const stopWatching = watchHubs({ interface: '127.0.0.1', onUp: (h) => up.push(h), onDown: (h) => down.push(h), onError: (e) => errors.push(e) });
    const announcement = new Announcement({
      name,
      host: 'test-bistro-abc123',
      port: 18089,
      txt: { id: 'abc123', api: '/api', version: '0.1.0' },
      interface: '127.0.0.1',
      addressCheckMs: 0,
      onError: (e) => errors.push(e),
    });
    try {
      announcement.start();
      await untilTrue(() => up.some((h) => h.name === name), { ms: 3000, what: 'the announcement' });
      const hub = up.find((h) => h.name === name)!;
      expect(hub.port).toBe(18089);
      expect(hub.host).toBe('test-bistro-abc123.local');
      expect(hub.txt).toEqual({ id: 'abc123', api: '/api', version: '0.1.0' });
      await announcement.stop();
      await untilTrue(() => down.some((h) => h.name === name), { ms: 3000, what: 'the goodbye' });
      expect(errors).toEqual([]);
    } finally {
      await announcement.stop();
      stopWatching();
    }
  });

  /** Announces on loopback with `listenAddress`, returns the addresses a browser learned, withdraws. */
  async function announcedAddresses(listenAddress: string): Promise<string[]> {
    const name = `Bound Bistro (${process.pid} ${listenAddress.replaceAll('.', '-')})`;
    const up: DiscoveredHub[] = [];
    const stopWatching = watchHubs({ interface: '127.0.0.1', onUp: (h) => up.push(h) });
    const announcement = new Announcement({ name, host: 'bound-bistro', port: 18090, txt: { id: 'bound' }, interface: '127.0.0.1', addressCheckMs: 0, listenAddress });
    try {
      announcement.start();
      await untilTrue(() => up.some((h) => h.name === name), { ms: 3000, what: 'the announcement' });
      return up.find((h) => h.name === name)!.addresses.sort();
    } finally {
      await announcement.stop();
      stopWatching();
    }
  }

  it('bound to one address, announces only that address (bound to 127.0.0.1 it must not announce eth0\'s)', async (ctx) => {
    await multicastOrSkip(ctx);
    expect(await announcedAddresses('127.0.0.1')).toEqual(['127.0.0.1']);
  });

  it('bound to 0.0.0.0, announces the machine\'s IPv4 addresses and no IPv6 one', async (ctx) => {
    await multicastOrSkip(ctx);
    const ipv4 = Object.values(networkInterfaces())
      .flatMap((list) => list ?? [])
      .filter((a) => !a.internal && a.family === 'IPv4' && a.mac !== '00:00:00:00:00:00')
      .map((a) => a.address)
      .sort();
    expect(await announcedAddresses('0.0.0.0')).toEqual(ipv4);
  });
});
