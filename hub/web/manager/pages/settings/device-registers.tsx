/** Settings › Devices › Registers: the devices staff log in on, and where their receipts and bills go. */
import { Editor } from '../../components/Editor';
import { Field } from '../../components/Field';
import { useOptions } from '../../lib/data';
import { checks } from '../../lib/form';
import { messages } from '../../../shared/i18n';
import { ENUMS, options } from '../../lib/enums';
import type { Device, FiscalDevice, OrderEndpoint, Stock } from '../../../shared/types';
import { envWord } from '../../lib/device-words';
import { active, OtherSettings, Section, withSettings, yesNo } from './section';

const t = messages({
  active: { en: 'Active', sk: 'Aktívny', cs: 'Aktivní' },
  state: { en: 'State', sk: 'Stav', cs: 'Stav' },
  name: { en: 'Name', sk: 'Názov', cs: 'Název' },
  none: { en: 'None', sk: 'Žiadna', cs: 'Žádná' },
  // A stock (sklad) is masculine in Slovak and Czech; a printer (tlačiareň, tiskárna) feminine.
  noStock: { en: 'None', sk: 'Žiadny', cs: 'Žádný' },
  enterNumber: { en: 'Enter a number.', sk: 'Zadajte číslo.', cs: 'Zadejte číslo.' },
  registersAndOther: { en: 'Registers and other devices', sk: 'Pokladne a iné zariadenia', cs: 'Pokladny a jiná zařízení' },
  device: { en: 'Device', sk: 'Zariadenie', cs: 'Zařízení' },
  newDevice: { en: 'New device', sk: 'Nové zariadenie', cs: 'Nové zařízení' },
  kind: { en: 'Kind', sk: 'Druh', cs: 'Druh' },
  receiptsOn: { en: 'Receipts on', sk: 'Doklady na', cs: 'Doklady na' },
  billsOn: { en: 'Bills on', sk: 'Účty na', cs: 'Účty na' },
  noDevices: { en: 'No devices', sk: 'Žiadne zariadenia', cs: 'Žádná zařízení' },
  deviceNameHint: { en: 'Staff pick this name when they log in on the device.', sk: 'Personál vyberá tento názov pri prihlásení na zariadení.', cs: 'Personál vybírá tento název při přihlášení na zařízení.' },
  description: { en: 'Description', sk: 'Popis', cs: 'Popis' },
  settings: { en: 'Settings', sk: 'Nastavenia', cs: 'Nastavení' },
  fiscalForReceipts: { en: 'Fiscal printer for receipts', sk: 'Fiškálna tlačiareň na doklady', cs: 'Fiskální tiskárna na doklady' },
  printerForBills: { en: 'Printer for bills', sk: 'Tlačiareň na účty', cs: 'Tiskárna na účty' },
  stockSells: { en: 'Stock it sells from', sk: 'Sklad, z ktorého predáva', cs: 'Sklad, ze kterého prodává' },
  maxQuantity: { en: 'Largest quantity per item', sk: 'Najväčšie množstvo na položku', cs: 'Největší množství na položku' },
  openedPrices: { en: 'Staff may type prices', sk: 'Personál smie zadať cenu', cs: 'Personál smí zadat cenu' },
  lockAfter: { en: 'Lock after idle (seconds)', sk: 'Zamknúť po nečinnosti (sekundy)', cs: 'Zamknout po nečinnosti (sekundy)' },
  lockAfterHint: { en: 'The register asks for a PIN again. Empty: 60; 0: never.', sk: 'Pokladňa si znova vypýta PIN. Prázdne: 60; 0: nikdy.', cs: 'Pokladna si znovu vyžádá PIN. Prázdné: 60; 0: nikdy.' },
  enterSeconds: { en: 'Enter whole seconds, 0 to 86400.', sk: 'Zadajte celé sekundy, 0 až 86400.', cs: 'Zadejte celé sekundy, 0 až 86400.' },
});

const REGISTER_SETTINGS = ['DefaultFiscalName', 'DefaultOrderEndpointName', 'DefaultStockName', 'MaxQuantity', 'OpenedPrices', 'LockAfterSeconds'];

export function Registers() {
  const fiscal = useOptions<FiscalDevice>('fiscaldevices', (f) => f.name);
  const printers = useOptions<OrderEndpoint>('orderendpoints', (p) => p.name);
  const stocks = useOptions<Stock>('stocks', (s) => s.name);
  return (
    <Section<Device>
      title={t('registersAndOther')}
      resource="devices"
      createRight="DeviceCreate"
      newLabel={t('newDevice')}
      rowKey={(d) => d.name}
      columns={[
        { id: 'name', title: t('name'), sort: 'name', render: (d) => <b>{d.name}</b> },
        { id: 'env', title: t('kind'), sort: 'envName', render: (d) => envWord(d.envName) },
        { id: 'fiscal', title: t('receiptsOn'), render: (d) => d.settings.DefaultFiscalName || '—', secondary: true },
        { id: 'printer', title: t('billsOn'), render: (d) => d.settings.DefaultOrderEndpointName || '—', secondary: true },
        { id: 'active', title: t('state'), render: (d) => active(d.isActive) },
      ]}
      empty={{ title: t('noDevices') }}
      editor={(key, close) => (
        <Editor<Device>
          resource="devices"
          editKey={key}
          noun={t('device')}
          wide
          title={(v, isNew) => (isNew ? t('newDevice') : v.name)}
          defaults={{ name: '', isActive: true, envName: 'CashRegister', description: '', roles: [], preferences: {}, settings: {} }}
          rights={{ create: 'DeviceCreate', update: 'DeviceUpdate', delete: 'DeviceDelete' }}
          toBody={withSettings}
          onClose={close}
        >
          {(form, { isNew }) => (
            <>
              <div class="form-grid">
                <Field form={form} name="name" label={t('name')} required disabled={!isNew} hint={isNew ? t('deviceNameHint') : undefined} />
                <Field form={form} name="envName" label={t('kind')} kind="select" options={options(ENUMS.envName, envWord)} required />
                <Field form={form} name="description" label={t('description')} wide />
                <Field form={form} name="isActive" label={t('active')} kind="switch" />
              </div>
              <h3>{t('settings')}</h3>
              <div class="form-grid">
                <Field form={form} name="settings.DefaultFiscalName" label={t('fiscalForReceipts')} kind="select" emptyOption={t('none')} options={fiscal} />
                <Field form={form} name="settings.DefaultOrderEndpointName" label={t('printerForBills')} kind="select" emptyOption={t('none')} options={printers} />
                <Field form={form} name="settings.DefaultStockName" label={t('stockSells')} kind="select" emptyOption={t('noStock')} options={stocks} />
                <Field form={form} name="settings.MaxQuantity" label={t('maxQuantity')} validate={(v, all) => checks.pattern(/^\d+([.,]\d+)?$/, t('enterNumber'))(v, all)} />
                <Field form={form} name="settings.OpenedPrices" label={t('openedPrices')} kind="select" options={yesNo()} />
                <Field
                  form={form}
                  name="settings.LockAfterSeconds"
                  label={t('lockAfter')}
                  hint={t('lockAfterHint')}
                  validate={(v) => (typeof v === 'string' && v && !(/^\d{1,5}$/.test(v) && Number(v) <= 86_400) ? t('enterSeconds') : null)}
                />
                <OtherSettings form={form} known={REGISTER_SETTINGS} />
              </div>
            </>
          )}
        </Editor>
      )}
    />
  );
}
