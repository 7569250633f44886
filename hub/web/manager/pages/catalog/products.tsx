/**
 * Catalog › Products: the list with low stock above it, and the product editor (category, cost price
 * and the hub's margin, EAN barcode, minimum stock); a recipe's parts are chosen by name from the stock items.
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import { DataTable, type Column } from '../../components/DataTable';
import { Editor } from '../../components/Editor';
import { Field, type AnyForm } from '../../components/Field';
import { Rows } from '../../components/Rows';
import { Toolbar } from '../../components/ui';
import { Badge, Button, Card, Notice } from '../../../shared/ui';
import { op } from '../../lib/api';
import { useAll, useOptions } from '../../lib/data';
import { type FormApi } from '../../lib/form';
import { money, percent, stockQuantity } from '../../lib/format';
import { useEditParam, useQuery } from '../../lib/router';
import { useCan } from '../../lib/session';
import { Swatch } from './categories';
import { ENUMS, options } from '../../lib/enums';
import type { Category, Modifier, OrderEndpoint, Plu, Stock } from '../../../shared/types';
import { language, messages, type Language } from '../../../shared/i18n';

const t = messages({
  StockItem: { en: 'Stock item', sk: 'Skladová položka', cs: 'Skladová položka' },
  Recipe: { en: 'Recipe', sk: 'Receptúra', cs: 'Receptura' },
  Service: { en: 'Service', sk: 'Služba', cs: 'Služba' },
  Container: { en: 'Container', sk: 'Obal', cs: 'Obal' },
  code: { en: 'Code', sk: 'Kód', cs: 'Kód' },
  name: { en: 'Name', sk: 'Názov', cs: 'Název' },
  stock: { en: 'Stock', sk: 'Sklad', cs: 'Sklad' },
  category: { en: 'Category', sk: 'Kategória', cs: 'Kategorie' },
  type: { en: 'Type', sk: 'Typ', cs: 'Typ' },
  price: { en: 'Price', sk: 'Cena', cs: 'Cena' },
  vat: { en: 'VAT', sk: 'DPH', cs: 'DPH' },
  margin: { en: 'Margin', sk: 'Marža', cs: 'Marže' },
  printsOn: { en: 'Prints on', sk: 'Tlačí sa na', cs: 'Tiskne se na' },
  inStock: { en: 'In stock', sk: 'Na sklade', cs: 'Na skladě' },
  inactive: { en: 'Inactive', sk: 'Neaktívny', cs: 'Neaktivní' },
  low: { en: 'Low', sk: 'Dochádza', cs: 'Dochází' },
  newProduct: { en: 'New product', sk: 'Nový produkt', cs: 'Nový produkt' },
  search: { en: 'Search', sk: 'Hľadať', cs: 'Hledat' },
  nameContains: { en: 'Name contains…', sk: 'Názov obsahuje…', cs: 'Název obsahuje…' },
  allStocks: { en: 'All stocks', sk: 'Všetky sklady', cs: 'Všechny sklady' },
  allCategories: { en: 'All categories', sk: 'Všetky kategórie', cs: 'Všechny kategorie' },
  allTypes: { en: 'All types', sk: 'Všetky typy', cs: 'Všechny typy' },
  barcode: { en: 'Barcode (EAN)', sk: 'Čiarový kód (EAN)', cs: 'Čárový kód (EAN)' },
  scanOrType: { en: 'Scan or type', sk: 'Naskenujte alebo napíšte', cs: 'Naskenujte nebo napište' },
  lowOnly: { en: 'Only low stock', sk: 'Len dochádzajúce', cs: 'Jen docházející' },
  products: { en: 'Products', sk: 'Produkty', cs: 'Produkty' },
  noProducts: { en: 'No products', sk: 'Žiadne produkty', cs: 'Žádné produkty' },
  nothingMatches: { en: 'Nothing matches; try another search.', sk: 'Nič nezodpovedá; skúste iné hľadanie.', cs: 'Nic neodpovídá; zkuste jiné hledání.' },
  addFirst: { en: 'Add the first product, or load the demo menu with npm run seed:demo.', sk: 'Pridajte prvý produkt alebo nahrajte ukážkové menu príkazom npm run seed:demo.', cs: 'Přidejte první produkt nebo nahrajte ukázkové menu příkazem npm run seed:demo.' },
  lowTitle: { en: 'Low on stock ({n})', sk: 'Dochádza na sklade ({n})', cs: 'Dochází na skladě ({n})' },
  lowItem: { en: '{qty} of at least {min}', sk: '{qty} z minimálne {min}', cs: '{qty} z minimálně {min}' },
  showLow: { en: 'Show only these', sk: 'Zobraziť len tieto', cs: 'Zobrazit jen tyto' },
  noun: { en: 'Product', sk: 'Produkt', cs: 'Produkt' },
  inStockNow: { en: 'In stock: {qty}', sk: 'Na sklade: {qty}', cs: 'Na skladě: {qty}' },
  codeHint: { en: 'Unique within its stock.', sk: 'Jedinečný v rámci skladu.', cs: 'Jedinečný v rámci skladu.' },
  choose: { en: 'Choose…', sk: 'Vyberte…', cs: 'Vyberte…' },
  noCategory: { en: 'No category', sk: 'Bez kategórie', cs: 'Bez kategorie' },
  typeHint: { en: 'Stock items are counted in stock; a recipe takes its parts from stock.', sk: 'Skladové položky sa počítajú na sklade; receptúra berie zo skladu svoje suroviny.', cs: 'Skladové položky se počítají na skladě; receptura bere ze skladu své suroviny.' },
  vatRate: { en: 'VAT rate', sk: 'Sadzba DPH', cs: 'Sazba DPH' },
  vatGroup: { en: 'VAT group', sk: 'Daňová hladina', cs: 'Daňová hladina' },
  vatGroupHint: { en: 'The tax group on the fiscal printer.', sk: 'Daňová skupina na fiškálnej tlačiarni.', cs: 'Daňová skupina na fiskální tiskárně.' },
  onSale: { en: 'On sale', sk: 'V predaji', cs: 'V prodeji' },
  costPrice: { en: 'Cost price', sk: 'Nákupná cena', cs: 'Nákupní cena' },
  costHint: { en: 'What one unit costs you, without VAT. Each income with a purchase price averages into it.', sk: 'Koľko vás stojí jedna jednotka, bez DPH. Každá príjemka s nákupnou cenou sa do nej spriemeruje.', cs: 'Kolik vás stojí jedna jednotka, bez DPH. Každá příjemka s nákupní cenou se do ní zprůměruje.' },
  unit: { en: 'Unit', sk: 'Merná jednotka', cs: 'Měrná jednotka' },
  unitHint: { en: 'What its stock is counted in: pcs, kg, l… Every stock figure shows it.', sk: 'V čom sa počíta jeho zásoba: ks, kg, l… Zobrazí sa pri každom množstve na sklade.', cs: 'V čem se počítá jeho zásoba: ks, kg, l… Zobrazí se u každého množství na skladě.' },
  marginNone: { en: 'Give a cost price to see the margin.', sk: 'Zadajte nákupnú cenu a uvidíte maržu.', cs: 'Zadejte nákupní cenu a uvidíte marži.' },
  marginSaved: { en: 'as the hub computed it when saved', sk: 'ako ju hub vypočítal pri uložení', cs: 'jak ji hub vypočítal při uložení' },
  marginPreview: { en: 'after saving (price without VAT minus cost price)', sk: 'po uložení (cena bez DPH mínus nákupná cena)', cs: 'po uložení (cena bez DPH minus nákupní cena)' },
  barcodeHint: { en: 'EAN-8 or EAN-13; unique within the stock.', sk: 'EAN-8 alebo EAN-13; jedinečný v rámci skladu.', cs: 'EAN-8 nebo EAN-13; jedinečný v rámci skladu.' },
  barcodeBad: { en: 'An EAN has 8 or 13 digits.', sk: 'EAN má 8 alebo 13 číslic.', cs: 'EAN má 8 nebo 13 číslic.' },
  minimum: { en: 'Minimum in stock', sk: 'Minimálne množstvo', cs: 'Minimální množství' },
  minimumHint: { en: 'Below this the product shows as low on stock.', sk: 'Pod týmto množstvom sa produkt ukáže ako dochádzajúci.', cs: 'Pod tímto množstvím se produkt ukáže jako docházející.' },
  printsOnHint: { en: 'Kitchen printers that get an order for this product.', sk: 'Kuchynské tlačiarne, ktoré dostanú objednávku na tento produkt.', cs: 'Kuchyňské tiskárny, které dostanou objednávku na tento produkt.' },
  noPrinters: { en: 'No kitchen printers yet.', sk: 'Zatiaľ žiadne kuchynské tlačiarne.', cs: 'Zatím žádné kuchyňské tiskárny.' },
  offersModifiers: { en: 'Modifiers at the register', sk: 'Prílohy a úpravy na pokladni', cs: 'Přílohy a úpravy na pokladně' },
  offersModifiersHint: { en: 'What the register asks for when this product is sold (a side dish, extras), by each modifier’s rules.', sk: 'Na čo sa pokladňa opýta pri predaji tohto produktu (príloha, niečo navyše), podľa pravidiel každej voľby.', cs: 'Na co se pokladna zeptá při prodeji tohoto produktu (příloha, něco navíc), podle pravidel každé volby.' },
  noModifiersYet: { en: 'No modifiers yet (Catalog & stock → Modifiers).', sk: 'Zatiaľ žiadne prílohy a úpravy (Katalóg a sklad → Prílohy a úpravy).', cs: 'Zatím žádné přílohy a úpravy (Katalog a sklad → Přílohy a úpravy).' },
  parts: { en: 'Recipe parts', sk: 'Suroviny receptúry', cs: 'Suroviny receptury' },
  addPart: { en: 'Add part', sk: 'Pridať surovinu', cs: 'Přidat surovinu' },
  noParts: { en: 'No parts: selling it moves no stock.', sk: 'Žiadne suroviny: predaj nehýbe skladom.', cs: 'Žádné suroviny: prodej nehýbe skladem.' },
  part: { en: 'Stock item', sk: 'Skladová položka', cs: 'Skladová položka' },
  partHint: { en: 'Type a few letters of its name.', sk: 'Napíšte pár písmen z názvu.', cs: 'Napište pár písmen z názvu.' },
  partChosen: { en: 'Code {code} · in stock {qty}', sk: 'Kód {code} · na sklade {qty}', cs: 'Kód {code} · na skladě {qty}' },
  partRequired: { en: 'Choose a stock item from the list.', sk: 'Vyberte skladovú položku zo zoznamu.', cs: 'Vyberte skladovou položku ze seznamu.' },
  quantity: { en: 'Quantity', sk: 'Množstvo', cs: 'Množství' },
  moreThanZero: { en: 'Must be more than 0.', sk: 'Musí byť viac ako 0.', cs: 'Musí být více než 0.' },
});

/** Units offered as one types (any other short text will do), as a shop in each language writes them. */
const UNITS: Record<Language, string[]> = {
  sk: ['ks', 'kg', 'g', 'l', 'ml', 'fľ.', 'bal.', 'porc.'],
  cs: ['ks', 'kg', 'g', 'l', 'ml', 'lahev', 'bal.', 'porce'],
  en: ['pcs', 'kg', 'g', 'l', 'ml', 'bottle', 'pack', 'portion'],
};

const PLU_TYPES = ['StockItem', 'Recipe', 'Service', 'Container'] as const;
const pluTypeWord = (type: string) => ((PLU_TYPES as readonly string[]).includes(type) ? t(type as (typeof PLU_TYPES)[number]) : type);
const typeOptions = () => options(ENUMS.pluType, pluTypeWord);

const isLow = (p: Plu) => p.type === 'StockItem' && p.minimumQuantity !== null && p.minimumQuantity !== undefined && p.stockQuantity < p.minimumQuantity;

const stockQty = (p: Plu) =>
  p.type === 'StockItem' ? (
    <>
      <b class={`num${p.stockQuantity < 0 ? ' negative' : ''}`} data-testid={`qty-${p.code}`}>
        {stockQuantity(p.stockQuantity, p.unit)}
      </b>
      {isLow(p) && (
        <>
          {' '}
          <Badge tone="warn">{t('low')}</Badge>
        </>
      )}
    </>
  ) : (
    <span class="muted">—</span>
  );

const pluColumns = (colorOf: (category: string) => string | null): Column<Plu>[] => [
  { id: 'code', title: t('code'), sort: 'code', align: 'right', render: (p) => <span class="num">{p.code}</span> },
  { id: 'name', title: t('name'), sort: 'name', render: (p) => <b>{p.name}</b> },
  { id: 'stock', title: t('stock'), sort: 'stockName', render: (p) => p.stockName },
  {
    id: 'category',
    title: t('category'),
    render: (p) =>
      p.category ? (
        <span class="nowrap">
          <Swatch color={colorOf(p.category)} />
          {p.category}
        </span>
      ) : (
        '—'
      ),
    secondary: true,
  },
  { id: 'type', title: t('type'), sort: 'type', render: (p) => pluTypeWord(p.type), secondary: true },
  { id: 'price', title: t('price'), align: 'right', render: (p) => <span class="num">{money(p.unitPrice.amount, p.unitPrice.currencyLabel)}</span> },
  { id: 'vat', title: t('vat'), align: 'right', render: (p) => percent(p.vatInfo?.rate), secondary: true },
  { id: 'margin', title: t('margin'), align: 'right', render: (p) => (p.margin ? <span class="num">{money(p.margin.amount, p.unitPrice.currencyLabel)}{p.margin.rate !== null ? ` · ${percent(p.margin.rate)}` : ''}</span> : '—'), secondary: true },
  { id: 'printers', title: t('printsOn'), render: (p) => p.orderEndpointNames.join(', ') || '—', secondary: true },
  { id: 'qty', title: t('inStock'), align: 'right', render: stockQty },
  { id: 'active', title: '', render: (p) => (p.isActive ? null : <Badge>{t('inactive')}</Badge>) },
];

export function Products() {
  const [q, setQuery] = useQuery();
  const [edit, setEdit] = useEditParam();
  const can = useCan();
  const stocks = useOptions<Stock>('stocks', (s) => s.name);
  const categoryList = useAll<Category>('categories', { sort: 'order,name' });
  const categories = (categoryList.data ?? []).map((c) => ({ value: c.name, label: c.name }));
  const colorOf = (name: string) => categoryList.data?.find((c) => c.name === name)?.color ?? null;
  const low = useAll<Plu>('plus', { filters: { isBelowMinimum: op.eq(true) }, sort: 'name' }, ['plus', 'stocktransfers']);
  const set = (k: string, v: unknown) => setQuery({ [k]: v ? String(v) : null, page: null });
  const barcode = (q.get('barcode') ?? '').trim();
  return (
    <>
      {low.data && low.data.length > 0 && (
        <Notice tone="warn">
          <div data-testid="low-stock">
            <b>{t('lowTitle', { n: low.data.length })}</b>
            <ul class="low-stock-list">
              {low.data.map((p) => (
                <li key={p.id}>
                  <a
                    href={`?edit=${encodeURIComponent(p.id)}`}
                    onClick={(e) => {
                      e.preventDefault();
                      setEdit(p.id);
                    }}
                  >
                    {p.name}
                  </a>{' '}
                  <span class="muted">
                    ({p.stockName}) {t('lowItem', { qty: stockQuantity(p.stockQuantity, p.unit), min: stockQuantity(p.minimumQuantity, p.unit) })}
                  </span>
                </li>
              ))}
            </ul>
            {q.get('low') !== '1' && (
              <Button small variant="ghost" onClick={() => set('low', '1')}>
                {t('showLow')}
              </Button>
            )}
          </div>
        </Notice>
      )}
      <Toolbar
        actions={
          can('PluCreate') && (
            <Button variant="primary" icon="plus" onClick={() => setEdit('new')}>
              {t('newProduct')}
            </Button>
          )
        }
      >
        <div class="filter-grid">
          <Field label={t('search')} kind="search" value={q.get('q') ?? ''} onChange={(v) => set('q', v)} placeholder={t('nameContains')} testId="plu-search" />
          <Field label={t('barcode')} kind="search" value={q.get('barcode') ?? ''} onChange={(v) => set('barcode', v)} placeholder={t('scanOrType')} testId="plu-barcode" />
          <Field label={t('stock')} kind="select" emptyOption={t('allStocks')} value={q.get('stock') ?? ''} onChange={(v) => set('stock', v)} options={stocks} />
          <Field label={t('category')} kind="select" emptyOption={t('allCategories')} value={q.get('category') ?? ''} onChange={(v) => set('category', v)} options={categories} testId="plu-category" />
          <Field label={t('type')} kind="select" emptyOption={t('allTypes')} value={q.get('type') ?? ''} onChange={(v) => set('type', v)} options={typeOptions()} />
          <Field label={t('lowOnly')} kind="switch" value={q.get('low') === '1'} onChange={(v) => set('low', v ? '1' : null)} testId="plu-low" />
        </div>
      </Toolbar>
      <Card>
        <DataTable<Plu>
          resource="plus"
          label={t('products')}
          columns={pluColumns(colorOf)}
          rowKey={(p) => p.id}
          defaultSort="name"
          filters={{
            name: q.get('q') ? op.contains(q.get('q')!) : null,
            barcode: barcode ? op.eq(barcode) : null,
            stockName: q.get('stock') ? op.eq(q.get('stock')!) : null,
            category: q.get('category') ? op.eq(q.get('category')!) : null,
            type: q.get('type') ? op.eq(q.get('type')!) : null,
            isBelowMinimum: q.get('low') === '1' ? op.eq(true) : null,
          }}
          live={['plus', 'stocktransfers']}
          onOpen={(p) => setEdit(p.id)}
          selected={edit}
          empty={{ title: t('noProducts'), text: q.toString() ? t('nothingMatches') : t('addFirst') }}
        />
      </Card>
      {edit && <PluEditor editKey={edit === 'new' ? null : edit} onClose={() => setEdit(null)} />}
    </>
  );
}

/** The margin the hub computes at each write (marginOf in hub/resources/plus): price without VAT minus cost. */
function marginPreview(v: Plu): { amount: number; rate: number | null } | null {
  const cost = v.costPrice?.amount;
  if (typeof cost !== 'number') return null;
  const price = typeof v.unitPrice?.amount === 'number' ? v.unitPrice.amount : 0;
  const vat = typeof v.vatInfo?.rate === 'number' ? v.vatInfo.rate : 0;
  const net = (price * 100) / (100 + vat);
  const amount = Math.round((net - cost) * 100) / 100;
  return { amount, rate: net === 0 ? null : Math.round(((net - cost) / net) * 10000) / 100 };
}

function MarginView({ form, stored }: { form: FormApi<Plu>; stored: Plu | null }) {
  const v = form.values;
  const same = stored && stored.costPrice?.amount === v.costPrice?.amount && stored.unitPrice.amount === v.unitPrice?.amount && stored.vatInfo?.rate === v.vatInfo?.rate;
  const m = same ? stored.margin : marginPreview(v);
  return (
    <div class="field" data-testid="plu-margin">
      <span class="field-label">{t('margin')}</span>
      {m ? (
        <div>
          <b class={`num${m.amount < 0 ? ' negative' : ''}`}>{money(m.amount)}</b>
          {m.rate !== null && <span class="num"> · {percent(m.rate)}</span>}
          <div class="field-hint">{same ? t('marginSaved') : t('marginPreview')}</div>
        </div>
      ) : (
        <div class="field-hint">{t('marginNone')}</div>
      )}
    </div>
  );
}

const emptyToNull = <T,>(v: T | '' | null | undefined): T | null => (v === '' || v === undefined ? null : v);

function PluEditor({ editKey, onClose }: { editKey: string | null; onClose: () => void }) {
  const stocks = useOptions<Stock>('stocks', (s) => s.name);
  const categories = useOptions<Category>('categories', (c) => c.name);
  const printers = useOptions<OrderEndpoint>('orderendpoints', (p) => p.name);
  const modifierOptions = useOptions<Modifier>('modifiers', (m) => m.id, (m) => m.name || m.id);
  return (
    <Editor<Plu>
      resource="plus"
      editKey={editKey}
      noun={t('noun')}
      title={(v, isNew) => (isNew ? t('newProduct') : v.name || t('noun'))}
      subtitle={(v) => (v.type === 'StockItem' ? t('inStockNow', { qty: stockQuantity(v.stockQuantity, v.unit) }) : pluTypeWord(v.type))}
      defaults={{ id: '', code: null as unknown as number, stockName: '', name: '', type: 'Service', unitPrice: { amount: 0, currencyLabel: null }, vatInfo: { category: 1, rate: 23 }, orderEndpointNames: [], receipt: [], stockQuantity: 0, isActive: true, category: null, costPrice: null, barcode: null, minimumQuantity: null, unit: null, modifierIds: [] }}
      rights={{ create: 'PluCreate', update: 'PluUpdate', delete: 'PluDelete' }}
      toBody={(v, isNew) => {
        const { id, margin: _margin, stockQuantity: _qty, ...rest } = v;
        const cost = rest.costPrice?.amount;
        const body = {
          ...rest,
          category: emptyToNull(rest.category),
          barcode: emptyToNull(typeof rest.barcode === 'string' ? rest.barcode.trim() : rest.barcode),
          costPrice: typeof cost === 'number' ? { amount: cost } : null,
          minimumQuantity: rest.type === 'StockItem' && typeof rest.minimumQuantity === 'number' ? rest.minimumQuantity : null,
          unit: rest.type === 'StockItem' && typeof rest.unit === 'string' && rest.unit.trim() ? rest.unit.trim() : null,
          receipt: rest.type === 'Recipe' ? rest.receipt.map((r) => ({ pluId: { code: r.pluId.code, stockName: r.pluId.stockName }, quantity: r.quantity })) : [],
        };
        return isNew ? body : { id, ...body };
      }}
      onClose={onClose}
    >
      {(form, { isNew, stored }) => (
        <>
          <div class="form-grid">
            <Field form={form} name="name" label={t('name')} required maxLength={4000} wide />
            <Field form={form} name="code" label={t('code')} kind="number" integer min={0} required disabled={!isNew} hint={isNew ? t('codeHint') : undefined} />
            <Field form={form} name="stockName" label={t('stock')} kind="select" emptyOption={t('choose')} options={stocks} required disabled={!isNew} />
            <Field form={form} name="category" label={t('category')} kind="select" emptyOption={t('noCategory')} options={categories} nullable testId="plu-edit-category" />
            <Field form={form} name="type" label={t('type')} kind="select" options={typeOptions()} required hint={t('typeHint')} />
            <Field form={form} name="unitPrice.amount" label={t('price')} kind="number" min={0} required suffix="€" />
            <Field form={form} name="vatInfo.rate" label={t('vatRate')} kind="number" min={0} max={100} suffix="%" required />
            <Field form={form} name="vatInfo.category" label={t('vatGroup')} kind="number" integer min={0} max={2147483647} required hint={t('vatGroupHint')} />
            <Field form={form} name="costPrice.amount" label={t('costPrice')} kind="number" min={0} nullable suffix="€" hint={t('costHint')} testId="plu-cost" />
            <MarginView form={form} stored={stored} />
            <Field
              form={form}
              name="barcode"
              label={t('barcode')}
              nullable
              hint={t('barcodeHint')}
              testId="plu-edit-barcode"
              validate={(v) => (typeof v === 'string' && v.trim() && !/^(\d{8}|\d{13})$/.test(v.trim()) ? t('barcodeBad') : null)}
            />
            {form.values.type === 'StockItem' && <Field form={form} name="unit" label={t('unit')} nullable maxLength={16} hint={t('unitHint')} list={UNITS[language()]} testId="plu-unit" />}
            {form.values.type === 'StockItem' && <Field form={form} name="minimumQuantity" label={t('minimum')} kind="number" min={0} nullable hint={t('minimumHint')} suffix={form.values.unit ?? undefined} testId="plu-minimum" />}
            <Field form={form} name="isActive" label={t('onSale')} kind="switch" />
          </div>
          <Field form={form} name="orderEndpointNames" label={t('printsOn')} kind="checklist" options={printers} hint={printers.length ? t('printsOnHint') : t('noPrinters')} />
          <Field form={form} name="modifierIds" label={t('offersModifiers')} kind="checklist" options={modifierOptions} hint={modifierOptions.length ? t('offersModifiersHint') : t('noModifiersYet')} testId="plu-modifiers" />
          {form.values.type === 'Recipe' && (
            <Rows form={form} name="receipt" label={t('parts')} addLabel={t('addPart')} empty={t('noParts')} newRow={() => ({ pluId: { code: null, stockName: '' }, quantity: 1 })}>
              {(p) => (
                <>
                  <PartPicker form={form as unknown as AnyForm} prefix={p} self={isNew ? null : { code: form.values.code, stockName: form.values.stockName }} />
                  <Field form={form} name={`${p}.quantity`} label={t('quantity')} kind="number" required validate={(v) => (typeof v === 'number' && v <= 0 ? t('moreThanZero') : null)} />
                </>
              )}
            </Rows>
          )}
        </>
      )}
    </Editor>
  );
}

const partLabel = (p: { name: string; stockName: string }) => `${p.name} · ${p.stockName}`;

/**
 * A recipe part chosen by its name: a search box over the stock items of every stock (a datalist),
 * writing the chosen plu's code and stock into `<prefix>.pluId`.
 */
function PartPicker({ form, prefix, self }: { form: AnyForm; prefix: string; self: { code: number; stockName: string } | null }) {
  const { data } = useAll<Plu>('plus', { filters: { type: op.eq('StockItem') }, sort: 'name' }, ['plus']);
  const items = useMemo(() => (data ?? []).filter((p) => !(self && p.code === self.code && p.stockName === self.stockName)), [data, self?.code, self?.stockName]);
  const ref = form.get(`${prefix}.pluId`) as { code: number | null; stockName: string; name?: string } | undefined;
  const current = ref && ref.code !== null ? items.find((p) => p.code === ref.code && p.stockName === ref.stockName) : undefined;
  const shown = current ? partLabel(current) : ref?.name && ref.code !== null ? partLabel({ name: ref.name, stockName: ref.stockName }) : '';
  const [text, setText] = useState(shown);
  // The stored part's name arrives with the list of stock items: show it once it is known — unless
  // something was typed meanwhile (read as it is now, not as this render saw it: the effect may run late).
  useEffect(() => {
    if (shown) setText((typed) => typed || shown);
  }, [shown]);
  const listId = `parts-${prefix.replace(/\W/g, '-')}`;
  const member = `${prefix}.pluId`;
  // The part must be one of the list: a check of the form's own, so nothing is sent without it,
  // and the hub's refusal of `receipt[i].pluId` shows here too.
  useEffect(
    () => form.register(member, (v) => ((v as { code?: number | null } | undefined)?.code === null || (v as { code?: number | null } | undefined)?.code === undefined ? t('partRequired') : null)),
    [form.register, member],
  );
  const error = form.errors[member];
  const choose = (value: string) => {
    setText(value);
    const needle = value.trim().toLocaleLowerCase();
    const exact = items.find((p) => partLabel(p).toLocaleLowerCase() === needle);
    const byName = items.filter((p) => p.name.toLocaleLowerCase() === needle);
    const hit = exact ?? (byName.length === 1 ? byName[0] : undefined);
    form.set(member, hit ? { code: hit.code, stockName: hit.stockName, name: hit.name } : { code: null, stockName: '' });
  };
  // Typed before the list of stock items arrived: matched once it is there.
  useEffect(() => {
    if (text && (!ref || ref.code === null)) choose(text);
  }, [items]);
  const id = `${listId}-input`;
  return (
    <div class={`field field-search${error ? ' has-error' : ''}`}>
      <label for={id} class="field-label">
        {t('part')}
        <span class="req" aria-hidden="true">
          {' '}
          *
        </span>
      </label>
      <div class="field-control">
        <input
          id={id}
          class="input"
          type="search"
          list={listId}
          autoComplete="off"
          value={text}
          placeholder={t('partHint')}
          aria-invalid={error ? true : undefined}
          data-testid="part-picker"
          onInput={(e) => choose(e.currentTarget.value)}
        />
        <datalist id={listId}>
          {items.map((p) => (
            <option key={p.id} value={partLabel(p)} />
          ))}
        </datalist>
      </div>
      {error ? (
        <div class="field-error" role="alert">
          {error}
        </div>
      ) : current ? (
        <div class="field-hint">{t('partChosen', { code: current.code, qty: stockQuantity(current.stockQuantity, current.unit) })}</div>
      ) : null}
    </div>
  );
}
