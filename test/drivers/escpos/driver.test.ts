import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SerialPortMock } from 'serialport';
import { EscPosPrinter, type EscPosPrinterOptions } from '../../../drivers/escpos/driver.js';
import { render } from '../../../drivers/escpos/document.js';
import { PROFILES, type PrinterProfile } from '../../../drivers/escpos/profiles.js';
import type { SerialBinding } from '../../../drivers/transport/index.js';
import { FakeEscPosPrinter } from '../../support/fake-escpos-printer.js';

const FAST: EscPosPrinterOptions = {
  channel: { connectTimeoutMs: 500, writeTimeoutMs: 500 },
  backoff: { initialMs: 10, maxMs: 50, factor: 2 },
  statusTimeoutMs: 200,
  confirmTimeoutMs: 500,
  stallPollMs: 20,
};

const job = (title: string, lines = 1, profile: PrinterProfile = PROFILES.TM88) =>
  render({ blocks: [{ kind: 'text', text: title }, ...Array.from({ length: lines - 1 }, (_, i) => ({ kind: 'text' as const, text: `line ${i + 2}` }))] }, profile);

let fake: FakeEscPosPrinter;
let printer: EscPosPrinter;

/** Paper runs out after the first line: the job is held (onStall), then confirmed once refilled (onResume). */
async function holdsStalledJob(profile: PrinterProfile): Promise<void> {
  fake.lineDelayMs = 15;
  let stalls = 0;
  let resumed = 0;
  fake.once('line', () => fake.setPaperOut(true));
  const printing = printer.print(job('Line 1', 6, profile), { onStall: (e) => (stalls += e.code === 'PAPER_OUT' ? 1 : 100), onResume: () => resumed++ });
  await fake.waitFor(() => stalls === 1);
  expect(fake.cutTickets()).toEqual([]);
  fake.setPaperOut(false);
  await printing;
  expect(resumed).toBe(1);
  expect(fake.cutTickets()).toEqual([['Line 1', 'line 2', 'line 3', 'line 4', 'line 5', 'line 6']]);
}

/** A fake printer of `dialect` and the driver speaking to it, for each test of the block. */
function connectEach(dialect: 'escpos' | 'star') {
  beforeEach(async () => {
    fake = await FakeEscPosPrinter.start(0, { dialect });
    printer = new EscPosPrinter(fake.address, { ...FAST, dialect });
  });
  afterEach(async () => {
    await printer.close();
    await fake.close();
  });
}

describe('ESC/POS driver against the fake printer', () => {
  connectEach('escpos');

  it('asks the status, sends the job with GS r after it, and resolves on the GS r reply', async () => {
    const sent: string[] = [];
    const state = await printer.print(job('Gulyás'), {
      // The hub waits here until the job's record is on disk: no byte of the job may go out before.
      beforeSend: async () => {
        await new Promise((r) => setTimeout(r, 30));
        sent.push(`before, ${fake.rawBytes.length} bytes at the printer`);
      },
    });
    expect(sent).toEqual(['before, 9 bytes at the printer']);
    expect(state).toMatchObject({ online: true, paper: 'ok', coverOpen: false });
    expect(fake.cutTickets()).toEqual([['Gulyás']]);
    const raw = fake.rawBytes;
    expect(raw.slice(0, 9)).toEqual([0x10, 4, 1, 0x10, 4, 2, 0x10, 4, 4]);
    expect(raw.slice(9)).toEqual([...job('Gulyás'), 0x1d, 0x72, 1]);
  });

  it('reports paper near end from the GS r reply', async () => {
    fake.nearEnd = true;
    expect((await printer.print(job('A'))).paper).toBe('low');
  });

  it('does not send to a printer out of paper (nothing sent, PAPER_OUT)', async () => {
    fake.setPaperOut(true);
    let called = false;
    await expect(printer.print(job('A'), { beforeSend: () => void (called = true) })).rejects.toMatchObject({ code: 'PAPER_OUT', outcomeUnknown: false });
    expect(called).toBe(false);
    expect(fake.rawBytes).toHaveLength(9); // the status request only
    fake.setPaperOut(false);
    await printer.print(job('A'));
    expect(fake.cutTickets()).toEqual([['A']]);
  });

  it('does not send while the cover is open (COVER_OPEN)', async () => {
    fake.setCoverOpen(true);
    await expect(printer.print(job('A'))).rejects.toMatchObject({ code: 'COVER_OPEN', outcomeUnknown: false });
    expect(fake.tickets).toEqual([]);
  });

  it('answers OFFLINE for a printer that refuses connections, then backs off', async () => {
    await fake.setRefusing(true);
    await expect(printer.print(job('A'))).rejects.toMatchObject({ code: 'OFFLINE', outcomeUnknown: false });
    expect(printer.connection.state).toBe('offline');
    expect(printer.connection.retryInMs()).toBeGreaterThan(0);
  });

  it('times out a printer that accepts but never reads, with nothing sent', async () => {
    fake.setNeverRead(true);
    await expect(printer.print(job('A'))).rejects.toMatchObject({ code: 'TIMEOUT', outcomeUnknown: false });
    expect(fake.tickets).toEqual([]);
  });

  it('reports a connection dropped mid-job as OFFLINE with the outcome unknown', async () => {
    fake.dropAfter = 9 + 20; // the status request, then 20 bytes of the job
    await expect(printer.print(job('A fairly long kitchen ticket line', 3))).rejects.toMatchObject({ code: 'OFFLINE', outcomeUnknown: true });
    expect(fake.cutTickets()).toEqual([]);
  });

  it('holds a job that stopped on paper out mid-job, and confirms it once the paper is refilled', () => holdsStalledJob(PROFILES.TM88));

  it('gives up with the outcome unknown when a healthy printer never confirms', async () => {
    fake.lineDelayMs = 200; // 5 lines take a second, the deadline is 500 ms
    await expect(printer.print(job('slow', 5))).rejects.toMatchObject({ code: 'TIMEOUT', outcomeUnknown: true });
  });

  it('runs one job at a time, in call order', async () => {
    fake.lineDelayMs = 2;
    await Promise.all(['1', '2', '3', '4', '5'].map((n) => printer.print(job(`job ${n}`))));
    expect(fake.cutTickets()).toEqual([['job 1'], ['job 2'], ['job 3'], ['job 4'], ['job 5']]);
  });

  it('reads the status on request', async () => {
    fake.setCoverOpen(true);
    expect(await printer.status()).toMatchObject({ online: false, coverOpen: true });
  });

  it('prints on a printer that answers DLE EOT 1, 2 and 4 but not 3', async () => {
    fake.realtimeAnswers = new Set([1, 2, 4]);
    expect(await printer.print(job('Gulyás'))).toMatchObject({ online: true, paper: 'ok', error: null });
    expect(fake.cutTickets()).toEqual([['Gulyás']]);
  });

  it('asks DLE EOT 3 only when DLE EOT 2 reports an error, and names the error', async () => {
    fake.errorCause = 0x08; // autocutter
    await expect(printer.print(job('A'))).rejects.toMatchObject({ code: 'BUSY', vendorCode: 'AUTOCUTTER', outcomeUnknown: false });
    expect(fake.rawBytes).toEqual([0x10, 4, 1, 0x10, 4, 2, 0x10, 4, 4, 0x10, 4, 3]);
    expect(fake.tickets).toEqual([]);
  });

  it('holds the job of a printer in error that does not answer DLE EOT 3, then prints once it recovers', async () => {
    fake.realtimeAnswers = new Set([1, 2, 4]);
    fake.errorCause = 0x20;
    await expect(printer.print(job('A'))).rejects.toMatchObject({ code: 'BUSY', vendorCode: 'UNSPECIFIED', outcomeUnknown: false });
    expect(fake.tickets).toEqual([]);
    fake.errorCause = 0;
    await printer.print(job('A'));
    expect(fake.cutTickets()).toEqual([['A']]);
  });
});

describe('Star Line mode: ESC ACK SOH status, ETB confirmation', () => {
  connectEach('star');
  const starJob = (title: string, lines = 1) => job(title, lines, PROFILES.TSP650);
  const ASK = [0x1b, 0x06, 0x01];

  it('asks the automatic status, sends the job with ETB after it (no GS r), and resolves once the ETB counter moved', async () => {
    fake.etbCounter = 31; // the 5-bit counter wraps to 0 on this job
    const state = await printer.print(starJob('Šopský šalát'));
    expect(state).toMatchObject({ online: true, paper: 'ok', coverOpen: false });
    expect(fake.cutTickets()).toEqual([['Šopský šalát']]);
    expect(fake.etbCounter).toBe(0);
    const raw = fake.rawBytes;
    expect(raw.slice(0, 3)).toEqual(ASK);
    expect(raw.slice(3, 3 + starJob('Šopský šalát').length + 1)).toEqual([...starJob('Šopský šalát'), 0x17]);
    // Then only status requests: the driver asked until the printer had counted the ETB.
    const after = raw.slice(3 + starJob('Šopský šalát').length + 1);
    expect(after.length % 3).toBe(0);
    expect(after.length).toBeGreaterThan(0);
    for (let i = 0; i < after.length; i += 3) expect(after.slice(i, i + 3)).toEqual(ASK);
    expect(Buffer.from(raw).includes(Buffer.from([0x1d, 0x72, 1]))).toBe(false);
  });

  it('takes the status the printer sends by itself when automatic status is on, and the Ethernet length after it', async () => {
    fake.starAsb = true;
    fake.starEthernetLength = true;
    fake.lineDelayMs = 2;
    await printer.print(starJob('A', 3));
    await printer.print(starJob('B'));
    expect(fake.cutTickets()).toEqual([['A', 'line 2', 'line 3'], ['B']]);
    expect(fake.etbCounter).toBe(2);
  });

  it('reports paper near end, and does not send to a printer out of paper or open', async () => {
    fake.nearEnd = true;
    expect((await printer.print(starJob('A'))).paper).toBe('low');
    fake.setPaperOut(true);
    const before = fake.rawBytes.length;
    await expect(printer.print(starJob('B'))).rejects.toMatchObject({ code: 'PAPER_OUT', outcomeUnknown: false });
    expect(fake.rawBytes.slice(before)).toEqual(ASK);
    fake.setPaperOut(false);
    fake.setCoverOpen(true);
    await expect(printer.print(starJob('B'))).rejects.toMatchObject({ code: 'COVER_OPEN', outcomeUnknown: false });
    expect(await printer.status()).toMatchObject({ online: false, coverOpen: true });
  });

  it('holds a job that stopped on paper out mid-job, and confirms it once the paper is refilled', () => holdsStalledJob(PROFILES.TSP650));

  it('gives up with the outcome unknown when the connection drops before the ETB is counted', async () => {
    fake.dropBeforeConfirm = 1;
    await expect(printer.print(starJob('A'))).rejects.toMatchObject({ outcomeUnknown: true });
    expect(fake.cutTickets()).toEqual([['A']]);
  });
});

describe('ESC/POS driver over serial (MockBinding)', () => {
  it('prints over a serial port with the same status and confirmation exchange', async () => {
    const MockBinding = SerialPortMock.binding;
    MockBinding.reset();
    MockBinding.createPort('/dev/ttyUSB0', { record: true });
    const writes: number[] = [];
    // The device side: answer each DLE EOT with "all well" and GS r with "paper present".
    const binding = {
      ...MockBinding,
      async open(options: Parameters<typeof MockBinding.open>[0]) {
        const port = await MockBinding.open(options);
        const write = port.write.bind(port);
        port.write = async (buffer: Buffer) => {
          await write(buffer);
          writes.push(...buffer);
          for (let i = 0; i + 2 < buffer.length; i++) {
            if (buffer[i] === 0x10 && buffer[i + 1] === 4) port.emitData(Buffer.from([0x12]));
            if (buffer[i] === 0x1d && buffer[i + 1] === 0x72) port.emitData(Buffer.from([0x00]));
          }
        };
        return port;
      },
    } as SerialBinding;
    const serial = new EscPosPrinter('serial:/dev/ttyUSB0?baudRate=19200', { ...FAST, channel: { ...FAST.channel, binding } });
    try {
      await serial.print(job('Serial'));
      expect(writes.slice(9)).toEqual([...job('Serial'), 0x1d, 0x72, 1]);
    } finally {
      await serial.close();
      MockBinding.reset();
    }
  });
});
