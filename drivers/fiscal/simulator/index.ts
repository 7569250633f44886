/** The `simulator` fiscal driver as the hub knows it (drivers/fiscal/driver.ts): an in-process fiscal device for demos and tests. */
import { AddressError } from '../../transport/address.js';
import { fiscalDriver } from '../driver.js';
import { SimulatorFiscalDevice } from './driver.js';

export const simulator = fiscalDriver({
  name: 'simulator',
  label: { en: 'Simulator (demo)', sk: 'Simulátor (ukážka)', cs: 'Simulátor (ukázka)' },
  address: {
    example: 'sim:fp1',
    hint: { en: 'The simulator takes sim:<any name>.', sk: 'Simulátor má adresu sim:<ľubovoľný názov>.', cs: 'Simulátor má adresu sim:<libovolný název>.' },
    check: (address) => {
      if (!/^sim:.+/.test(address)) throw new AddressError(`'${address}' is not sim:<name>`, 'simulated', { value: address });
    },
  },
  // It takes any settings and reads none.
  settings: { check: () => {} },
  create: (config, deps) => new SimulatorFiscalDevice(config.name, deps.store, deps.clock),
});
