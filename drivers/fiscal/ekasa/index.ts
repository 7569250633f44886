/** The `ekasa` fiscal driver as the hub knows it (drivers/fiscal/driver.ts): Slovak eKasa through a certified local service. */
import { AddressError } from '../../transport/address.js';
import { fiscalDriver } from '../driver.js';
import { checkEkasaSettings, EkasaFiscalDevice } from './driver.js';
import { roundCash } from '../cash-rounding.js';

export const ekasa = fiscalDriver({
  name: 'ekasa',
  label: { en: 'eKasa (PORTOS local API)', sk: 'eKasa (lokálne API PORTOS)', cs: 'eKasa (lokální API PORTOS)' },
  address: {
    example: 'http://192.168.1.80:3010',
    hint: {
      en: "The eKasa service's address, like http://192.168.1.80:3010; sim:<any name> for a simulated one.",
      sk: 'Adresa služby eKasa, napríklad http://192.168.1.80:3010; sim:<ľubovoľný názov> pre simulovanú.',
      cs: 'Adresa služby eKasa, například http://192.168.1.80:3010; sim:<libovolný název> pro simulovanou.',
    },
    // The service's HTTP address, or sim:<name> for the simulated service (demos).
    check: (address) => {
      if (!/^(https?:\/\/[^/\s?#]+\/?|sim:.+)$/.test(address)) throw new AddressError(`'${address}' is neither http://host:port nor sim:<name>`, 'service', { value: address });
    },
  },
  settings: { check: checkEkasaSettings },
  cashRounding: roundCash,
  create: (config, deps) =>
    new EkasaFiscalDevice({ name: config.name, address: config.address, settings: config.settings, clock: deps.clock, store: deps.store, unanswered: deps.unanswered }),
});
