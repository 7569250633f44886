/** The `datecs` fiscal driver as the hub knows it (drivers/fiscal/driver.ts): Datecs ISL printers over TCP or serial. */
import { fiscalDriver, transportAddress } from '../driver.js';
import { checkSettings, DatecsFiscalDevice } from './driver.js';

export const datecs = fiscalDriver({
  name: 'datecs',
  label: { en: 'Datecs fiscal printer', sk: 'Fiškálna tlačiareň Datecs', cs: 'Fiskální tiskárna Datecs' },
  address: transportAddress('tcp://192.168.1.60:4999', 'serial:/dev/ttyUSB0?baudRate=115200'),
  settings: { check: checkSettings },
  create: (config, deps) =>
    new DatecsFiscalDevice({ name: config.name, address: config.address, settings: config.settings, clock: deps.clock, channel: deps.channel, timeZone: deps.timeZone }),
});
