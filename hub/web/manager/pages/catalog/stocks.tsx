/** Catalog › Stocks: the stocks products are kept in, and (with StockRead) what each is worth. */
import { DataTable } from '../../components/DataTable';
import { Editor } from '../../components/Editor';
import { Field } from '../../components/Field';
import { Button, Card } from '../../../shared/ui';
import { checks } from '../../lib/form';
import { useEditParam } from '../../lib/router';
import { useCan } from '../../lib/session';
import { StockValue } from './stock-value';
import type { Stock } from '../../../shared/types';
import { messages } from '../../../shared/i18n';

const t = messages({
  name: { en: 'Name', sk: 'Názov', cs: 'Název' },
  stocks: { en: 'Stocks', sk: 'Sklady', cs: 'Sklady' },
  newStock: { en: 'New stock', sk: 'Nový sklad', cs: 'Nový sklad' },
  description: { en: 'Description', sk: 'Popis', cs: 'Popis' },
  noStocks: { en: 'No stocks yet', sk: 'Zatiaľ žiadne sklady', cs: 'Zatím žádné sklady' },
  stocksText: { en: 'A stock groups products: one for the menu, one for the bar, one for raw materials.', sk: 'Sklad zoskupuje produkty: jeden pre menu, jeden pre bar, jeden pre suroviny.', cs: 'Sklad seskupuje produkty: jeden pro menu, jeden pro bar, jeden pro suroviny.' },
  stockNoun: { en: 'Stock', sk: 'Sklad', cs: 'Sklad' },
  noSlash: { en: 'A name cannot hold "/".', sk: 'Názov nesmie obsahovať „/“.', cs: 'Název nesmí obsahovat „/“.' },
});

export function Stocks() {
  const [edit, setEdit] = useEditParam();
  const can = useCan();
  return (
    <>
      {can('StockRead') && <StockValue />}
      <Card
        title={t('stocks')}
        actions={
          can('StockCreate') && (
            <Button variant="primary" icon="plus" onClick={() => setEdit('new')}>
              {t('newStock')}
            </Button>
          )
        }
      >
        <DataTable<Stock>
          resource="stocks"
          label={t('stocks')}
          rowKey={(s) => s.name}
          columns={[
            { id: 'name', title: t('name'), sort: 'name', render: (s) => <b>{s.name}</b> },
            { id: 'description', title: t('description'), render: (s) => s.description || '—' },
          ]}
          onOpen={(s) => setEdit(s.name)}
          selected={edit}
          empty={{ title: t('noStocks'), text: t('stocksText') }}
        />
      </Card>
      {edit && (
        <Editor<Stock>
          resource="stocks"
          editKey={edit === 'new' ? null : edit}
          noun={t('stockNoun')}
          title={(v, isNew) => (isNew ? t('newStock') : v.name)}
          defaults={{ name: '', description: '' }}
          rights={{ create: 'StockCreate', update: 'StockUpdate', delete: 'StockDelete' }}
          onClose={() => setEdit(null)}
        >
          {(form, { isNew }) => (
            <>
              <Field form={form} name="name" label={t('name')} required disabled={!isNew} validate={checks.pattern(/^[^/]*$/, t('noSlash'))} />
              <Field form={form} name="description" label={t('description')} kind="textarea" />
            </>
          )}
        </Editor>
      )}
    </>
  );
}
