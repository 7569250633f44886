/** Settings › Devices › Kitchen printers and displays: the order endpoints, their model and what they get. */
import { Editor } from '../../components/Editor';
import { Field, type AnyForm } from '../../components/Field';
import { useAll, useOptions } from '../../lib/data';
import { messages } from '../../../shared/i18n';
import { ENUMS, options } from '../../lib/enums';
import type { Category, OrderEndpoint } from '../../../shared/types';
import { endpointTypeWord } from '../../lib/device-words';
import { active, OtherSettings, Section, withSettings, yesNo } from './section';

const t = messages({
  active: { en: 'Active', sk: 'Aktívny', cs: 'Aktivní' },
  state: { en: 'State', sk: 'Stav', cs: 'Stav' },
  name: { en: 'Name', sk: 'Názov', cs: 'Název' },
  none: { en: 'None', sk: 'Žiadna', cs: 'Žádná' },
  address: { en: 'Address', sk: 'Adresa', cs: 'Adresa' },
  printersTitle: { en: 'Kitchen printers and displays', sk: 'Kuchynské tlačiarne a displeje', cs: 'Kuchyňské tiskárny a displeje' },
  printer: { en: 'Printer', sk: 'Tlačiareň', cs: 'Tiskárna' },
  newPrinter: { en: 'New printer', sk: 'Nová tlačiareň', cs: 'Nová tiskárna' },
  newKitchenPrinter: { en: 'New kitchen printer', sk: 'Nová kuchynská tlačiareň', cs: 'Nová kuchyňská tiskárna' },
  model: { en: 'Model', sk: 'Model', cs: 'Model' },
  noKitchenPrinters: { en: 'No kitchen printers', sk: 'Žiadne kuchynské tlačiarne', cs: 'Žádné kuchyňské tiskárny' },
  printerAddressCheck: { en: 'Like tcp://192.168.1.50:9100 or serial:/dev/ttyUSB0?baudRate=19200', sk: 'Napríklad tcp://192.168.1.50:9100 alebo serial:/dev/ttyUSB0?baudRate=19200', cs: 'Například tcp://192.168.1.50:9100 nebo serial:/dev/ttyUSB0?baudRate=19200' },
  printerAddressHint: { en: 'tcp://192.168.1.50:9100 for a network printer, serial:/dev/ttyUSB0?baudRate=19200 for a cable.', sk: 'tcp://192.168.1.50:9100 pre sieťovú tlačiareň, serial:/dev/ttyUSB0?baudRate=19200 pre kábel.', cs: 'tcp://192.168.1.50:9100 pro síťovou tiskárnu, serial:/dev/ttyUSB0?baudRate=19200 pro kabel.' },
  inactivePrinterHint: { en: 'An inactive printer gets no orders.', sk: 'Neaktívna tlačiareň nedostáva objednávky.', cs: 'Neaktivní tiskárna nedostává objednávky.' },
  routing: { en: 'What it gets', sk: 'Čo dostáva', cs: 'Co dostává' },
  routedCategories: { en: 'Every product of these categories', sk: 'Každý produkt týchto kategórií', cs: 'Každý produkt těchto kategorií' },
  routedCategoriesHint: { en: 'Besides the products that name this printer themselves.', sk: 'Okrem produktov, ktoré túto tlačiareň uvádzajú samy.', cs: 'Kromě produktů, které tuto tiskárnu uvádějí samy.' },
  noCategories: { en: 'No categories yet (Catalog › Categories).', sk: 'Zatiaľ žiadne kategórie (Katalóg › Kategórie).', cs: 'Zatím žádné kategorie (Katalog › Kategorie).' },
  mirrorOf: { en: 'Also everything that this one gets', sk: 'Aj všetko, čo dostáva', cs: 'Také vše, co dostává' },
  mirrorOfHint: { en: 'A display beside a printer shows what the printer prints, and goes on doing so as the menu changes.', sk: 'Displej pri tlačiarni ukazuje, čo tlačiareň tlačí, aj keď sa menu zmení.', cs: 'Displej u tiskárny ukazuje, co tiskárna tiskne, i když se menu změní.' },
  kitchenTicket: { en: 'Kitchen ticket', sk: 'Kuchynský lístok', cs: 'Kuchyňský lístek' },
  beep: { en: 'Beep on a new order', sk: 'Pípnuť pri novej objednávke', cs: 'Pípnout při nové objednávce' },
  highlight: { en: 'Highlight the order number', sk: 'Zvýrazniť číslo objednávky', cs: 'Zvýraznit číslo objednávky' },
  tall: { en: 'Tall letters', sk: 'Vysoké písmo', cs: 'Vysoké písmo' },
  wideLetters: { en: 'Wide letters', sk: 'Široké písmo', cs: 'Široké písmo' },
});

const PRINTER_SETTINGS = ['IsBeepEnabled', 'HighlightOrderNumber', 'DoubleHeightFont', 'DoubleWidthFont'];

export function Printers() {
  return (
    <Section<OrderEndpoint>
      title={t('printersTitle')}
      resource="orderendpoints"
      createRight="OrderEndpointCreate"
      newLabel={t('newPrinter')}
      rowKey={(p) => p.name}
      columns={[
        { id: 'name', title: t('name'), sort: 'name', render: (p) => <b>{p.name}</b> },
        { id: 'type', title: t('model'), sort: 'type', render: (p) => endpointTypeWord(p.type) },
        { id: 'address', title: t('address'), render: (p) => <span class="mono">{p.address || '—'}</span> },
        { id: 'active', title: t('state'), render: (p) => active(p.isActive) },
      ]}
      empty={{ title: t('noKitchenPrinters') }}
      editor={(key, close) => (
        <Editor<OrderEndpoint>
          resource="orderendpoints"
          editKey={key}
          noun={t('printer')}
          wide
          title={(v, isNew) => (isNew ? t('newKitchenPrinter') : v.name)}
          defaults={{ name: '', isActive: true, type: ENUMS.orderEndpointType[0], address: 'tcp://', settings: {}, categoryNames: [], mirrorOf: null }}
          rights={{ create: 'OrderEndpointCreate', update: 'OrderEndpointUpdate', delete: 'OrderEndpointDelete' }}
          toBody={withSettings}
          onClose={close}
        >
          {(form, { isNew }) => (
            <>
              <div class="form-grid">
                <Field form={form} name="name" label={t('name')} required disabled={!isNew} />
                <Field form={form} name="type" label={t('model')} kind="select" options={options(ENUMS.orderEndpointType, endpointTypeWord)} required />
                <Field
                  form={form}
                  name="address"
                  label={t('address')}
                  wide
                  required={form.values.type !== 'Tablet'}
                  validate={(v, all) => (all.type !== 'Tablet' && typeof v === 'string' && !/^(tcp:\/\/[^\s/:]+(:\d{1,5})?|serial:\S+)$/.test(v) ? t('printerAddressCheck') : null)}
                  hint={t('printerAddressHint')}
                />
                <Field form={form} name="isActive" label={t('active')} kind="switch" hint={t('inactivePrinterHint')} />
              </div>
              <h3>{t('routing')}</h3>
              <PrinterRouting form={form as unknown as AnyForm} self={isNew ? null : (form.values.name ?? null)} />
              <h3>{t('kitchenTicket')}</h3>
              <div class="form-grid">
                <Field form={form} name="settings.IsBeepEnabled" label={t('beep')} kind="select" options={yesNo()} />
                <Field form={form} name="settings.HighlightOrderNumber" label={t('highlight')} kind="select" options={yesNo()} />
                <Field form={form} name="settings.DoubleHeightFont" label={t('tall')} kind="select" options={yesNo()} />
                <Field form={form} name="settings.DoubleWidthFont" label={t('wideLetters')} kind="select" options={yesNo()} />
                <OtherSettings form={form} known={PRINTER_SETTINGS} />
              </div>
            </>
          )}
        </Editor>
      )}
    />
  );
}

/** What an order endpoint gets beyond the plus that name it: whole categories, and what another endpoint gets. */
export function PrinterRouting({ form, self }: { form: AnyForm; self: string | null }) {
  const categories = useAll<Category>('categories', { sort: 'order,name' });
  const endpoints = useOptions<OrderEndpoint>('orderendpoints', (p) => p.name);
  const cats = (categories.data ?? []).map((c) => ({ value: c.name, label: c.name }));
  return (
    <div class="form-grid">
      <Field form={form} name="categoryNames" label={t('routedCategories')} kind="checklist" options={cats} hint={cats.length ? t('routedCategoriesHint') : t('noCategories')} wide />
      <Field form={form} name="mirrorOf" label={t('mirrorOf')} kind="select" emptyOption={t('none')} nullable options={endpoints.filter((o) => o.value !== self)} hint={t('mirrorOfHint')} testId="printer-mirror" />
    </div>
  );
}
