/** The `escpos` fiscal driver as the hub knows it (drivers/fiscal/driver.ts): a plain receipt printer, the hub keeping the fiscal memory. */
import { parseAddress } from '../../transport/address.js';
import { fiscalDriver } from '../driver.js';
import { checkEscPosSettings, EscPosFiscalDevice } from './driver.js';

export const escpos = fiscalDriver({
  name: 'escpos',
  label: { en: 'Receipt printer (ESC/POS)', sk: 'Tlačiareň dokladov (ESC/POS)', cs: 'Tiskárna dokladů (ESC/POS)' },
  address: {
    example: 'tcp://192.168.1.70:9100',
    hint: {
      en: 'Like tcp://192.168.1.70:9100 or serial:/dev/ttyUSB0?baudRate=19200',
      sk: 'Napríklad tcp://192.168.1.70:9100 alebo serial:/dev/ttyUSB0?baudRate=19200',
      cs: 'Například tcp://192.168.1.70:9100 nebo serial:/dev/ttyUSB0?baudRate=19200',
    },
    check: (address) => void parseAddress(address),
  },
  settings: { check: checkEscPosSettings },
  create: (config, deps) =>
    new EscPosFiscalDevice({ name: config.name, address: config.address, settings: config.settings, store: deps.store, clock: deps.clock, hubId: deps.hubId }),
});
