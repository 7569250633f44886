/**
 * Issue 27, point 7: exactly one receipt recorded iff the printer issued one, never a voided one, on
 * every Datecs variant, whatever answer is lost. For each step of a receipt (open, sale, payment,
 * close) the answer is lost two ways: the printer ran the command and fell silent, or the command
 * never reached it. The waiter retries until the close succeeds; the ticket must then carry the
 * number of the one receipt printed for it. Every ticket has the same amount, so a reconciliation
 * that matched a void (or the previous receipt) by its amount would record it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CMD } from '../../drivers/fiscal/datecs/commands.js';
import type { TestHub } from '../support/hub.js';
import { datecsHub, jobStates, type DatecsRestaurant } from './fixture.js';

const STEPS = { open: CMD.openFiscalReceipt, sale: CMD.sale, payment: CMD.total, close: CMD.closeFiscalReceipt } as const;

// The variants side by side (each has its own hub and printer), the cases of one in order: vitest runs
// sibling suites together only when each is concurrent, so the suites are and their cases are
// it.sequential (a case waits out a silent printer's frame timeouts, ~0.4 s, and uses little CPU).
describe('lost answers', () => {
for (const variant of ['P', 'C', 'X'] as const) {
  describe.concurrent(`Datecs ${variant}: a lost answer at each step of a receipt`, () => {
    let hub: TestHub;
    let r: DatecsRestaurant;
    let stop: () => Promise<void>;
    beforeAll(async () => ({ hub, r, stop } = await datecsHub(undefined, variant)));
    afterAll(() => stop());

    /** Closes ticket `id` as a waiter would: again after each 503 or 423, the printer answering again. */
    async function closeUntilDone(id: string) {
      let res = await r.close(id);
      r.sim.resume();
      for (let i = 0; i < 3 && res.status !== 200; i++) {
        expect([503, 423]).toContain(res.status);
        res = await r.close(id);
      }
      expect(res.status).toBe(200);
      return res;
    }

    function expectOneReceipt(id: string, res: { body: any }) {
      const printed = r.receiptsOf(id);
      expect(printed).toHaveLength(1);
      expect(res.body.closeInfo.number).toBe(printed[0].number);
      expect(jobStates(hub, id).filter((s) => s === 'Done')).toHaveLength(1);
    }

    for (const [step, cmd] of Object.entries(STEPS)) {
      it.sequential(`${step}: run, then silent`, async () => {
        const t = await r.open();
        r.sim.failAfter(cmd, 'silence');
        expectOneReceipt(t.id, await closeUntilDone(t.id));
      });

      it.sequential(`${step}: lost on its way (not run), silent`, async () => {
        const t = await r.open();
        r.sim.failBefore(cmd);
        expectOneReceipt(t.id, await closeUntilDone(t.id));
      });
    }

    it.sequential('a refused payment whose receipt state could not be read at once: voided, never recorded, printed once', async () => {
      const t = await r.open();
      r.sim.refuseNext(CMD.total);
      // Every try of the next 4Ch (Retries 3: four) loses its answer: the driver cannot tell at once.
      r.sim.afterNext(CMD.total, () => r.sim.dropReplies({ cmd: CMD.transactionStatus, count: 4 }));
      expectOneReceipt(t.id, await closeUntilDone(t.id));
      expect(r.sim.memory.day.voided).toBeGreaterThan(0);
    });
  });
}
});
