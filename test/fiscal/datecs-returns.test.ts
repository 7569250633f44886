/**
 * Returns on a Datecs printer through the API (issue 27, point 5): a return started from a closed
 * ticket (POST /api/tickets/{id}/return) and closed with payments ≤ 0 is one storno receipt on the
 * byte-level fake printer, quoting the original's number, date (the printer's time zone), fiscal
 * memory and УНП, on each protocol variant. A lost answer at any step of the storno receipt is settled
 * to exactly one storno receipt, retried with the same Idempotency-Key or without one. The storno
 * quotes what the original really carries: the time it was printed (not when a lost answer was
 * settled), in the hub's time zone unless the device says its own, and its УНП (X numbers receipts
 * only, so after a report the УНП is not the receipt's number). A return the printer cannot quote (its
 * original was printed by another fiscal memory, or by a device without a fiscal memory a Datecs can
 * quote) is a 403 naming the reason and the device, sent to no printer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CMD, VARIANTS, type VariantName } from '../../drivers/fiscal/datecs/commands.js';
import { FakeDatecsDevice, type FakeReceipt } from '../support/fake-datecs-device.js';
import type { TestHub } from '../support/hub.js';
import { expect2xx } from '../tickets/fixture.js';
import { datecsDevice, datecsHub, FAST_SETTINGS, jobStates, type DatecsRestaurant } from './fixture.js';

/** The printer's clock runs in Sofia (EET, UTC+2 in November): the storno quotes the original's local time. */
const SETTINGS = { ...FAST_SETTINGS, TimeZone: 'Europe/Sofia' };

/** `iso` as the storno receipt of `variant` quotes it in `timeZone`: P and C `DDMMYYhhmmss`, X `DD-MM-YY hh:mm:ss`. */
function quoted(variant: VariantName, iso: string, timeZone = 'Europe/Sofia'): string {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', { timeZone, year: '2-digit', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' })
      .formatToParts(new Date(iso))
      .map((x) => [x.type, x.value]),
  );
  return variant === 'X' ? `${p.day}-${p.month}-${p.year} ${p.hour}:${p.minute}:${p.second}` : `${p.day}${p.month}${p.year}${p.hour}${p.minute}${p.second}`;
}

// The variants side by side (each has its own hub and printer), the cases of one in order: vitest runs
// sibling suites together only when each is concurrent, so the suites are and their cases are
// it.sequential.
describe('returns on a Datecs printer', () => {
  for (const variant of ['P', 'C', 'X'] as const) {
    describe.concurrent(`Datecs ${variant}`, () => {
      let hub: TestHub;
      let r: DatecsRestaurant;
      let stop: () => Promise<void>;
      beforeAll(async () => ({ hub, r, stop } = await datecsHub(SETTINGS, variant)));
      afterAll(() => stop());

      const stornoCmd = variant === 'X' ? CMD.openStornoDocument : CMD.openStornoReceipt;
      const cash = VARIANTS[variant].payments.Cash;
      const closeReturn = (id: string, headers: Record<string, string> = {}) =>
        hub.call('POST', `/api/tickets/${id}/close`, { fiscalName: 'DT1', payments: [{ paymentTypeNumber: 1, amount: -6.9 }] }, { token: r.cashier.token, headers });
      /** A sale of 2 × Gulyás and 1 × Pivo closed on DT1, and a return of one Gulyás started from it. */
      async function saleAndReturn(): Promise<{ original: any; ret: any }> {
        const t = await r.open();
        const original = await expect2xx(r.close(t.id));
        const ret = await expect2xx(hub.call('POST', `/api/tickets/${original.id}/return`, { items: [{ id: 1, quantity: 1 }] }, { token: r.cashier.token }));
        return { original, ret };
      }
      /** The one storno receipt printed for return `ret`, refunding `original` as the printer printed it. */
      function expectOneStorno(original: any, ret: any, closed: any): FakeReceipt {
        const printed = r.receiptsOf(ret.id);
        expect(printed).toHaveLength(1);
        const [storno] = printed;
        const [sold] = r.receiptsOf(original.id);
        expect(storno.storno).toEqual({
          number: original.closeInfo.number,
          date: quoted(variant, sold.date),
          fiscalMemorySerialNumber: original.closeInfo.fiscalMemorySerialNumber,
          unp: sold.unp,
        });
        expect(sold).toMatchObject({ number: original.closeInfo.number, unp: expect.stringMatching(/^DT000001-0001-\d{7}$/) });
        expect(storno.lines.map((l) => [l.text, l.quantity, l.total])).toEqual([['Gulyas', '1', '6.90']]);
        expect(storno.payments).toEqual([{ mode: cash, amount: '6.90' }]);
        expect(closed).toMatchObject({
          state: 'Closed',
          returnOf: original.id,
          payments: [{ paymentTypeNumber: 1, amount: -6.9 }],
          closeInfo: { deviceName: r.cashier.device, fiscalName: 'DT1', number: storno.number, dailySalesReportNumber: 1, fiscalMemorySerialNumber: '02000001' },
        });
        expect(jobStates(hub, ret.id).filter((s) => s === 'Done')).toHaveLength(1);
        return storno;
      }

      it.sequential('sell, close, return an item: one storno receipt quoting the original; the return closed with its number', async () => {
        const { original, ret } = await saleAndReturn();
        // The return comes later in the day: the storno quotes the original's time, not the return's.
        hub.clock.advance(90 * 60_000);
        const before = r.sim.memory.receipts.length;
        const res = await closeReturn(ret.id);
        expect(res.status).toBe(200);
        const storno = expectOneStorno(original, ret, res.body);
        expect(storno.number).toBe(original.closeInfo.number + 1);
        expect(r.sim.memory.receipts).toHaveLength(before + 1);
        expect(r.sim.requests.filter((q) => q.cmd === stornoCmd)).toHaveLength(1);
        // A retry answers the closed return and prints nothing.
        expect((await closeReturn(ret.id)).body).toEqual(res.body);
        expect(r.sim.memory.receipts).toHaveLength(before + 1);
      });

      // Each step once, retried with the key or without (the close, where the receipt is fiscalized, both ways).
      const steps = { open: stornoCmd, sale: CMD.sale, payment: CMD.total, close: CMD.closeFiscalReceipt };
      const keyed = { open: [true], sale: [false], payment: [true], close: [true, false] };
      for (const [step, cmd] of Object.entries(steps)) {
        for (const key of keyed[step as keyof typeof steps]) {
          it.sequential(`a lost answer at the storno receipt's ${step}, retried ${key ? 'with the same Idempotency-Key' : 'without one'}: one storno receipt`, async () => {
            const { original, ret } = await saleAndReturn();
            const headers: Record<string, string> = key ? { 'Idempotency-Key': `return-${variant}-${step}` } : {};
            const before = r.sim.memory.receipts.length;
            r.sim.failAfter(cmd, 'silence');
            let res = await closeReturn(ret.id, headers);
            r.sim.resume();
            for (let i = 0; i < 3 && res.status !== 200; i++) {
              expect([503, 423]).toContain(res.status);
              res = await closeReturn(ret.id, headers);
            }
            expect(res.status).toBe(200);
            expectOneStorno(original, ret, res.body);
            expect(r.sim.memory.receipts).toHaveLength(before + 1);
            // Once more: the stored answer (with the key) or the closed ticket (without); nothing printed.
            const again = await closeReturn(ret.id, headers);
            expect(again.status).toBe(200);
            expect(again.body).toEqual(res.body);
            expect(again.headers.get('idempotent-replayed')).toBe(key ? 'true' : null);
            expect(r.sim.memory.receipts).toHaveLength(before + 1);
          });
        }
      }

      it.sequential("an original whose answer was lost and settled minutes later: the storno quotes the time the printer printed it, not the time it was settled", async () => {
        const t = await r.open();
        r.sim.failAfter(CMD.closeFiscalReceipt, 'silence');
        expect((await r.close(t.id)).status).toBe(503);
        r.sim.resume();
        hub.clock.advance(10 * 60_000);
        const original = await expect2xx(r.close(t.id));
        const ret = await expect2xx(hub.call('POST', `/api/tickets/${original.id}/return`, { items: [{ id: 1, quantity: 1 }] }, { token: r.cashier.token }));
        const res = await closeReturn(ret.id);
        expect(res.status).toBe(200);
        expectOneStorno(original, ret, res.body);
      });

      it.sequential('a report printed before the original (X: 4Ch numbers receipts only): the storno quotes the УНП the original carries; also for an original settled after a lost answer', async () => {
        for (const lost of [false, true]) {
          expect((await hub.call('POST', '/api/fiscaldevices/DT1/reports/x')).status).toBe(200);
          const t = await r.open();
          if (lost) r.sim.failAfter(CMD.closeFiscalReceipt, 'silence');
          let closed = await r.close(t.id);
          r.sim.resume();
          if (lost) closed = await r.close(t.id);
          const original = closed.body;
          expect(closed.status).toBe(200);
          const ret = await expect2xx(hub.call('POST', `/api/tickets/${original.id}/return`, { items: [{ id: 1, quantity: 1 }] }, { token: r.cashier.token }));
          const res = await closeReturn(ret.id);
          expect(res.status, res.body.detail).toBe(200);
          const [sold] = r.receiptsOf(original.id);
          expect(r.receiptsOf(ret.id)[0].storno).toMatchObject({ number: original.closeInfo.number, unp: sold.unp });
        }
      });

      it.sequential("without a TimeZone setting the storno quotes the original's time in the hub's time zone (POS_HUB_TIMEZONE), not the machine's", async () => {
        /** DT1 saved again with these settings (a PUT of its configuration). */
        const saveDT1 = async (settings: Record<string, string>) => {
          const { status: _status, ...config } = (await hub.call('GET', '/api/fiscaldevices/DT1')).body;
          await expect2xx(hub.call('PUT', '/api/fiscaldevices/DT1', { ...config, settings }));
        };
        await saveDT1(FAST_SETTINGS);
        try {
          const { original, ret } = await saleAndReturn();
          expect((await closeReturn(ret.id)).status).toBe(200);
          const [sold] = r.receiptsOf(original.id);
          // The test hub runs in Europe/Bratislava (CET in November), whatever the machine's zone is.
          expect(r.receiptsOf(ret.id)[0].storno!.date).toBe(quoted(variant, sold.date, 'Europe/Bratislava'));
        } finally {
          await saveDT1(SETTINGS);
        }
      });

      it.sequential('a return the printer cannot quote — its original from another fiscal memory, or from a device without one — is a 403 naming the reason; nothing is sent', async () => {
        const other = new FakeDatecsDevice({ clock: () => hub.clock.now(), variant, serialNumber: 'DT000002', fiscalMemorySerialNumber: '02000002' });
        await other.listen();
        try {
          await datecsDevice(hub, `DT2${variant}`, other, SETTINGS);
          const cases = [
            { fiscalName: `DT2${variant}`, reason: new RegExp(`fiscal memory 02000002, not by this printer's \\(02000001\\).*DT2${variant}`) },
            { fiscalName: 'FP1', reason: /fiscal memory number 'SIM[0-9A-F]+' is not 8 digits.*FP1/ },
          ];
          for (const c of cases) {
            const t = await r.open();
            const original = await expect2xx(r.close(t.id, { fiscalName: c.fiscalName }));
            const ret = await expect2xx(hub.call('POST', `/api/tickets/${original.id}/return`, { items: [{ id: 1, quantity: 1 }] }, { token: r.cashier.token }));
            const sent = r.sim.requests.length;
            const headers = { 'Idempotency-Key': `foreign-${variant}-${c.fiscalName}` };
            for (const h of [headers, headers, {}]) {
              const res = await closeReturn(ret.id, h);
              expect(res.status, c.fiscalName).toBe(403);
              expect(res.body.errorCode).toBe(8);
              expect(res.headers.get('retry-after')).toBeNull();
              expect(res.body.detail).toMatch(/REJECTED/);
              expect(res.body.detail).toMatch(c.reason);
            }
            expect(r.sim.requests.slice(sent).some((q) => [CMD.openStornoReceipt, CMD.openStornoDocument, CMD.openFiscalReceipt].includes(q.cmd as 0x2e))).toBe(false);
            expect(await hub.call('GET', `/api/tickets/${ret.id}`).then((x) => x.body)).toMatchObject({ state: 'Opened', closeInfo: null });
            expect(jobStates(hub, ret.id).every((s) => s === 'Failed')).toBe(true);
            expect(r.receiptsOf(ret.id)).toHaveLength(0);
          }
        } finally {
          await hub.call('DELETE', `/api/fiscaldevices/DT2${variant}`);
          await other.close();
        }
      });
    });
  }
});
