/**
 * One address string per device (CONTRACT §8): `tcp://host[:9100]` or
 * `serial:/dev/ttyUSB0?baudRate=19200[&dataBits=8&stopBits=1&parity=none]`. Pure: no I/O.
 */
export type DeviceAddress =
  | { kind: 'tcp'; host: string; port: number }
  | { kind: 'serial'; path: string; baudRate: number; dataBits: 5 | 6 | 7 | 8; stopBits: 1 | 2; parity: 'none' | 'even' | 'odd' };

/**
 * What is wrong with an address, for the hub to say in its caller's language (`address.<fault>` in its
 * catalog). parseAddress finds the first ten; the last two are for drivers whose devices are not behind
 * a transport: `simulated` (only sim:<name> will do) and `service` (an HTTP service, or sim:<name>).
 */
export type AddressFault = 'scheme' | 'tcp' | 'host' | 'port' | 'serialPath' | 'baudRate' | 'dataBits' | 'stopBits' | 'parity' | 'serialOption' | 'simulated' | 'service';

export class AddressError extends Error {
  constructor(
    message: string,
    readonly fault: AddressFault,
    /** `value`: the part of the address at fault, as written; `values`: what it may be, where a list says it. */
    readonly params: { value: string; values?: string },
  ) {
    super(message);
  }
}

export const DEFAULT_TCP_PORT = 9100;
export const DEFAULT_BAUD_RATE = 9600;
const BAUD_RATES = [1200, 2400, 4800, 9600, 14400, 19200, 38400, 57600, 115200, 230400];
const HOSTNAME = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
const IPV6 = /^\[[0-9A-Fa-f:.]{2,45}\]$/;

export function parseAddress(text: string): DeviceAddress {
  const s = text.trim();
  if (/^tcp:\/\//i.test(s)) return parseTcp(s.slice(6));
  if (/^serial:/i.test(s)) return parseSerial(s.slice(7));
  throw new AddressError(`'${text}' is neither tcp://host[:port] nor serial:/dev/...`, 'scheme', { value: text });
}

function parseTcp(rest: string): DeviceAddress {
  const m = /^(\[[^\]]+\]|[^:/?#]+)(?::(\d{1,5}))?\/?$/.exec(rest);
  if (!m) throw new AddressError(`'tcp://${rest}' is not tcp://host[:port].`, 'tcp', { value: `tcp://${rest}` });
  const [, host, portText] = m;
  if (!HOSTNAME.test(host) && !IPV6.test(host)) throw new AddressError(`'${host}' is not a host name or IP address.`, 'host', { value: host });
  const port = portText === undefined ? DEFAULT_TCP_PORT : Number(portText);
  if (port < 1 || port > 65535) throw new AddressError(`port ${portText} is outside 1-65535.`, 'port', { value: String(portText) });
  return { kind: 'tcp', host: host.replace(/^\[|\]$/g, ''), port };
}

function parseSerial(rest: string): DeviceAddress {
  const [path, query = ''] = rest.split('?', 2);
  if (!/^(\/dev\/[A-Za-z0-9._/-]+|COM\d{1,3})$/.test(path) || path.split('/').some((seg) => seg === '..' || seg === '.')) {
    throw new AddressError(`'${path}' is not a serial device path such as /dev/ttyUSB0.`, 'serialPath', { value: path });
  }
  const out = { kind: 'serial' as const, path, baudRate: DEFAULT_BAUD_RATE, dataBits: 8 as 5 | 6 | 7 | 8, stopBits: 1 as 1 | 2, parity: 'none' as 'none' | 'even' | 'odd' };
  for (const pair of query ? query.split('&') : []) {
    const [k, v = ''] = pair.split('=', 2);
    switch (k.toLowerCase()) {
      case 'baudrate':
        if (!BAUD_RATES.includes(Number(v))) throw new AddressError(`baudRate ${v} is not one of ${BAUD_RATES.join(', ')}.`, 'baudRate', { value: v, values: BAUD_RATES.join(', ') });
        out.baudRate = Number(v);
        break;
      case 'databits':
        if (!['5', '6', '7', '8'].includes(v)) throw new AddressError(`dataBits ${v} is not 5-8.`, 'dataBits', { value: v });
        out.dataBits = Number(v) as 5 | 6 | 7 | 8;
        break;
      case 'stopbits':
        if (v !== '1' && v !== '2') throw new AddressError(`stopBits ${v} is not 1 or 2.`, 'stopBits', { value: v });
        out.stopBits = Number(v) as 1 | 2;
        break;
      case 'parity':
        if (!['none', 'even', 'odd'].includes(v.toLowerCase())) throw new AddressError(`parity ${v} is not none, even or odd.`, 'parity', { value: v });
        out.parity = v.toLowerCase() as 'none' | 'even' | 'odd';
        break;
      default:
        throw new AddressError(`'${k}' is not a serial option (baudRate, dataBits, stopBits, parity).`, 'serialOption', { value: k });
    }
  }
  return out;
}

export function formatAddress(a: DeviceAddress): string {
  if (a.kind === 'tcp') return `tcp://${a.host.includes(':') ? `[${a.host}]` : a.host}:${a.port}`;
  return `serial:${a.path}?baudRate=${a.baudRate}`;
}
