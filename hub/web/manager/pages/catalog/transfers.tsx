/**
 * Catalog › Stock transfers: the manager posts Income, Outcome, Transfer and Invoice; the hub makes
 * Sale and Correction.
 */
import { useEffect, useMemo } from 'preact/hooks';
import { DataTable, type Column } from '../../components/DataTable';
import { Editor } from '../../components/Editor';
import { Field, type AnyForm } from '../../components/Field';
import { Rows } from '../../components/Rows';
import { Drawer, Facts, Toolbar } from '../../components/ui';
import { Badge, Button, Card, Notice, Spinner } from '../../../shared/ui';
import { api, op, path } from '../../lib/api';
import { useLoad, useOne, useOptions } from '../../lib/data';
import { dateTime, money } from '../../lib/format';
import { useEditParam, useQuery } from '../../lib/router';
import { useCan } from '../../lib/session';
import { ENUMS, options } from '../../lib/enums';
import type { Plu, Stock, StockTransfer } from '../../../shared/types';
import { messages } from '../../../shared/i18n';
import { TransferItems, usePluNames, who } from './transfer-items';

const t = messages({
  Income: { en: 'Income', sk: 'Príjemka', cs: 'Příjemka' },
  Outcome: { en: 'Write-off', sk: 'Výdajka', cs: 'Výdejka' },
  Transfer: { en: 'Transfer', sk: 'Prevodka', cs: 'Převodka' },
  Sale: { en: 'Sale', sk: 'Predaj', cs: 'Prodej' },
  Invoice: { en: 'Invoice', sk: 'Faktúra', cs: 'Faktura' },
  Correction: { en: 'Correction', sk: 'Inventúrny rozdiel', cs: 'Inventurní rozdíl' },
  IncomeLong: { en: 'Income (goods received)', sk: 'Príjemka (prijatý tovar)', cs: 'Příjemka (přijaté zboží)' },
  OutcomeLong: { en: 'Write-off', sk: 'Výdajka (odpis)', cs: 'Výdejka (odpis)' },
  TransferLong: { en: 'Transfer between stocks', sk: 'Prevod medzi skladmi', cs: 'Převod mezi sklady' },
  InvoiceLong: { en: 'Invoice (sold on invoice)', sk: 'Faktúra (predaj na faktúru)', cs: 'Faktura (prodej na fakturu)' },
  document: { en: 'Document', sk: 'Doklad', cs: 'Doklad' },
  type: { en: 'Type', sk: 'Typ', cs: 'Typ' },
  date: { en: 'Date', sk: 'Dátum', cs: 'Datum' },
  stock: { en: 'Stock', sk: 'Sklad', cs: 'Sklad' },
  items: { en: 'Items', sk: 'Položky', cs: 'Položky' },
  by: { en: 'By', sk: 'Kto', cs: 'Kdo' },
  note: { en: 'Note', sk: 'Poznámka', cs: 'Poznámka' },
  ticket: { en: 'Ticket', sk: 'Účet', cs: 'Účet' },
  newTransfer: { en: 'New transfer', sk: 'Nový pohyb', cs: 'Nový pohyb' },
  allTypes: { en: 'All types', sk: 'Všetky typy', cs: 'Všechny typy' },
  allStocks: { en: 'All stocks', sk: 'Všetky sklady', cs: 'Všechny sklady' },
  transfers: { en: 'Stock transfers', sk: 'Skladové pohyby', cs: 'Skladové pohyby' },
  transfer: { en: 'Stock transfer', sk: 'Skladový pohyb', cs: 'Skladový pohyb' },
  noTransfers: { en: 'No stock transfers', sk: 'Žiadne skladové pohyby', cs: 'Žádné skladové pohyby' },
  noTransfersText: { en: 'Goods received, moved or written off appear here; so do the sales of stock items.', sk: 'Tu sa zobrazí prijatý, presunutý alebo odpísaný tovar, aj predaj skladových položiek.', cs: 'Zde se zobrazí přijaté, přesunuté nebo odepsané zboží, i prodej skladových položek.' },
  product: { en: 'Product', sk: 'Produkt', cs: 'Produkt' },
  quantity: { en: 'Quantity', sk: 'Množstvo', cs: 'Množství' },
  newTransferTitle: { en: 'New stock transfer', sk: 'Nový skladový pohyb', cs: 'Nový skladový pohyb' },
  fromStock: { en: 'From stock', sk: 'Zo skladu', cs: 'Ze skladu' },
  toStock: { en: 'To stock', sk: 'Do skladu', cs: 'Do skladu' },
  choose: { en: 'Choose…', sk: 'Vyberte…', cs: 'Vyberte…' },
  otherStock: { en: 'Choose another stock than the source.', sk: 'Vyberte iný sklad, ako je zdrojový.', cs: 'Vyberte jiný sklad, než je zdrojový.' },
  addItem: { en: 'Add item', sk: 'Pridať položku', cs: 'Přidat položku' },
  addItemsText: { en: 'Add the products that move.', sk: 'Pridajte produkty, ktoré sa presúvajú.', cs: 'Přidejte produkty, které se přesouvají.' },
  needItems: { en: 'Add at least one item.', sk: 'Pridajte aspoň jednu položku.', cs: 'Přidejte alespoň jednu položku.' },
  moreThanZero: { en: 'Must be more than 0.', sk: 'Musí byť viac ako 0.', cs: 'Musí být více než 0.' },
  notePlaceholder: { en: 'e.g. Delivered late, two crates damaged', sk: 'napr. Dodané neskoro, dve prepravky poškodené', cs: 'např. Dodáno pozdě, dvě přepravky poškozené' },
  chooseStockFirst: { en: 'Choose the stock first', sk: 'Najprv vyberte sklad', cs: 'Nejprve vyberte sklad' },
  value: { en: 'Value', sk: 'Hodnota', cs: 'Hodnota' },
  costPrice: { en: 'Purchase price', sk: 'Nákupná cena', cs: 'Nákupní cena' },
  costPriceHint: { en: 'Per unit, without VAT.', sk: 'Za jednotku, bez DPH.', cs: 'Za jednotku, bez DPH.' },
  supplier: { en: 'Supplier', sk: 'Dodávateľ', cs: 'Dodavatel' },
  supplierName: { en: 'Supplier', sk: 'Dodávateľ', cs: 'Dodavatel' },
  supplierHint: { en: 'Who delivered the goods, as on their delivery note.', sk: 'Kto tovar dodal, ako na dodacom liste.', cs: 'Kdo zboží dodal, jako na dodacím listu.' },
  companyId: { en: 'Company ID', sk: 'IČO', cs: 'IČO' },
  vatId: { en: 'VAT ID', sk: 'IČ DPH', cs: 'DIČ' },
  supplierDocument: { en: 'Their delivery note or invoice no.', sk: 'Číslo ich dodacieho listu alebo faktúry', cs: 'Číslo jejich dodacího listu nebo faktury' },
  totalCost: { en: 'Value at cost', sk: 'Hodnota v nákupných cenách', cs: 'Hodnota v nákupních cenách' },
});

const TRANSFER_TYPES = ['Income', 'Outcome', 'Transfer', 'Sale', 'Invoice', 'Correction'] as const;
const typeWord = (type: string) => ((TRANSFER_TYPES as readonly string[]).includes(type) ? t(type as (typeof TRANSFER_TYPES)[number]) : type);
const typeLong = (type: string) => (type === 'Income' ? t('IncomeLong') : type === 'Outcome' ? t('OutcomeLong') : type === 'Transfer' ? t('TransferLong') : type === 'Invoice' ? t('InvoiceLong') : typeWord(type));

const TYPE_TONE: Record<string, 'good' | 'warn' | 'info' | 'neutral' | 'bad'> = { Income: 'good', Outcome: 'warn', Transfer: 'info', Sale: 'neutral', Invoice: 'warn', Correction: 'bad' };
/** Where the goods went; a Sale or Correction names no stock of its own, its items do. */
const route = (d: StockTransfer) =>
  [d.sourceStockName, d.targetStockName].filter(Boolean).join(' → ') || [...new Set(d.items.map((i) => i.plu.stockName))].join(', ') || '—';

const transferColumns = (): Column<StockTransfer>[] => [
  { id: 'number', title: t('document'), sort: 'documentNumber', render: (d) => <b class="mono">{d.documentNumber}</b> },
  { id: 'type', title: t('type'), render: (d) => <Badge tone={TYPE_TONE[d.type]}>{typeWord(d.type)}</Badge> },
  { id: 'created', title: t('date'), sort: 'createdAt', render: (d) => dateTime(d.createdAt) },
  { id: 'route', title: t('stock'), render: route },
  { id: 'items', title: t('items'), align: 'right', render: (d) => d.items.length },
  { id: 'value', title: t('value'), align: 'right', render: (d) => <span class={`num${(d.totalCost?.amount ?? 0) < 0 ? ' negative' : ''}`}>{d.totalCost ? money(d.totalCost.amount) : '—'}</span> },
  { id: 'supplier', title: t('supplier'), render: (d) => d.supplier?.name ?? '', secondary: true },
  { id: 'by', title: t('by'), render: (d) => who(d.createdBy), secondary: true },
  { id: 'note', title: t('note'), render: (d) => d.note || '', secondary: true },
];

export function Transfers() {
  const [q, setQuery] = useQuery();
  const [edit, setEdit] = useEditParam();
  const can = useCan();
  const stocks = useOptions<Stock>('stocks', (s) => s.name);
  const set = (k: string, v: unknown) => setQuery({ [k]: v ? String(v) : null, page: null });
  return (
    <>
      <Toolbar
        actions={
          can('StockTransferCreate') && (
            <Button variant="primary" icon="plus" onClick={() => setEdit('new')}>
              {t('newTransfer')}
            </Button>
          )
        }
      >
        <div class="filter-grid">
          <Field label={t('type')} kind="select" emptyOption={t('allTypes')} value={q.get('type') ?? ''} onChange={(v) => set('type', v)} options={options(ENUMS.transferType, typeWord)} />
          <Field label={t('stock')} kind="select" emptyOption={t('allStocks')} value={q.get('stock') ?? ''} onChange={(v) => set('stock', v)} options={stocks} />
        </div>
      </Toolbar>
      <Card>
        <DataTable<StockTransfer>
          resource="stocktransfers"
          label={t('transfers')}
          columns={transferColumns()}
          rowKey={(d) => d.id}
          defaultSort="-createdAt"
          filters={{ type: q.get('type') ? op.eq(q.get('type')!) : null, stockName: q.get('stock') ? op.eq(q.get('stock')!) : null }}
          onOpen={(d) => setQuery({ doc: d.id }, { replace: false })}
          selected={q.get('doc')}
          empty={{ title: t('noTransfers'), text: t('noTransfersText') }}
        />
      </Card>
      {q.get('doc') && <TransferDetail id={q.get('doc')!} onClose={() => setQuery({ doc: null })} />}
      {edit && <NewTransfer onClose={() => setEdit(null)} />}
    </>
  );
}

function TransferDetail({ id, onClose }: { id: string; onClose: () => void }) {
  const { data: d, error } = useOne<StockTransfer>(path('stocktransfers', id));
  return (
    <Drawer wide title={d ? `${typeWord(d.type)} ${d.documentNumber}` : t('transfer')} onClose={onClose}>
      {error && !d ? (
        <Notice tone="bad">{error}</Notice>
      ) : !d ? (
        <Spinner />
      ) : (
        <div class="detail">
          <Facts
            items={[
              [t('document'), <b class="mono">{d.documentNumber}</b>],
              [t('type'), <Badge tone={TYPE_TONE[d.type]}>{typeWord(d.type)}</Badge>],
              [t('date'), dateTime(d.createdAt)],
              [t('by'), who(d.createdBy)],
              [t('stock'), route(d)],
              ...(d.supplier
                ? ([[t('supplier'), [d.supplier.name, d.supplier.companyId && `${t('companyId')} ${d.supplier.companyId}`, d.supplier.vatId && `${t('vatId')} ${d.supplier.vatId}`].filter(Boolean).join(' · ')], [t('supplierDocument'), d.supplier.documentNumber || '—']] as Array<[string, string]>)
                : []),
              [t('totalCost'), d.totalCost ? <b class="num" data-testid="transfer-total-cost">{money(d.totalCost.amount)}</b> : '—'],
              [t('ticket'), d.ticketId ? <a href={`/tickets/${encodeURIComponent(d.ticketId)}`}>{d.ticketId}</a> : '—'],
              [t('note'), d.note || '—'],
            ]}
          />
          <h3>{t('items')}</h3>
          <TransferItems transfer={d} />
        </div>
      )}
    </Drawer>
  );
}

interface TransferDraft {
  type: string;
  sourceStockName: string | null;
  targetStockName: string | null;
  note: string | null;
  supplier: { name: string; companyId: string | null; vatId: string | null; documentNumber: string | null };
  items: Array<{ plu: { code: string | number | null }; quantity: number | null; costPrice: { amount: number | null } }>;
}

function NewTransfer({ onClose }: { onClose: () => void }) {
  const stocks = useOptions<Stock>('stocks', (s) => s.name);
  const stockItems = usePluNames(stocks.map((o) => o.value));
  const suppliers = useSuppliers();
  return (
    <Editor<TransferDraft>
      resource="stocktransfers"
      editKey={null}
      noun={t('transfer')}
      wide
      title={() => t('newTransferTitle')}
      // No blank row to start with: an empty row's required fields would block saving.
      defaults={{ type: 'Income', sourceStockName: null, targetStockName: null, note: null, supplier: { name: '', companyId: null, vatId: null, documentNumber: null }, items: [] }}
      rights={{ create: 'StockTransferCreate', update: 'StockTransferCreate' }}
      toBody={(v) => ({
        type: v.type,
        sourceStockName: v.type === 'Income' ? null : v.sourceStockName,
        targetStockName: v.type === 'Income' || v.type === 'Transfer' ? v.targetStockName : null,
        note: v.note,
        // A supplier is an Income's, and only when named.
        supplier: v.type === 'Income' && v.supplier.name.trim() ? { ...v.supplier, name: v.supplier.name.trim() } : null,
        items: v.items.map((i) => ({
          plu: { code: Number(i.plu.code) },
          quantity: i.quantity,
          ...(v.type === 'Income' && typeof i.costPrice?.amount === 'number' ? { costPrice: { amount: i.costPrice.amount } } : {}),
        })),
      })}
      onClose={onClose}
    >
      {(form) => {
        const type = form.values.type;
        const itemStock = type === 'Income' ? form.values.targetStockName : form.values.sourceStockName;
        const units = new Map([...stockItems.values()].filter((p) => p.stockName === itemStock).map((p) => [String(p.code), p.unit]));
        return (
          <>
            <div class="form-grid">
              <Field form={form} name="type" label={t('type')} kind="select" options={options(ENUMS.postableTransferType, typeLong)} required />
              {type !== 'Income' && <Field form={form} name="sourceStockName" label={t('fromStock')} kind="select" emptyOption={t('choose')} options={stocks} required />}
              {(type === 'Income' || type === 'Transfer') && (
                <Field
                  form={form}
                  name="targetStockName"
                  label={t('toStock')}
                  kind="select"
                  emptyOption={t('choose')}
                  options={stocks}
                  required
                  validate={(v, all) => (type === 'Transfer' && v && v === all.sourceStockName ? t('otherStock') : null)}
                />
              )}
            </div>
            {type === 'Income' && (
              <div class="form-grid" data-testid="supplier">
                <Field form={form} name="supplier.name" label={t('supplierName')} hint={t('supplierHint')} list={suppliers.map((x) => x.name)} maxLength={200} testId="supplier-name" />
                <Field form={form} name="supplier.documentNumber" label={t('supplierDocument')} nullable testId="supplier-document" />
                <Field form={form} name="supplier.companyId" label={t('companyId')} nullable testId="supplier-company-id" />
                <Field form={form} name="supplier.vatId" label={t('vatId')} nullable />
                <SupplierFill form={form as unknown as AnyForm} suppliers={suppliers} />
              </div>
            )}
            <NeedItems form={form as unknown as AnyForm} />
            <Rows form={form} name="items" label={t('items')} addLabel={t('addItem')} empty={t('addItemsText')} newRow={() => ({ plu: { code: null }, quantity: null, costPrice: { amount: null } })}>
              {(p) => (
                <>
                  <PluSelect form={form} name={`${p}.plu.code`} stockName={itemStock} />
                  <Field
                    form={form}
                    name={`${p}.quantity`}
                    label={t('quantity')}
                    kind="number"
                    required
                    suffix={units.get(String(form.get(`${p}.plu.code`))) ?? undefined}
                    validate={(v) => (typeof v === 'number' && v <= 0 ? t('moreThanZero') : null)}
                  />
                  {type === 'Income' && <Field form={form} name={`${p}.costPrice.amount`} label={t('costPrice')} kind="number" min={0} nullable suffix="€" hint={t('costPriceHint')} testId="item-cost" />}
                </>
              )}
            </Rows>
            <Field form={form} name="note" label={t('note')} kind="textarea" nullable placeholder={t('notePlaceholder')} />
          </>
        );
      }}
    </Editor>
  );
}

/** A product of one stock (StockItem only: the only kind kept in stock). */
function PluSelect({ form, name, stockName }: { form: AnyForm; name: string; stockName: string | null }) {
  const { data } = useLoad(stockName ? `stock-items:${stockName}` : null, (signal) => api.all<Plu>('plus', { filters: { stockName: op.eq(stockName!), type: op.eq('StockItem') }, sort: 'name' }, signal), ['plus']);
  const opts = (data ?? []).map((p) => ({ value: String(p.code), label: `${p.name} (${p.code})` }));
  return <Field form={form} name={name} label={t('product')} kind="select" emptyOption={stockName ? t('choose') : t('chooseStockFirst')} options={opts} required disabled={!stockName} />;
}

/** The suppliers of the latest incomes, each once (newest first): offered as one types a supplier's name. */
function useSuppliers(): Array<NonNullable<StockTransfer['supplier']>> {
  const { data } = useLoad('suppliers', (signal) => api.list<StockTransfer>('stocktransfers', { filters: { type: op.eq('Income'), supplierName: op.ne('null') }, sort: '-createdAt', take: 200 }, signal), ['stocktransfers']);
  return useMemo(() => {
    const seen = new Map<string, NonNullable<StockTransfer['supplier']>>();
    for (const d of data?.items ?? []) if (d.supplier && !seen.has(d.supplier.name)) seen.set(d.supplier.name, d.supplier);
    return [...seen.values()];
  }, [data]);
}

/** A supplier chosen by name brings its company and VAT ids along, as given on its last income. */
function SupplierFill({ form, suppliers }: { form: AnyForm; suppliers: Array<NonNullable<StockTransfer['supplier']>> }) {
  const name = form.get('supplier.name');
  useEffect(() => {
    const known = suppliers.find((x) => x.name === name);
    if (!known) return;
    if (!form.get('supplier.companyId')) form.set('supplier.companyId', known.companyId ?? null);
    if (!form.get('supplier.vatId')) form.set('supplier.vatId', known.vatId ?? null);
  }, [name]);
  return null;
}

/** A new transfer needs at least one item: a check of the form's own on its `items`. */
function NeedItems({ form }: { form: AnyForm }) {
  useEffect(() => form.register('items', (v) => (Array.isArray(v) && v.length ? null : t('needItems'))), [form.register]);
  return null;
}
