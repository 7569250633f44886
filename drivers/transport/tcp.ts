/** TCP transport: a raw socket to a printer's port 9100 or a fiscal device's LAN port. */
import { connect } from 'node:net';
import { DeviceError } from '../faults.js';
import { StreamChannel, type ChannelTimeouts } from './channel.js';

/** Keep-alive probes notice a printer unplugged from the LAN while the socket sits idle. */
const KEEPALIVE_MS = 10_000;

export function openTcp(host: string, port: number, label: string, timeouts: ChannelTimeouts): Promise<StreamChannel> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port });
    socket.setNoDelay(true);
    const fail = (e: DeviceError) => {
      clearTimeout(timer);
      socket.destroy();
      reject(e);
    };
    const timer = setTimeout(() => fail(new DeviceError('OFFLINE', `${label}: no connection within ${timeouts.connectTimeoutMs} ms`)), timeouts.connectTimeoutMs);
    socket.once('error', (e: NodeJS.ErrnoException) => fail(new DeviceError('OFFLINE', `${label}: ${e.code ?? e.message}`, false, e.code)));
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.removeAllListeners('error');
      socket.setKeepAlive(true, KEEPALIVE_MS);
      resolve(new StreamChannel(label, socket, timeouts));
    });
  });
}
