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
});
