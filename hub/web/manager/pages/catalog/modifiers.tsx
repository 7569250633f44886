/** Catalog › Modifiers: the choices on an item (a side dish, a size, extra cheese). */
import { DataTable } from '../../components/DataTable';
import { Editor } from '../../components/Editor';
import { Field } from '../../components/Field';
import { Rows } from '../../components/Rows';
import { Button, Card } from '../../../shared/ui';
import { checks } from '../../lib/form';
import { money } from '../../lib/format';
import { useEditParam } from '../../lib/router';
import { useCan } from '../../lib/session';
import type { Modifier } from '../../../shared/types';
import { messages } from '../../../shared/i18n';

const t = messages({
  name: { en: 'Name', sk: 'Názov', cs: 'Název' },
  modifiers: { en: 'Modifiers', sk: 'Prílohy a úpravy', cs: 'Přílohy a úpravy' },
  newModifier: { en: 'New modifier', sk: 'Nová príloha/úprava', cs: 'Nová příloha/úprava' },
  optionsCol: { en: 'Options', sk: 'Možnosti', cs: 'Možnosti' },
  chooseCol: { en: 'Choose', sk: 'Výber', cs: 'Výběr' },
  anyCount: { en: 'any', sk: 'ľubovoľne', cs: 'libovolně' },
  noModifiers: { en: 'No modifiers yet', sk: 'Zatiaľ žiadne prílohy a úpravy', cs: 'Zatím žádné přílohy a úpravy' },
  modifiersText: { en: 'Modifiers are the choices on an item: a side dish, a size, extra cheese.', sk: 'Prílohy a úpravy sú voľby k položke: príloha, veľkosť, syr navyše.', cs: 'Přílohy a úpravy jsou volby k položce: příloha, velikost, sýr navíc.' },
  modifierNoun: { en: 'Modifier', sk: 'Príloha/úprava', cs: 'Příloha/úprava' },
  shownAs: { en: 'Shown as', sk: 'Zobrazí sa ako', cs: 'Zobrazí se jako' },
  shownAsHint: { en: 'What the register shows; the name if empty.', sk: 'Čo ukáže pokladňa; ak je prázdne, názov.', cs: 'Co ukáže pokladna; je-li prázdné, název.' },
  atLeast: { en: 'Choose at least', sk: 'Vybrať aspoň', cs: 'Vybrat alespoň' },
  atMost: { en: 'Choose at most', sk: 'Vybrať najviac', cs: 'Vybrat nejvýše' },
  notLess: { en: 'Cannot be less than “choose at least”.', sk: 'Nemôže byť menej ako „vybrať aspoň“.', cs: 'Nemůže být méně než „vybrat alespoň“.' },
  addOption: { en: 'Add option', sk: 'Pridať možnosť', cs: 'Přidat možnost' },
  noOptions: { en: 'No options yet.', sk: 'Zatiaľ žiadne možnosti.', cs: 'Zatím žádné možnosti.' },
  optionId: { en: 'Short code', sk: 'Skratka', cs: 'Zkratka' },
  optionIdBad: { en: 'Letters, digits, . _ - only.', sk: 'Len písmená, číslice, . _ -', cs: 'Jen písmena, číslice, . _ -' },
  extraPrice: { en: 'Extra price', sk: 'Príplatok', cs: 'Příplatek' },
  maxQty: { en: 'At most', sk: 'Najviac', cs: 'Nejvýše' },
});

export function Modifiers() {
  const [edit, setEdit] = useEditParam();
  const can = useCan();
  return (
    <>
      <Card
        title={t('modifiers')}
        actions={
          can('ModifierCreate') && (
            <Button variant="primary" icon="plus" onClick={() => setEdit('new')}>
              {t('newModifier')}
            </Button>
          )
        }
      >
        <DataTable<Modifier>
          resource="modifiers"
          label={t('modifiers')}
          rowKey={(m) => m.id}
          defaultSort="name"
          columns={[
            { id: 'name', title: t('name'), sort: 'name', render: (m) => <b>{m.displayName || m.name}</b> },
            { id: 'options', title: t('optionsCol'), render: (m) => m.options.map((o) => (o.unitPrice?.amount ? `${o.name} (+${money(o.unitPrice.amount)})` : o.name)).join(', ') || '—' },
            { id: 'choose', title: t('chooseCol'), render: (m) => (m.maximumSelectedOptionsCount ? `${m.minimumSelectedOptionsCount}–${m.maximumSelectedOptionsCount}` : t('anyCount')), secondary: true },
          ]}
          onOpen={(m) => setEdit(m.id)}
          selected={edit}
          empty={{ title: t('noModifiers'), text: t('modifiersText') }}
        />
      </Card>
      {edit && (
        <Editor<Modifier>
          resource="modifiers"
          editKey={edit === 'new' ? null : edit}
          noun={t('modifierNoun')}
          wide
          title={(v, isNew) => (isNew ? t('newModifier') : v.displayName || v.name)}
          defaults={{ id: '', name: '', displayName: '', minimumSelectedOptionsCount: 0, maximumSelectedOptionsCount: 1, maximumSelectedOptionsTotalQuantity: 0, options: [] }}
          rights={{ create: 'ModifierCreate', update: 'ModifierUpdate', delete: 'ModifierDelete' }}
          toBody={(v, isNew) => {
            const { id, ...rest } = v;
            // An option without a price carries null, not {amount: null}.
            const opts = rest.options.map((o) => ({ ...o, unitPrice: o.unitPrice && typeof o.unitPrice.amount === 'number' ? o.unitPrice : null }));
            return isNew ? { ...rest, options: opts } : { id, ...rest, options: opts };
          }}
          onClose={() => setEdit(null)}
        >
          {(form) => (
            <>
              <div class="form-grid">
                <Field form={form} name="name" label={t('name')} required />
                <Field form={form} name="displayName" label={t('shownAs')} hint={t('shownAsHint')} />
                <Field form={form} name="minimumSelectedOptionsCount" label={t('atLeast')} kind="number" integer min={0} max={10000} required />
                <Field
                  form={form}
                  name="maximumSelectedOptionsCount"
                  label={t('atMost')}
                  kind="number"
                  integer
                  min={0}
                  max={10000}
                  required
                  validate={(v, all) => (typeof v === 'number' && v < (all.minimumSelectedOptionsCount as number) ? t('notLess') : null)}
                />
              </div>
              <Rows form={form} name="options" label={t('optionsCol')} addLabel={t('addOption')} empty={t('noOptions')} newRow={() => ({ id: '', name: '', unitPrice: null, isUnitPriceIncludingVat: true, pluId: null, defaultSelectedQuantity: 0, maximumSelectedQuantity: null })}>
                {(p) => (
                  <>
                    <Field form={form} name={`${p}.id`} label={t('optionId')} required validate={checks.pattern(/^[A-Za-z0-9._-]{1,64}$/, t('optionIdBad'))} />
                    <Field form={form} name={`${p}.name`} label={t('name')} required />
                    <Field form={form} name={`${p}.unitPrice.amount`} label={t('extraPrice')} kind="number" min={0} nullable suffix="€" />
                    <Field form={form} name={`${p}.maximumSelectedQuantity`} label={t('maxQty')} kind="number" integer min={0} nullable />
                  </>
                )}
              </Rows>
            </>
          )}
        </Editor>
      )}
    </>
  );
}
