/** The transport layer's public face: parse an address, open a channel, or keep one open. */
export { AddressError, DEFAULT_BAUD_RATE, DEFAULT_TCP_PORT, formatAddress, parseAddress, type DeviceAddress } from './address.js';
export type { Channel, ChannelTimeouts, ReadWant } from './channel.js';
export { DEFAULT_CHANNEL_OPTIONS, openChannel, type ChannelOptions } from './open.js';
export { backoffDelay, DEFAULT_BACKOFF, ReconnectingChannel, realTimers, type Availability, type Backoff, type ReconnectingOptions, type Timers } from './reconnecting.js';
export type { SerialBinding } from './serial.js';
