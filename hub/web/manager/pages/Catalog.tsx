/** Catalog and stock: products with their stock quantity, stocks, modifiers, stock transfers and stock takings. */
import { DataTable, type Column } from '../components/DataTable';
import { Editor } from '../components/Editor';
import { Field } from '../components/Field';
import { Rows } from '../components/Rows';
import { Badge, Button, Card, PageHeader, Tabs, Toolbar, Empty } from '../components/ui';
import { op } from '../lib/api';
import { useOptions } from '../lib/data';
import { checks } from '../lib/form';
import { money, percent, quantity } from '../lib/format';
import { useQuery } from '../lib/router';
import { pick } from '../../shared/i18n';
import { allowed, CATALOG_TABS } from '../lib/access';
import { useCan } from '../lib/session';
import { ENUMS, options } from '../lib/enums';
import type { Modifier, OrderEndpoint, Plu, Stock } from '../../shared/types';
import { StockTakings, Transfers } from './Stock';

export function Catalog({ tab: asked, takingId }: { tab: string; takingId: string | null }) {
  const can = useCan();
  const tabs = CATALOG_TABS.filter((t) => allowed(t, can)).map((t) => ({ ...t, label: pick(t.label) }));
  const tab = tabs.some((t) => t.id === asked) ? asked : null;
  return (
    <div class="page">
      <PageHeader title="Catalog & stock" subtitle="What you sell, what you keep, and how much of it is on the shelf." />
      <Tabs tabs={tabs} current={tab ?? ''} />
      {tab === null && <Empty icon="alert" title="This part is not part of your work here" />}
      {tab === 'products' && <Products />}
      {tab === 'stocks' && <Stocks />}
      {tab === 'modifiers' && <Modifiers />}
      {tab === 'transfers' && <Transfers />}
      {tab === 'stocktakings' && <StockTakings takingId={takingId} />}
    </div>
  );
}

/** `?edit=<key>` opens the editor (`new` for a new one); back closes it. */
export function useEditParam(): [string | null, (key: string | null) => void] {
  const [q, setQuery] = useQuery();
  return [q.get('edit'), (key) => setQuery({ edit: key }, { replace: key === null })];
}

const stockQty = (p: Plu) =>
  p.type === 'StockItem' ? (
    <b class={`num${p.stockQuantity < 0 ? ' negative' : ''}`} data-testid={`qty-${p.code}`}>
      {quantity(p.stockQuantity)}
    </b>
  ) : (
    <span class="muted">—</span>
  );

const PLU_COLUMNS: Column<Plu>[] = [
  { id: 'code', title: 'Code', sort: 'code', align: 'right', render: (p) => <span class="num">{p.code}</span> },
  { id: 'name', title: 'Name', sort: 'name', render: (p) => <b>{p.name}</b> },
  { id: 'stock', title: 'Stock', sort: 'stockName', render: (p) => p.stockName },
  { id: 'type', title: 'Type', sort: 'type', render: (p) => p.type, secondary: true },
  { id: 'price', title: 'Price', align: 'right', render: (p) => <span class="num">{money(p.unitPrice.amount, p.unitPrice.currencyLabel)}</span> },
  { id: 'vat', title: 'VAT', align: 'right', render: (p) => percent(p.vatInfo?.rate), secondary: true },
  { id: 'printers', title: 'Prints on', render: (p) => p.orderEndpointNames.join(', ') || '—', secondary: true },
  { id: 'qty', title: 'In stock', align: 'right', render: stockQty },
  { id: 'active', title: '', render: (p) => (p.isActive ? null : <Badge>Inactive</Badge>) },
];

function Products() {
  const [q, setQuery] = useQuery();
  const [edit, setEdit] = useEditParam();
  const can = useCan();
  const stocks = useOptions<Stock>('stocks', (s) => s.name);
  const set = (k: string, v: unknown) => setQuery({ [k]: v ? String(v) : null, page: null });
  return (
    <>
      <Toolbar
        actions={
          can('PluCreate') && (
            <Button variant="primary" icon="plus" onClick={() => setEdit('new')}>
              New product
            </Button>
          )
        }
      >
        <div class="filter-grid">
          <Field label="Search" kind="search" value={q.get('q') ?? ''} onChange={(v) => set('q', v)} placeholder="Name contains…" testId="plu-search" />
          <Field label="Stock" kind="select" emptyOption="All stocks" value={q.get('stock') ?? ''} onChange={(v) => set('stock', v)} options={stocks} />
          <Field label="Type" kind="select" emptyOption="All types" value={q.get('type') ?? ''} onChange={(v) => set('type', v)} options={options(ENUMS.pluType)} />
        </div>
      </Toolbar>
      <Card>
        <DataTable<Plu>
          resource="plus"
          label="Products"
          columns={PLU_COLUMNS}
          rowKey={(p) => p.id}
          defaultSort="name"
          filters={{ name: q.get('q') ? op.contains(q.get('q')!) : null, stockName: q.get('stock') ? op.eq(q.get('stock')!) : null, type: q.get('type') ? op.eq(q.get('type')!) : null }}
          live={['plus', 'stocktransfers']}
          onOpen={(p) => setEdit(p.id)}
          selected={edit}
          empty={{ title: 'No products', text: q.toString() ? 'Nothing matches; try another search.' : 'Add the first product, or load the demo menu with npm run seed:demo.' }}
        />
      </Card>
      {edit && <PluEditor editKey={edit === 'new' ? null : edit} onClose={() => setEdit(null)} />}
    </>
  );
}

function PluEditor({ editKey, onClose }: { editKey: string | null; onClose: () => void }) {
  const stocks = useOptions<Stock>('stocks', (s) => s.name);
  const printers = useOptions<OrderEndpoint>('orderendpoints', (p) => p.name);
  return (
    <Editor<Plu>
      resource="plus"
      editKey={editKey}
      noun="Product"
      title={(v, isNew) => (isNew ? 'New product' : v.name || 'Product')}
      subtitle={(v) => (v.type === 'StockItem' ? `In stock: ${quantity(v.stockQuantity)}` : v.type)}
      defaults={{ id: '', code: null as unknown as number, stockName: '', name: '', type: 'Service', unitPrice: { amount: 0 }, vatInfo: { category: 1, rate: 23 }, orderEndpointNames: [], receipt: [], stockQuantity: 0, isActive: true }}
      rights={{ create: 'PluCreate', update: 'PluUpdate', delete: 'PluDelete' }}
      toBody={(v, isNew) => {
        const { id, ...rest } = v;
        return isNew ? rest : { id, ...rest };
      }}
      onClose={onClose}
    >
      {(form, { isNew }) => (
        <>
          <div class="form-grid">
            <Field form={form} name="name" label="Name" required maxLength={4000} wide />
            <Field form={form} name="code" label="Code" kind="number" integer min={0} required disabled={!isNew} hint={isNew ? 'Unique within its stock.' : undefined} />
            <Field form={form} name="stockName" label="Stock" kind="select" emptyOption="Choose…" options={stocks} required disabled={!isNew} />
            <Field form={form} name="type" label="Type" kind="select" options={options(ENUMS.pluType)} required hint="StockItem plus are counted in stock." />
            <Field form={form} name="unitPrice.amount" label="Price" kind="number" min={0} required suffix="€" />
            <Field form={form} name="vatInfo.rate" label="VAT rate" kind="number" min={0} max={100} suffix="%" required />
            <Field form={form} name="vatInfo.category" label="VAT category" kind="number" integer min={0} max={2147483647} required hint="The fiscal printer's tax group." />
            <Field form={form} name="isActive" label="On sale" kind="switch" />
          </div>
          <Field form={form} name="orderEndpointNames" label="Prints on" kind="checklist" options={printers} hint={printers.length ? 'Kitchen printers that get an order for this product.' : 'No kitchen printers yet.'} />
          {form.values.type === 'Recipe' && (
            <Rows form={form} name="receipt" label="Recipe parts" addLabel="Add part" empty="No parts: selling it moves no stock." newRow={() => ({ pluId: { code: null, stockName: '' }, quantity: 1 })}>
              {(p) => (
                <>
                  <Field form={form} name={`${p}.pluId.stockName`} label="Stock" kind="select" emptyOption="Choose…" options={stocks} required />
                  <Field form={form} name={`${p}.pluId.code`} label="Code" kind="number" integer min={0} required />
                  <Field form={form} name={`${p}.quantity`} label="Quantity" kind="number" required validate={(v) => (typeof v === 'number' && v <= 0 ? 'Must be more than 0.' : null)} />
                </>
              )}
            </Rows>
          )}
        </>
      )}
    </Editor>
  );
}

function Stocks() {
  const [edit, setEdit] = useEditParam();
  const can = useCan();
  return (
    <>
      <Card
        title="Stocks"
        actions={
          can('StockCreate') && (
            <Button variant="primary" icon="plus" onClick={() => setEdit('new')}>
              New stock
            </Button>
          )
        }
      >
        <DataTable<Stock>
          resource="stocks"
          label="Stocks"
          rowKey={(s) => s.name}
          columns={[
            { id: 'name', title: 'Name', sort: 'name', render: (s) => <b>{s.name}</b> },
            { id: 'description', title: 'Description', render: (s) => s.description || '—' },
          ]}
          onOpen={(s) => setEdit(s.name)}
          selected={edit}
          empty={{ title: 'No stocks yet', text: 'A stock groups products: one for the menu, one for the bar, one for raw materials.' }}
        />
      </Card>
      {edit && (
        <Editor<Stock>
          resource="stocks"
          editKey={edit === 'new' ? null : edit}
          noun="Stock"
          title={(v, isNew) => (isNew ? 'New stock' : v.name)}
          defaults={{ name: '', description: '' }}
          rights={{ create: 'StockCreate', update: 'StockUpdate', delete: 'StockDelete' }}
          onClose={() => setEdit(null)}
        >
          {(form, { isNew }) => (
            <>
              <Field form={form} name="name" label="Name" required disabled={!isNew} validate={checks.pattern(/^[^/]*$/, 'A name cannot hold "/".')} />
              <Field form={form} name="description" label="Description" kind="textarea" />
            </>
          )}
        </Editor>
      )}
    </>
  );
}

function Modifiers() {
  const [edit, setEdit] = useEditParam();
  const can = useCan();
  return (
    <>
      <Card
        title="Modifiers"
        actions={
          can('ModifierCreate') && (
            <Button variant="primary" icon="plus" onClick={() => setEdit('new')}>
              New modifier
            </Button>
          )
        }
      >
        <DataTable<Modifier>
          resource="modifiers"
          label="Modifiers"
          rowKey={(m) => m.id}
          defaultSort="name"
          columns={[
            { id: 'name', title: 'Name', sort: 'name', render: (m) => <b>{m.displayName || m.name}</b> },
            { id: 'options', title: 'Options', render: (m) => m.options.map((o) => (o.unitPrice?.amount ? `${o.name} (+${money(o.unitPrice.amount)})` : o.name)).join(', ') || '—' },
            { id: 'choose', title: 'Choose', render: (m) => (m.maximumSelectedOptionsCount ? `${m.minimumSelectedOptionsCount}–${m.maximumSelectedOptionsCount}` : 'any'), secondary: true },
          ]}
          onOpen={(m) => setEdit(m.id)}
          selected={edit}
          empty={{ title: 'No modifiers yet', text: 'Modifiers are the choices on an item: a side dish, a size, extra cheese.' }}
        />
      </Card>
      {edit && (
        <Editor<Modifier>
          resource="modifiers"
          editKey={edit === 'new' ? null : edit}
          noun="Modifier"
          wide
          title={(v, isNew) => (isNew ? 'New modifier' : v.displayName || v.name)}
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
                <Field form={form} name="name" label="Name" required />
                <Field form={form} name="displayName" label="Shown as" hint="What the register shows; the name if empty." />
                <Field form={form} name="minimumSelectedOptionsCount" label="Choose at least" kind="number" integer min={0} max={10000} required />
                <Field
                  form={form}
                  name="maximumSelectedOptionsCount"
                  label="Choose at most"
                  kind="number"
                  integer
                  min={0}
                  max={10000}
                  required
                  validate={(v, all) => (typeof v === 'number' && v < (all.minimumSelectedOptionsCount as number) ? 'Cannot be less than “choose at least”.' : null)}
                />
              </div>
              <Rows form={form} name="options" label="Options" addLabel="Add option" empty="No options yet." newRow={() => ({ id: '', name: '', unitPrice: null, isUnitPriceIncludingVat: true, pluId: null, defaultSelectedQuantity: 0, maximumSelectedQuantity: null })}>
                {(p) => (
                  <>
                    <Field form={form} name={`${p}.id`} label="Id" required validate={checks.pattern(/^[A-Za-z0-9._-]{1,64}$/, 'Letters, digits, . _ - only.')} />
                    <Field form={form} name={`${p}.name`} label="Name" required />
                    <Field form={form} name={`${p}.unitPrice.amount`} label="Extra price" kind="number" min={0} nullable suffix="€" />
                    <Field form={form} name={`${p}.maximumSelectedQuantity`} label="At most" kind="number" integer min={0} nullable />
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
