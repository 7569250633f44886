/** Settings › Devices: registers, kitchen printers and fiscal printers, one kind at a time. */
import { Segmented } from '../../components/ui';
import { useQuery } from '../../lib/router';
import { FiscalPrinters } from './device-fiscal';
import { Printers } from './device-printers';
import { Registers } from './device-registers';
import { messages } from '../../../shared/i18n';

const t = messages({
  deviceKind: { en: 'Device kind', sk: 'Druh zariadenia', cs: 'Druh zařízení' },
  registers: { en: 'Registers', sk: 'Pokladne', cs: 'Pokladny' },
  kitchenPrinters: { en: 'Kitchen printers', sk: 'Kuchynské tlačiarne', cs: 'Kuchyňské tiskárny' },
  fiscalPrinters: { en: 'Fiscal printers', sk: 'Fiškálne tlačiarne', cs: 'Fiskální tiskárny' },
});

export function DeviceSettings() {
  const [q, setQuery] = useQuery();
  const kind = q.get('kind') ?? 'registers';
  return (
    <>
      <Segmented
        label={t('deviceKind')}
        value={kind}
        onChange={(v) => setQuery({ kind: v === 'registers' ? null : v, edit: null, page: null, sort: null })}
        options={[
          { value: 'registers', label: t('registers') },
          { value: 'printers', label: t('kitchenPrinters') },
          { value: 'fiscal', label: t('fiscalPrinters') },
        ]}
      />
      {kind === 'registers' && <Registers />}
      {kind === 'printers' && <Printers />}
      {kind === 'fiscal' && <FiscalPrinters />}
    </>
  );
}
