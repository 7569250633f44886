/**
 * Kitchen printing latency on the real hub process: the time from a register's ticket write (the
 * POST leaving the client) to the last byte of the kitchen order at a fake ESC/POS printer (its cut).
 * A benchmark, not a test.
 *   npx tsx scripts/bench-printing.ts [--orders=300] [--registers=1] [--printers=1]
 * With several registers the writes run concurrently, spread round-robin over the printers.
 */
import { performance } from 'node:perf_hooks';
import { FakeEscPosPrinter } from '../test/support/fake-escpos-printer.js';
import { E2E_ADMIN_PASSWORD, startHubProcess } from '../test/support/process.js';

const arg = (name: string, fallback: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const ORDERS = arg('orders', 300);
const REGISTERS = arg('registers', 1);
const PRINTERS = arg('printers', 1);

async function main(): Promise<void> {
  const printers = await Promise.all(Array.from({ length: PRINTERS }, () => FakeEscPosPrinter.start()));
  const hub = await startHubProcess();
  try {
    const call = async (method: string, path: string, body: unknown, token?: string) => {
      const r = await hub.call(method, path, body, { token });
      if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
      return r.body;
    };
    const admin = await hub.login('admin', E2E_ADMIN_PASSWORD, 'BackOffice');
    await call('POST', '/api/stocks', { name: 'Menu' }, admin);
    for (const [i, p] of printers.entries()) {
      await call('POST', '/api/orderendpoints', { name: `Printer${i}`, type: 'TM88', address: p.address }, admin);
      await call('POST', '/api/plus', { code: i + 1, stockName: 'Menu', name: 'Šopský šalát', type: 'Service', unitPrice: { amount: 4.5 }, vatInfo: { category: 1, rate: 20 }, orderEndpointNames: [`Printer${i}`] }, admin);
    }
    await call('POST', '/api/users', { userName: 'waiter', name: 'Waiter', password: 'pw', rights: ['TicketCreate'] }, admin);
    const tokens: string[] = [];
    for (let r = 0; r < REGISTERS; r++) {
      await call('POST', '/api/devices', { name: `Register${r}`, envName: 'CashRegister' }, admin);
      tokens.push(await hub.login('waiter', 'pw', `Register${r}`));
    }

    // The cut of each kitchen ticket, keyed by its ticket name, stamped when the fake printer processes it.
    const cutAt = new Map<string, number>();
    const waiting = new Map<string, () => void>();
    for (const p of printers) {
      p.on('ticket', (t: { lines: Array<{ text: string }> }) => {
        const name = t.lines.find((l) => l.text.startsWith('Ticket'))?.text.split(' ').pop();
        if (!name) return;
        cutAt.set(name, performance.now());
        waiting.get(name)?.();
      });
    }
    const printedAt = (name: string) => (cutAt.has(name) ? Promise.resolve() : new Promise<void>((r) => waiting.set(name, r)));
    const latencies: number[] = [];
    // The write's own response time, to tell the queue's share apart.
    const writes: number[] = [];
    let next = 0;
    const started = performance.now();
    await Promise.all(
      tokens.map(async (token) => {
        for (;;) {
          const i = next++;
          if (i >= ORDERS) return;
          const name = `B${i}`;
          const t0 = performance.now();
          await call('POST', '/api/tickets', { name, items: [{ plu: { code: (i % PRINTERS) + 1, stockName: 'Menu' }, quantity: 1 }] }, token);
          writes.push(performance.now() - t0);
          await printedAt(name);
          latencies.push(cutAt.get(name)! - t0);
        }
      }),
    );
    const wall = (performance.now() - started) / 1000;
    const q = quantiles(latencies);
    const w = quantiles(writes);
    const printed = printers.reduce((n, p) => n + p.cutTickets().length, 0);
    process.stdout.write(
      [
        `kitchen printing: ${ORDERS} orders, ${REGISTERS} register(s), ${PRINTERS} printer(s), ${printed} tickets printed in ${wall.toFixed(1)} s`,
        `ticket write → last byte at the printer (ms): p50 ${q(50)}  p90 ${q(90)}  p99 ${q(99)}  max ${q(100)}`,
        `the write's HTTP response alone (ms):        p50 ${w(50)}  p90 ${w(90)}  p99 ${w(99)}  max ${w(100)}`,
        '',
      ].join('\n'),
    );
  } finally {
    await hub.stop();
    for (const p of printers) await p.close();
  }
}

function quantiles(values: number[]): (p: number) => string {
  const sorted = [...values].sort((a, b) => a - b);
  return (p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))].toFixed(1);
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
