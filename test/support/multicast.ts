/**
 * Can this machine deliver multicast on the loopback interface? Probed with one datagram to an
 * administratively scoped group on 127.0.0.1 (the traffic never leaves the machine). mDNS tests
 * skip with this message where it cannot.
 */
import { createSocket } from 'node:dgram';

export const NO_MULTICAST = 'no multicast-capable loopback interface on this machine: the mDNS round trip is skipped';

export function loopbackMulticastWorks(timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const group = '239.255.77.77';
    const socket = createSocket({ type: 'udp4', reuseAddr: true });
    const finish = (ok: boolean) => {
      clearTimeout(timer);
      try {
        socket.close();
      } catch {
        /* already closed */
      }
      resolve(ok);
    };
    const timer = setTimeout(() => finish(false), timeoutMs);
    socket.on('error', () => finish(false));
    socket.on('message', (msg) => {
      if (msg.toString() === 'poshub-probe') finish(true);
    });
    socket.bind(0, '0.0.0.0', () => {
      try {
        socket.addMembership(group, '127.0.0.1');
        socket.setMulticastInterface('127.0.0.1');
        socket.setMulticastLoopback(true);
        socket.setMulticastTTL(0);
        socket.send('poshub-probe', socket.address().port, group);
      } catch {
        finish(false);
      }
    });
  });
}

/** Skips the test where loopback multicast cannot work — except in CI (CI=true), where that fails. */
export async function multicastOrSkip(ctx: { skip(note?: string): void }): Promise<void> {
  if (await loopbackMulticastWorks()) return;
  if (process.env.CI === 'true') throw new Error(`${NO_MULTICAST}; in CI the mDNS tests must run`);
  ctx.skip(NO_MULTICAST);
}
