/** One entry point for every transport: an address string in, an open channel out. */
import { formatAddress, parseAddress, type DeviceAddress } from './address.js';
import type { Channel, ChannelTimeouts } from './channel.js';
import { openSerial, type SerialBinding } from './serial.js';
import { openTcp } from './tcp.js';

export interface ChannelOptions extends ChannelTimeouts {
  /** Serial only: the serialport binding (tests pass MockBinding). */
  binding?: SerialBinding;
}

export const DEFAULT_CHANNEL_OPTIONS: ChannelOptions = { connectTimeoutMs: 3000, writeTimeoutMs: 5000, closeTimeoutMs: 1000 };

export function openChannel(address: DeviceAddress | string, opts: Partial<ChannelOptions> = {}): Promise<Channel> {
  const a = typeof address === 'string' ? parseAddress(address) : address;
  const o = { ...DEFAULT_CHANNEL_OPTIONS, ...opts };
  const label = formatAddress(a);
  return a.kind === 'tcp' ? openTcp(a.host, a.port, label, o) : openSerial(a, label, o, o.binding);
}
