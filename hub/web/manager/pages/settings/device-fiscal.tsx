/**
 * Settings › Devices › Fiscal printers. The drivers, their labels and the form of their address are
 * what the drivers say of themselves (shared/drivers.ts, generated from drivers/fiscal); the hub checks
 * the address and the settings by the driver's own rules, and its refusal lands on the field.
 */
import { Editor } from '../../components/Editor';
import { Field } from '../../components/Field';
import { messages, pick } from '../../../shared/i18n';
import { ENUMS, options } from '../../lib/enums';
import type { FiscalDevice } from '../../../shared/types';
import { driverWord, fiscalDriver } from '../../lib/device-words';
import { active, OtherSettings, Section, withSettings } from './section';

const t = messages({
  active: { en: 'Active', sk: 'Aktívny', cs: 'Aktivní' },
  state: { en: 'State', sk: 'Stav', cs: 'Stav' },
  name: { en: 'Name', sk: 'Názov', cs: 'Název' },
  address: { en: 'Address', sk: 'Adresa', cs: 'Adresa' },
  fiscalPrinters: { en: 'Fiscal printers', sk: 'Fiškálne tlačiarne', cs: 'Fiskální tiskárny' },
  fiscalPrinter: { en: 'Fiscal printer', sk: 'Fiškálna tlačiareň', cs: 'Fiskální tiskárna' },
  newFiscalPrinter: { en: 'New fiscal printer', sk: 'Nová fiškálna tlačiareň', cs: 'Nová fiskální tiskárna' },
  driver: { en: 'Driver', sk: 'Ovládač', cs: 'Ovladač' },
  fiscalDay: { en: 'Fiscal day', sk: 'Fiškálny deň', cs: 'Fiskální den' },
  noFiscalPrinters: { en: 'No fiscal printers', sk: 'Žiadne fiškálne tlačiarne', cs: 'Žádné fiskální tiskárny' },
  fiscalMemory: { en: 'Fiscal memory {n}', sk: 'Fiškálna pamäť {n}', cs: 'Fiskální paměť {n}' },
});

const addressHint = (driver: string) => {
  const d = fiscalDriver(driver);
  return d ? pick(d.address.hint) : undefined;
};

export function FiscalPrinters() {
  return (
    <Section<FiscalDevice>
      title={t('fiscalPrinters')}
      resource="fiscaldevices"
      createRight="FiscalDeviceCreate"
      newLabel={t('newFiscalPrinter')}
      rowKey={(f) => f.name}
      columns={[
        { id: 'name', title: t('name'), sort: 'name', render: (f) => <b>{f.name}</b> },
        { id: 'driver', title: t('driver'), sort: 'driver', render: (f) => driverWord(f.driver) },
        { id: 'address', title: t('address'), render: (f) => <span class="mono">{f.address}</span> },
        { id: 'day', title: t('fiscalDay'), render: (f) => f.status?.dailySalesReportNumber ?? '—', secondary: true },
        { id: 'active', title: t('state'), render: (f) => active(f.isActive) },
      ]}
      empty={{ title: t('noFiscalPrinters') }}
      editor={(key, close) => (
        <Editor<FiscalDevice>
          resource="fiscaldevices"
          editKey={key}
          noun={t('fiscalPrinter')}
          wide
          title={(v, isNew) => (isNew ? t('newFiscalPrinter') : v.name)}
          subtitle={(v) => (v.status?.fiscalMemorySerialNumber ? t('fiscalMemory', { n: v.status.fiscalMemorySerialNumber }) : undefined)}
          defaults={{ name: '', isActive: true, driver: ENUMS.fiscalDriver[0], address: '', settings: {} }}
          rights={{ create: 'FiscalDeviceCreate', update: 'FiscalDeviceUpdate', delete: 'FiscalDeviceDelete' }}
          toBody={withSettings}
          onClose={close}
        >
          {(form, { isNew }) => (
            <div class="form-grid">
              <Field form={form} name="name" label={t('name')} required disabled={!isNew} />
              <Field form={form} name="driver" label={t('driver')} kind="select" options={options(ENUMS.fiscalDriver, driverWord)} required />
              <Field
                form={form}
                name="address"
                label={t('address')}
                required
                wide
                // The form the driver takes, as it says it itself; the hub checks the address (its refusal lands here).
                placeholder={fiscalDriver(form.values.driver)?.address.example}
                hint={addressHint(form.values.driver)}
              />
              <Field form={form} name="isActive" label={t('active')} kind="switch" />
              <OtherSettings form={form} known={[]} />
            </div>
          )}
        </Editor>
      )}
    />
  );
}
