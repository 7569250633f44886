/**
 * Fake ESC/POS printers for `npm run bench -- --printers=live` (scripts/bench.ts), in a process of
 * their own: decoding the hub's bytes one by one is the bench's work, not the hub's, and in the
 * bench's own process it would delay the paced requests it times. Started with an IPC channel:
 *   argv: the number of printers. Sends {addresses: string[]} once listening; answers a message
 *   'count' with {printed: number} (jobs cut so far, all printers) and exits on 'stop'.
 * What was printed is counted and then forgotten (the fake keeps every ticket and byte, which over a
 * bench run of tens of thousands of jobs would only grow).
 */
import { FakeEscPosPrinter } from '../../test/support/fake-escpos-printer.js';

async function main(): Promise<void> {
  const n = Number(process.argv[2] ?? 1);
  const printers = await Promise.all(Array.from({ length: n }, () => FakeEscPosPrinter.start()));
  let printed = 0;
  for (const p of printers) {
    p.on('ticket', () => {
      printed += 1;
      p.tickets.length = 0;
      p.rawBytes.length = 0;
    });
  }
  process.on('message', (m) => {
    if (m === 'count') process.send!({ printed });
    if (m === 'stop') void Promise.all(printers.map((p) => p.close())).then(() => process.exit(0));
  });
  process.send!({ addresses: printers.map((p) => p.address) });
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
