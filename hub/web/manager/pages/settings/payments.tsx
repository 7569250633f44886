/** Settings › Payment types: what the registers take money as. */
import { Editor } from '../../components/Editor';
import { Field } from '../../components/Field';
import { messages, pick, type Entry } from '../../../shared/i18n';
import { ENUMS, options } from '../../lib/enums';
import type { PaymentType } from '../../../shared/types';
import { active, Section } from './section';

const t = messages({
  active: { en: 'Active', sk: 'Aktívny', cs: 'Aktivní' },
  state: { en: 'State', sk: 'Stav', cs: 'Stav' },
  name: { en: 'Name', sk: 'Názov', cs: 'Název' },
  yes: { en: 'Yes', sk: 'Áno', cs: 'Ano' },
  no: { en: 'No', sk: 'Nie', cs: 'Ne' },
  number: { en: 'Number', sk: 'Číslo', cs: 'Číslo' },
  numberShort: { en: 'No.', sk: 'Č.', cs: 'Č.' },
  category: { en: 'Category', sk: 'Kategória', cs: 'Kategorie' },
  paymentTypes: { en: 'Payment types', sk: 'Typy platieb', cs: 'Typy plateb' },
  paymentType: { en: 'Payment type', sk: 'Typ platby', cs: 'Typ platby' },
  newPaymentType: { en: 'New payment type', sk: 'Nový typ platby', cs: 'Nový typ platby' },
  paymentTypeN: { en: 'Payment type {n}', sk: 'Typ platby {n}', cs: 'Typ platby {n}' },
  givesChange: { en: 'Gives change', sk: 'Vydáva sa z nej', cs: 'Vrací se z ní' },
  noPaymentTypes: { en: 'No payment types', sk: 'Žiadne typy platieb', cs: 'Žádné typy plateb' },
  numberHint: { en: 'The registers refer to it by this number.', sk: 'Pokladne ho poznajú podľa tohto čísla.', cs: 'Pokladny ho znají podle tohoto čísla.' },
  changeHint: { en: 'An overpayment is handed back (cash).', sk: 'Preplatok sa vracia (hotovosť).', cs: 'Přeplatek se vrací (hotovost).' },
});

const CATEGORIES: Record<string, Entry> = {
  Cash: { en: 'Cash', sk: 'Hotovosť', cs: 'Hotovost' },
  CreditCard: { en: 'Card', sk: 'Platobná karta', cs: 'Platební karta' },
  Voucher: { en: 'Voucher', sk: 'Poukážka', cs: 'Poukázka' },
  Other: { en: 'Other', sk: 'Iné', cs: 'Jiné' },
};
const categoryLabel = (c: string) => (CATEGORIES[c] ? pick(CATEGORIES[c]) : c);

export function PaymentTypes() {
  return (
    <Section<PaymentType>
      title={t('paymentTypes')}
      resource="paymenttypes"
      createRight="PaymentTypeCreate"
      newLabel={t('newPaymentType')}
      rowKey={(p) => String(p.number)}
      columns={[
        { id: 'number', title: t('numberShort'), sort: 'number', align: 'right', render: (p) => p.number },
        { id: 'name', title: t('name'), render: (p) => <b>{p.name || categoryLabel(p.category)}</b> },
        { id: 'category', title: t('category'), sort: 'category', render: (p) => categoryLabel(p.category) },
        { id: 'change', title: t('givesChange'), render: (p) => (p.isChangeable ? t('yes') : t('no')) },
        { id: 'active', title: t('state'), render: (p) => active(p.isActive) },
      ]}
      empty={{ title: t('noPaymentTypes') }}
      editor={(key, close) => (
        <Editor<PaymentType>
          resource="paymenttypes"
          editKey={key}
          noun={t('paymentType')}
          title={(v, isNew) => (isNew ? t('newPaymentType') : v.name || t('paymentTypeN', { n: v.number }))}
          defaults={{ number: null as unknown as number, name: '', category: 'Cash', isChangeable: false, isActive: true }}
          rights={{ create: 'PaymentTypeCreate', update: 'PaymentTypeUpdate', delete: 'PaymentTypeDelete' }}
          onClose={close}
        >
          {(form, { isNew }) => (
            <div class="form-grid">
              <Field form={form} name="number" label={t('number')} kind="number" integer min={1} max={2147483647} required disabled={!isNew} hint={t('numberHint')} />
              <Field form={form} name="name" label={t('name')} required />
              <Field form={form} name="category" label={t('category')} kind="select" options={options(ENUMS.paymentCategory, categoryLabel)} required />
              <Field form={form} name="isChangeable" label={t('givesChange')} kind="switch" hint={t('changeHint')} />
              <Field form={form} name="isActive" label={t('active')} kind="switch" />
            </div>
          )}
        </Editor>
      )}
    />
  );
}
