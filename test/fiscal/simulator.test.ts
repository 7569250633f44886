/** The simulator fiscal device keeps a bounded journal: a shop or the bench may run on it for days. */
import { describe, expect, it } from 'vitest';
import { JOURNAL_KEEP, SimulatorFiscalDevice } from '../../drivers/fiscal/simulator/driver.js';
import { sampleReceipt } from '../support/receipt.js';

describe('simulator fiscal memory serial', () => {
  it('differs between devices whose names begin alike, and stays the same for one device', async () => {
    const serial = async (name: string) => (await new SimulatorFiscalDevice(name, undefined).info()).fiscalMemorySerialNumber;
    const [one, two] = [await serial('Pokladňa 1'), await serial('Pokladňa 2')];
    expect(one).toMatch(/^SIM[0-9A-F]{8}$/);
    expect(two).not.toBe(one);
    expect(await serial('Pokladňa 1')).toBe(one);
    const receipt = await new SimulatorFiscalDevice('Pokladňa 2', undefined).printReceipt(sampleReceipt(), 'job1');
    expect(receipt.fiscalMemorySerialNumber).toBe(two);
  });
});

describe('simulator journal', () => {
  it(`keeps the newest ${JOURNAL_KEEP} receipts in memory while numbering and totals go on`, async () => {
    const sim = new SimulatorFiscalDevice('S1', undefined, () => new Date('2026-11-21T10:00:00Z'));
    const issued = JOURNAL_KEEP + 5;
    for (let n = 1; n <= issued; n++) expect((await sim.printReceipt(sampleReceipt({ reference: `t${n}` }), `job${n}`)).number).toBe(n);
    expect(sim.journal).toHaveLength(JOURNAL_KEEP);
    expect(sim.journal[0]).toMatchObject({ number: 6, jobId: 'job6' });
    expect(sim.journal.at(-1)).toMatchObject({ number: issued, jobId: `job${issued}`, receipt: { reference: `t${issued}` } });
    expect(await sim.lastDocument()).toMatchObject({ number: issued, amount: '13.80' });
  });
});
