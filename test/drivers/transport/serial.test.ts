import { SerialPortMock } from 'serialport';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openChannel, type SerialBinding } from '../../../drivers/transport/index.js';

// serialport re-exports @serialport/binding-mock, whose own package exports carry no types.
const MockBinding = SerialPortMock.binding;
type MockPortBinding = Awaited<ReturnType<typeof MockBinding.open>>;

/**
 * MockBinding, with a handle on each port it opens so the test can play the device, and `unplug`,
 * which fails the port's pending read the way a vanished USB adapter does (the mock has no such fault).
 */
function recordingBinding(): { binding: SerialBinding; ports: MockPortBinding[]; unplug: () => void } {
  const ports: MockPortBinding[] = [];
  let unplug = () => {};
  const unplugged = new Promise<never>((_, reject) => (unplug = () => reject(new Error('device disconnected'))));
  unplugged.catch(() => {});
  const binding = {
    ...MockBinding,
    async open(options: Parameters<typeof MockBinding.open>[0]) {
      const port = await MockBinding.open(options);
      const read = port.read.bind(port);
      port.read = (...args) => Promise.race([read(...args), unplugged]);
      ports.push(port);
      return port;
    },
  } as SerialBinding;
  return { binding, ports, unplug: () => unplug() };
}

beforeEach(() => {
  MockBinding.reset();
  MockBinding.createPort('/dev/ttyUSB0', { record: true });
});

afterEach(() => MockBinding.reset());

describe('serial channel (MockBinding)', () => {
  it('opens with the address settings, writes bytes to the port and reads what the device sends', async () => {
    const { binding, ports } = recordingBinding();
    const ch = await openChannel('serial:/dev/ttyUSB0?baudRate=19200&parity=even&stopBits=2', { binding, connectTimeoutMs: 500, writeTimeoutMs: 500 });
    expect(ch.address).toBe('serial:/dev/ttyUSB0?baudRate=19200');
    const [port] = ports;
    expect(port.openOptions).toMatchObject({ path: '/dev/ttyUSB0', baudRate: 19200, parity: 'even', stopBits: 2, dataBits: 8 });

    await ch.write(Uint8Array.from([0x1b, 0x40, 0x10, 0x04, 0x01]));
    expect([...port.recording]).toEqual([0x1b, 0x40, 0x10, 0x04, 0x01]);

    port.emitData(Buffer.from([0x12]));
    expect([...(await ch.read(1, 500))]).toEqual([0x12]);
    await ch.close();
    expect(ch.isOpen).toBe(false);
    expect(port.isOpen).toBe(false);
  });

  it('answers OFFLINE for a port that does not exist', async () => {
    const { binding } = recordingBinding();
    await expect(openChannel('serial:/dev/ttyUSB9', { binding, connectTimeoutMs: 500 })).rejects.toMatchObject({ code: 'OFFLINE' });
  });

  it('gives up on an open that never completes after the connect timeout', async () => {
    const hanging = { ...MockBinding, open: () => new Promise<never>(() => {}) } as unknown as SerialBinding;
    // The open never completes: only the connect timeout can end this (else the test times out).
    await expect(openChannel('serial:/dev/ttyUSB0', { binding: hanging, connectTimeoutMs: 80 })).rejects.toMatchObject({ code: 'OFFLINE', message: expect.stringMatching(/not open within 80 ms/) });
  });

  it('times out a read the device never answers', async () => {
    const { binding } = recordingBinding();
    const ch = await openChannel('serial:/dev/ttyUSB0', { binding });
    await expect(ch.read(1, 50)).rejects.toMatchObject({ code: 'TIMEOUT' });
    await ch.close();
  });

  it('reports the port going away (unplugged adapter) as a close with the pending read failed', async () => {
    const { binding, unplug } = recordingBinding();
    const ch = await openChannel('serial:/dev/ttyUSB0', { binding });
    const closed = new Promise((r) => ch.on('close', r));
    const pending = ch.read(4, 2000);
    unplug();
    await expect(pending).rejects.toMatchObject({ code: 'OFFLINE' });
    await closed;
    expect(ch.isOpen).toBe(false);
  });
});
