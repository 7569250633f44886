/**
 * Settings › Numberings: the formats and periods document numbers are issued by (CONTRACT §7). The
 * format's rule and the next number's preview are the hub's own (hub/core/rules.ts).
 */
import { Editor } from '../../components/Editor';
import { Field } from '../../components/Field';
import { Rows } from '../../components/Rows';
import { formatDocumentNumber, numberingFormatFault } from '../../../../core/rules';
import { messages, pick, type Entry } from '../../../shared/i18n';
import { dayOf, shopClock } from '../../../shared/days';
import { dayStart } from '../../lib/format';
import { ENUMS, options } from '../../lib/enums';
import type { Numbering } from '../../../shared/types';
import { active, Section } from './section';

const t = messages({
  active: { en: 'Active', sk: 'Aktívny', cs: 'Aktivní' },
  state: { en: 'State', sk: 'Stav', cs: 'Stav' },
  numberings: { en: 'Document numberings', sk: 'Číselné rady dokladov', cs: 'Číselné řady dokladů' },
  numbering: { en: 'Numbering', sk: 'Číselný rad', cs: 'Číselná řada' },
  newNumbering: { en: 'New numbering', sk: 'Nový číselný rad', cs: 'Nová číselná řada' },
  document: { en: 'Document', sk: 'Doklad', cs: 'Doklad' },
  documentType: { en: 'Document type', sk: 'Typ dokladu', cs: 'Typ dokladu' },
  documents: { en: '{type} documents', sk: 'Doklady {type}', cs: 'Doklady {type}' },
  format: { en: 'Format', sk: 'Formát', cs: 'Formát' },
  nextNumber: { en: 'Next number', sk: 'Ďalšie číslo', cs: 'Další číslo' },
  next: { en: 'Next: {n}', sk: 'Ďalšie: {n}', cs: 'Další: {n}' },
  restarts: { en: 'Restarts', sk: 'Začína odznova', cs: 'Začíná znovu' },
  never: { en: 'never', sk: 'nikdy', cs: 'nikdy' },
  every: { en: 'every {n}{unit}', sk: 'každý {n}{unit}', cs: 'každý {n}{unit}' },
  noNumberings: { en: 'No numberings', sk: 'Žiadne číselné rady', cs: 'Žádné číselné řady' },
  formatCheck: { en: 'Use text and the tokens {yyyy} {yy} {MM} {dd}, with exactly one counter {iN}, e.g. P-{yyyy}{MM}{i4}.', sk: 'Použite text a značky {yyyy} {yy} {MM} {dd} s práve jedným počítadlom {iN}, napr. P-{yyyy}{MM}{i4}.', cs: 'Použijte text a značky {yyyy} {yy} {MM} {dd} s právě jedním počítadlem {iN}, např. P-{yyyy}{MM}{i4}.' },
  formatHint: { en: 'e.g. P-{yyyy}{MM}{i4} → P-2026110001', sk: 'napr. P-{yyyy}{MM}{i4} → P-2026110001', cs: 'např. P-{yyyy}{MM}{i4} → P-2026110001' },
  repeat: { en: 'Restart the counter each period', sk: 'Počítadlo začína v každom období odznova', cs: 'Počítadlo začíná v každém období znovu' },
  oneActive: { en: 'One active numbering per document type.', sk: 'Pre každý typ dokladu jeden aktívny rad.', cs: 'Pro každý typ dokladu jedna aktivní řada.' },
  periods: { en: 'Periods', sk: 'Obdobia', cs: 'Období' },
  addPeriod: { en: 'Add period', sk: 'Pridať obdobie', cs: 'Přidat období' },
  noPeriod: { en: 'No period: documents of this type cannot be numbered.', sk: 'Žiadne obdobie: doklady tohto typu sa nedajú očíslovať.', cs: 'Žádné období: doklady tohoto typu nelze očíslovat.' },
  starts: { en: 'Starts', sk: 'Začiatok', cs: 'Začátek' },
  period: { en: 'Period', sk: 'Obdobie', cs: 'Období' },
  length: { en: 'Length', sk: 'Dĺžka', cs: 'Délka' },
  lastIssued: { en: 'Last number issued', sk: 'Posledné vydané číslo', cs: 'Poslední vydané číslo' },
});

/** The next document number a numbering would issue today (the shop's day, as the hub fills {yyyy} {MM} {dd}): what the manager wants to see. */
function preview(format: string, next: number): string {
  return formatDocumentNumber(format, next, shopClock(new Date()));
}

/** The hub's own rule for a format (hub/core/rules.ts): the page never refuses what the hub takes, nor lets through what it refuses. */
const formatCheck = (v: unknown) => (typeof v === 'string' && v && numberingFormatFault(v) ? t('formatCheck') : null);
const lastEntry = (n: Numbering) => n.numberings[n.numberings.length - 1];

const PERIOD_UNITS: Record<string, Entry> = {
  Day: { en: 'day', sk: 'deň', cs: 'den' },
  Week: { en: 'week', sk: 'týždeň', cs: 'týden' },
  Month: { en: 'month', sk: 'mesiac', cs: 'měsíc' },
  Year: { en: 'year', sk: 'rok', cs: 'rok' },
};
const PERIOD_UNITS_PLURAL: Record<string, Entry> = {
  Day: { en: 'days', sk: 'dni', cs: 'dny' },
  Week: { en: 'weeks', sk: 'týždne', cs: 'týdny' },
  Month: { en: 'months', sk: 'mesiace', cs: 'měsíce' },
  Year: { en: 'years', sk: 'roky', cs: 'roky' },
};
const unitLabel = (unit: string) => (PERIOD_UNITS[unit] ? pick(PERIOD_UNITS[unit]) : unit);
const TRANSFER_TYPES: Record<string, Entry> = {
  Income: { en: 'Income', sk: 'Príjemka', cs: 'Příjemka' },
  Outcome: { en: 'Outcome', sk: 'Výdajka', cs: 'Výdejka' },
  Transfer: { en: 'Transfer', sk: 'Prevodka', cs: 'Převodka' },
  Sale: { en: 'Sale', sk: 'Predaj', cs: 'Prodej' },
  Invoice: { en: 'Invoice', sk: 'Faktúra', cs: 'Faktura' },
  Correction: { en: 'Correction', sk: 'Oprava', cs: 'Oprava' },
};
const transferLabel = (type: string) => (TRANSFER_TYPES[type] ? pick(TRANSFER_TYPES[type]) : type);

function restarts(n: Numbering): string {
  const last = lastEntry(n);
  if (!n.repeat || !last) return t('never');
  const { amount, unit } = last.period;
  return amount > 1 ? t('every', { n: `${amount} `, unit: PERIOD_UNITS_PLURAL[unit] ? pick(PERIOD_UNITS_PLURAL[unit]) : unit }) : t('every', { n: '', unit: unitLabel(unit) });
}

export function Numberings() {
  return (
    <Section<Numbering>
      title={t('numberings')}
      resource="stocktransfernumberings"
      createRight="StockTransferNumberingCreate"
      newLabel={t('newNumbering')}
      rowKey={(n) => n.id}
      columns={[
        { id: 'type', title: t('document'), sort: 'type', render: (n) => <b>{transferLabel(n.type)}</b> },
        { id: 'format', title: t('format'), render: (n) => <span class="mono">{n.format}</span> },
        { id: 'next', title: t('nextNumber'), render: (n) => <span class="mono">{preview(n.format, (lastEntry(n)?.currentNumber ?? 0) + 1)}</span> },
        { id: 'period', title: t('restarts'), render: restarts, secondary: true },
        { id: 'active', title: t('state'), render: (n) => active(n.isActive) },
      ]}
      empty={{ title: t('noNumberings') }}
      editor={(key, close) => (
        <Editor<Numbering>
          resource="stocktransfernumberings"
          editKey={key}
          noun={t('numbering')}
          wide
          title={(v, isNew) => (isNew ? t('newNumbering') : t('documents', { type: transferLabel(v.type) }))}
          subtitle={(v) => t('next', { n: preview(v.format ?? '', (v.numberings?.[v.numberings.length - 1]?.currentNumber ?? 0) + 1) })}
          defaults={{ id: '', isActive: true, type: 'Income', format: '', repeat: true, numberings: [{ isActive: true, startAt: dayStart(`${dayOf(new Date()).slice(0, 4)}-01-01`), period: { unit: 'Month', amount: 1 }, currentNumber: 0 } as Numbering['numberings'][number]] }}
          rights={{ create: 'StockTransferNumberingCreate', update: 'StockTransferNumberingUpdate', delete: 'StockTransferNumberingDelete' }}
          toBody={(v, isNew) => {
            const { id, ...rest } = v;
            return isNew ? rest : { id, ...rest };
          }}
          onClose={close}
        >
          {(form) => (
            <>
              <div class="form-grid">
                <Field form={form} name="type" label={t('documentType')} kind="select" options={options(ENUMS.transferType, transferLabel)} required />
                <Field form={form} name="format" label={t('format')} required validate={formatCheck} hint={t('formatHint')} />
                <Field form={form} name="repeat" label={t('repeat')} kind="switch" />
                <Field form={form} name="isActive" label={t('active')} kind="switch" hint={t('oneActive')} />
              </div>
              <Rows form={form} name="numberings" label={t('periods')} addLabel={t('addPeriod')} empty={t('noPeriod')} newRow={() => ({ isActive: true, startAt: new Date().toISOString(), period: { unit: 'Month', amount: 1 }, currentNumber: 0 })}>
                {(p) => (
                  <>
                    <Field form={form} name={`${p}.startAt`} label={t('starts')} kind="date" required />
                    <Field form={form} name={`${p}.period.unit`} label={t('period')} kind="select" options={options(ENUMS.periodUnit, unitLabel)} required />
                    <Field form={form} name={`${p}.period.amount`} label={t('length')} kind="number" integer min={1} max={1000} required />
                    <Field form={form} name={`${p}.currentNumber`} label={t('lastIssued')} kind="number" integer min={0} required />
                    <Field form={form} name={`${p}.isActive`} label={t('active')} kind="switch" />
                  </>
                )}
              </Rows>
            </>
          )}
        </Editor>
      )}
    />
  );
}
