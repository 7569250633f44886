/** The `escpos` fiscal driver as the hub knows it (drivers/fiscal/driver.ts): a plain receipt printer, the hub keeping the fiscal memory. */
import { fiscalDriver, transportAddress } from '../driver.js';
import { checkEscPosSettings, EscPosFiscalDevice } from './driver.js';

export const escpos = fiscalDriver({
  name: 'escpos',
  label: { en: 'Receipt printer (ESC/POS)', sk: 'Tlačiareň dokladov (ESC/POS)', cs: 'Tiskárna dokladů (ESC/POS)' },
  address: transportAddress('tcp://192.168.1.70:9100', 'serial:/dev/ttyUSB0?baudRate=19200'),
  settings: { check: checkEscPosSettings },
  create: (config, deps) =>
    new EscPosFiscalDevice({ name: config.name, address: config.address, settings: config.settings, store: deps.store, clock: deps.clock, hubId: deps.hubId, timeZone: deps.timeZone }),
});
