/**
 * `npm run discover`: lists the POS hubs announcing themselves on the LAN (what an installer runs
 * at a register). Options: --timeout=<ms> (default 3000), --interface=<IPv4 of one interface>.
 */
import { discoverHubs } from '../drivers/mdns.js';

const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const timeoutMs = Number(arg('timeout') ?? 3000);
const hubs = await discoverHubs({ timeoutMs, interface: arg('interface'), onError: (e) => process.stderr.write(`mDNS: ${e.message}\n`) });
if (hubs.length === 0) {
  process.stdout.write(`No POS hub answered within ${timeoutMs} ms.\n`);
} else {
  for (const h of hubs) {
    const ipv4 = h.addresses.filter((a) => a.includes('.'));
    const urls = (ipv4.length ? ipv4 : [h.host]).map((a) => `http://${a}:${h.port}${h.txt.api ?? '/api'}`);
    process.stdout.write(`${h.name}  id=${h.txt.id ?? '?'}  version=${h.txt.version ?? '?'}  host=${h.host}\n  ${urls.join('\n  ')}\n`);
  }
}
process.exit(0);
