/**
 * Would a worker thread for the write path pay (issue 31, point 6)? `npx tsx scripts/bench-worker.ts`.
 * A write moved to a worker still costs the main thread the hand-over: the request's body and caller
 * posted to the worker, the stored document posted back (structured clone both ways, and a wake-up
 * of each thread). This measures that hand-over alone, with a ticket write's own payloads, against
 * an echo worker: CPU of the main thread and of the whole process per round trip. Compare it with
 * what the worker would take off the main thread (the SQL and the ticket's rules: the bench's cost
 * table, main thread ms/req) and with the cores there are (2, one of them busy with the load generator
 * in the bench and with fsyncs and checkpoints in a shop).
 */
import { Worker } from 'node:worker_threads';
import { cpuOf } from './bench/cost.js';

const ROUNDS = Number(process.argv.find((a) => a.startsWith('--rounds='))?.split('=')[1] ?? 20000);

const body = {
  name: 'Table Bench',
  location: { tableName: 'Bench', zoneName: 'Terrace' },
  items: [11, 22, 33, 44, 55].map((code, i) => ({ id: i + 1, plu: { code, stockName: 'Menu' }, quantity: 1 })),
};
const caller = { userId: 'u1', userName: 'bench-cashier', name: 'Cashier', rights: ['TicketCreate', 'TicketUpdate', 'TicketClose'], device: { name: 'Register1', envName: 'CashRegister', settings: {} }, tokenHash: 'x'.repeat(64) };
// The answer of a 5-item create, as the hub stores and answers it (~1.6 KB of JSON).
const answer = {
  ...body,
  id: '019ac0ffee0000000000000000000000',
  externalId: null,
  purchaseType: 'WalkIn',
  currencyLabel: null,
  discountRate: 0,
  customer: null,
  note: null,
  items: body.items.map((i) => ({ ...i, plu: { ...i.plu, name: 'Kapustnica' }, type: 'Positive', unitPrice: { amount: 4.9 }, discountRate: 0, modifiers: [], comment: null, totalPrice: { amount: 4.9 } })),
  state: 'Opened',
  originDeviceName: 'Register1',
  openDate: new Date().toISOString(),
  closeDate: null,
  employee: { userName: 'bench-cashier', name: 'Cashier' },
  totalPrice: { amount: 24.5, currencyLabel: null },
  vatBreakdown: [{ rate: 20, base: 20.42, vat: 4.08, gross: 24.5 }],
  payments: [],
  closeInfo: null,
  _v: 1,
};

const ECHO = `
const { parentPort, workerData } = require('node:worker_threads');
parentPort.on('message', (m) => parentPort.postMessage({ id: m.id, doc: workerData.answer }));
`;

async function main(): Promise<void> {
  const worker = new Worker(ECHO, { eval: true, workerData: { answer } });
  let pending: ((v: unknown) => void) | undefined;
  worker.on('message', (m) => pending?.(m));
  const roundTrip = (id: number) =>
    new Promise((resolve) => {
      pending = resolve;
      worker.postMessage({ id, method: 'POST', path: '/api/tickets', body, caller });
    });
  for (let i = 0; i < 2000; i++) await roundTrip(i);
  // /proc: the whole process and its main thread (Node 20 has no per-thread cpuUsage).
  const before = cpuOf(process.pid);
  const t0 = performance.now();
  for (let i = 0; i < ROUNDS; i++) await roundTrip(i);
  const wall = performance.now() - t0;
  const after = cpuOf(process.pid);
  const per = (ms: number) => ((ms * 1000) / ROUNDS).toFixed(1);
  process.stdout.write(
    `${ROUNDS} round trips of a ticket write's request and answer to a worker thread: ${per(after.processMs - before.processMs)} µs of CPU each ` +
      `(the whole process), ${per(after.mainThreadMs - before.mainThreadMs)} µs of it on the main thread, ${per(wall)} µs wall.\n`,
  );
  await worker.terminate();
}

void main();
