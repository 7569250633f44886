/**
 * The hub's mDNS announcement (`_poshub._tcp`) and a browser for it. The only importer of
 * bonjour-service. Errors are reported to a callback, never thrown: a flaky network card must not
 * take the hub down.
 */
import { isIPv6 } from 'node:net';
import { networkInterfaces } from 'node:os';
import Bonjour from 'bonjour-service';

type Service = Bonjour.Service;

export const SERVICE_TYPE = 'poshub';

export interface MdnsOptions {
  /** IPv4 address of the one interface to use (e.g. 127.0.0.1 in tests); all interfaces when unset. */
  interface?: string;
  onError?: (err: Error) => void;
}

export interface AnnounceOptions extends MdnsOptions {
  /** Instance name, unique on the LAN: the store name plus a short hub id. */
  name: string;
  /** Host name without `.local`. */
  host: string;
  port: number;
  txt: Record<string, string>;
  /** How often to look for changed machine addresses (ms); 0 turns the watch off. */
  addressCheckMs?: number;
  /**
   * The address the hub's server is bound to. A register must be told only addresses it can reach the
   * hub on: bound to one address, only that one is announced (bound to 127.0.0.1 the hub announced
   * eth0's); bound to 0.0.0.0, the machine's IPv4 addresses; to `::` or unset, all of them.
   */
  listenAddress?: string;
}

/** Limits a published service's A/AAAA records to what `listenAddress` serves (see AnnounceOptions). */
function announceOnly(service: Service, listenAddress: string | undefined): void {
  if (!listenAddress || listenAddress === '::') return;
  const all = service.records.bind(service);
  service.records = () => {
    const records = all();
    const others = records.filter((r) => r.type !== 'A' && r.type !== 'AAAA');
    if (listenAddress === '0.0.0.0') return [...others, ...records.filter((r) => r.type === 'A')];
    return [...others, { name: service.host, type: isIPv6(listenAddress) ? 'AAAA' : 'A', ttl: 120, data: listenAddress }];
  };
}

function bonjourOptions(opts: MdnsOptions): Record<string, unknown> {
  // Bound to all addresses so multicast replies arrive; membership and sending on the chosen interface.
  return opts.interface ? { interface: opts.interface, bind: '0.0.0.0' } : {};
}

/** The machine's non-internal addresses, as one comparable string. */
export function addressFingerprint(): string {
  return Object.entries(networkInterfaces())
    .flatMap(([name, list]) => (list ?? []).filter((a) => !a.internal).map((a) => `${name}/${a.address}`))
    .sort()
    .join(',');
}

/** The machine's first LAN IPv4 address (what a tablet on the shop's network types), if it has one. */
export function lanAddress(): string | undefined {
  return Object.values(networkInterfaces())
    .flatMap((list) => list ?? [])
    .find((a) => !a.internal && a.family === 'IPv4')?.address;
}

export class Announcement {
  private bonjour: InstanceType<typeof Bonjour.Bonjour> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private addresses = '';

  constructor(private readonly opts: AnnounceOptions) {}

  private report(err: unknown): void {
    this.opts.onError?.(err instanceof Error ? err : new Error(String(err)));
  }

  start(): void {
    try {
      this.bonjour = new Bonjour.Bonjour(bonjourOptions(this.opts), (err: unknown) => this.report(err));
      const service = this.bonjour.publish({
        name: this.opts.name,
        type: SERVICE_TYPE,
        protocol: 'tcp',
        port: this.opts.port,
        host: `${this.opts.host}.local`,
        txt: this.opts.txt,
      });
      announceOnly(service, this.opts.listenAddress);
      service.on('error', (err: unknown) => this.report(err));
    } catch (err) {
      this.report(err);
    }
    this.addresses = addressFingerprint();
    const every = this.opts.addressCheckMs ?? 30_000;
    if (every > 0 && !this.timer) {
      this.timer = setInterval(() => void this.checkAddresses(), every);
      this.timer.unref();
    }
  }

  /** A DHCP renewal or a cable moved: withdraw and announce again so registers learn the new A records. */
  private async checkAddresses(): Promise<void> {
    const now = addressFingerprint();
    if (now === this.addresses) return;
    await this.withdraw();
    this.start();
  }

  private withdraw(): Promise<void> {
    const bonjour = this.bonjour;
    this.bonjour = undefined;
    if (!bonjour) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        try {
          bonjour.destroy();
        } catch (err) {
          this.report(err);
        }
        resolve();
      };
      const guard = setTimeout(done, 2000);
      try {
        // Goodbye packets (TTL 0) go out before the socket closes, so browsers drop the hub at once.
        bonjour.unpublishAll(() => {
          clearTimeout(guard);
          done();
        });
      } catch (err) {
        this.report(err);
        clearTimeout(guard);
        done();
      }
    });
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.withdraw();
  }
}

export interface DiscoveredHub {
  name: string;
  host: string;
  port: number;
  addresses: string[];
  txt: Record<string, string>;
}

function toHub(service: { name: string; host: string; port: number; addresses?: string[]; txt?: unknown }): DiscoveredHub {
  return { name: service.name, host: service.host, port: service.port, addresses: service.addresses ?? [], txt: (service.txt ?? {}) as Record<string, string> };
}

/** Watches for hubs; `up`/`down` fire as they appear and say goodbye. Returns a stop function. */
export function watchHubs(opts: MdnsOptions & { onUp: (hub: DiscoveredHub) => void; onDown?: (hub: DiscoveredHub) => void }): () => void {
  const bonjour = new Bonjour.Bonjour(bonjourOptions(opts), (err: unknown) => opts.onError?.(err as Error));
  const browser = bonjour.find({ type: SERVICE_TYPE, protocol: 'tcp' });
  browser.on('up', (s) => opts.onUp(toHub(s)));
  browser.on('down', (s) => opts.onDown?.(toHub(s)));
  return () => {
    browser.stop();
    bonjour.destroy();
  };
}

/** Lists the hubs that answer within `timeoutMs`. */
export async function discoverHubs(opts: MdnsOptions & { timeoutMs: number }): Promise<DiscoveredHub[]> {
  const found = new Map<string, DiscoveredHub>();
  const stop = watchHubs({ ...opts, onUp: (h) => found.set(h.name, h) });
  await new Promise((r) => setTimeout(r, opts.timeoutMs));
  stop();
  return [...found.values()];
}
