/**
 * Serial transport through serialport. The binding is injectable so tests drive a MockBinding;
 * the hub uses serialport's own platform binding.
 */
import type { OpenOptions } from '@serialport/stream';
import { DeviceError } from '../faults.js';
import type { DeviceAddress } from './address.js';
import { StreamChannel, type ChannelTimeouts } from './channel.js';

export type SerialBinding = OpenOptions['binding'];

type SerialAddress = Extract<DeviceAddress, { kind: 'serial' }>;

/** serialport is loaded when a serial device is first opened, not at every start of a hub that has none. */
export async function openSerial(a: SerialAddress, label: string, timeouts: ChannelTimeouts, binding?: SerialBinding): Promise<StreamChannel> {
  const { SerialPortStream } = await import('@serialport/stream');
  const portBinding = binding ?? (await import('serialport')).SerialPort.binding;
  return new Promise((resolve, reject) => {
    const port = new SerialPortStream({
      binding: portBinding,
      path: a.path,
      baudRate: a.baudRate,
      dataBits: a.dataBits,
      stopBits: a.stopBits,
      parity: a.parity,
      autoOpen: false,
    });
    let settled = false;
    const timer = setTimeout(() => {
      settled = true;
      // The open may still complete later; close it then so the tty is not left held.
      port.once('open', () => port.close());
      reject(new DeviceError('OFFLINE', `${label}: port not open within ${timeouts.connectTimeoutMs} ms`));
    }, timeouts.connectTimeoutMs);
    port.open((err) => {
      if (settled) return;
      clearTimeout(timer);
      if (err) return reject(new DeviceError('OFFLINE', `${label}: ${err.message}`));
      resolve(
        new StreamChannel(label, port, timeouts, (done) => {
          // Let queued bytes reach the tty before closing; close() alone may discard them.
          port.drain(() => port.close(() => done()));
        }),
      );
    });
  });
}
