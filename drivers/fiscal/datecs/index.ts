/** The `datecs` fiscal driver as the hub knows it (drivers/fiscal/driver.ts): Datecs ISL printers over TCP or serial. */
import { parseAddress } from '../../transport/address.js';
import { fiscalDriver } from '../driver.js';
import { checkSettings, DatecsFiscalDevice } from './driver.js';

export const datecs = fiscalDriver({
  name: 'datecs',
  label: { en: 'Datecs fiscal printer', sk: 'Fiškálna tlačiareň Datecs', cs: 'Fiskální tiskárna Datecs' },
  address: {
    example: 'tcp://192.168.1.60:4999',
    hint: {
      en: 'Like tcp://192.168.1.60:4999 or serial:/dev/ttyUSB0?baudRate=115200',
      sk: 'Napríklad tcp://192.168.1.60:4999 alebo serial:/dev/ttyUSB0?baudRate=115200',
      cs: 'Například tcp://192.168.1.60:4999 nebo serial:/dev/ttyUSB0?baudRate=115200',
    },
    check: (address) => void parseAddress(address),
  },
  settings: { check: checkSettings },
  create: (config, deps) =>
    new DatecsFiscalDevice({ name: config.name, address: config.address, settings: config.settings, clock: deps.clock, channel: deps.channel, timeZone: deps.timeZone }),
});
