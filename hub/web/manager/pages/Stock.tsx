/**
 * Stock movements: transfers (the manager posts Income, Outcome, Transfer and Invoice; the hub
 * makes Sale and Correction) and stock takings — a count made on a tablet, row by row with big
 * inputs, closed into the Correction document that sets each stock to what was counted.
 */
import { useMemo, useRef, useState } from 'preact/hooks';
import { DataTable, type Column } from '../components/DataTable';
import { Editor } from '../components/Editor';
import { Field, type AnyForm } from '../components/Field';
import { Rows } from '../components/Rows';
import { Badge, Button, Card, confirm, Drawer, Empty, Facts, LinkButton, Notice, Spinner, toast, Toolbar } from '../components/ui';
import { api, ApiError, describeError, op, path } from '../lib/api';
import { useAll, useOne, useOptions } from '../lib/data';
import { useForm } from '../lib/form';
import { collator, date, dateTime, quantity } from '../lib/format';
import { navigate, useQuery } from '../lib/router';
import { refreshSession, session, useCan } from '../lib/session';
import { ENUMS, options } from '../lib/enums';
import type { Plu, Stock, StockTaking, StockTransfer } from '../../shared/types';
import { useEditParam } from './Catalog';

const pluKey = (p: { code: number; stockName?: string }) => `${p.stockName ?? ''}\u0000${p.code}`;

/** Names of the plus in these stocks, to show next to codes. */
function usePluNames(stocks: string[]): Map<string, Plu> {
  const unique = [...new Set(stocks)].sort();
  const { data } = useAll<Plu>('plus', { filters: { stockName: unique.length ? op.in(unique) : op.eq('\u0000') } }, ['plus', 'stocktransfers']);
  return useMemo(() => new Map((data ?? []).map((p) => [pluKey(p), p])), [data]);
}

const TYPE_TONE: Record<string, 'good' | 'warn' | 'info' | 'neutral' | 'bad'> = { Income: 'good', Outcome: 'warn', Transfer: 'info', Sale: 'neutral', Invoice: 'warn', Correction: 'bad' };
/** Where the goods went; a Sale or Correction names no stock of its own, its items do. */
const route = (t: StockTransfer) =>
  [t.sourceStockName, t.targetStockName].filter(Boolean).join(' → ') || [...new Set(t.items.map((i) => i.plu.stockName))].join(', ') || '—';

const TRANSFER_COLUMNS: Column<StockTransfer>[] = [
  { id: 'number', title: 'Document', sort: 'documentNumber', render: (t) => <b class="mono">{t.documentNumber}</b> },
  { id: 'type', title: 'Type', render: (t) => <Badge tone={TYPE_TONE[t.type]}>{t.type}</Badge> },
  { id: 'created', title: 'Date', sort: 'createdAt', render: (t) => dateTime(t.createdAt) },
  { id: 'route', title: 'Stock', render: route },
  { id: 'items', title: 'Items', align: 'right', render: (t) => t.items.length },
  { id: 'by', title: 'By', render: (t) => t.createdBy.userName, secondary: true },
  { id: 'note', title: 'Note', render: (t) => t.note || '', secondary: true },
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
              New transfer
            </Button>
          )
        }
      >
        <div class="filter-grid">
          <Field label="Type" kind="select" emptyOption="All types" value={q.get('type') ?? ''} onChange={(v) => set('type', v)} options={options(ENUMS.transferType)} />
          <Field label="Stock" kind="select" emptyOption="All stocks" value={q.get('stock') ?? ''} onChange={(v) => set('stock', v)} options={stocks} />
        </div>
      </Toolbar>
      <Card>
        <DataTable<StockTransfer>
          resource="stocktransfers"
          label="Stock transfers"
          columns={TRANSFER_COLUMNS}
          rowKey={(t) => t.id}
          defaultSort="-createdAt"
          filters={{ type: q.get('type') ? op.eq(q.get('type')!) : null, stockName: q.get('stock') ? op.eq(q.get('stock')!) : null }}
          onOpen={(t) => setQuery({ doc: t.id }, { replace: false })}
          selected={q.get('doc')}
          empty={{ title: 'No stock transfers', text: 'Goods received, moved or written off appear here; so do the sales of stock items.' }}
        />
      </Card>
      {q.get('doc') && <TransferDetail id={q.get('doc')!} onClose={() => setQuery({ doc: null })} />}
      {edit && <NewTransfer onClose={() => setEdit(null)} />}
    </>
  );
}

/** One transfer's items with plu names; for a correction, the counted and expected quantities too. */
export function TransferItems({ transfer }: { transfer: StockTransfer }) {
  const names = usePluNames(transfer.items.flatMap((i) => i.plu.stockName ?? []));
  const correction = transfer.type === 'Correction';
  return (
    <div class="table-scroll">
      <table class="compact" aria-label="Items">
        <thead>
          <tr>
            <th class="al-right">Code</th>
            <th>Product</th>
            {correction && <th class="al-right">Expected</th>}
            {correction && <th class="al-right">Counted</th>}
            <th class="al-right">{correction ? 'Correction' : 'Quantity'}</th>
          </tr>
        </thead>
        <tbody>
          {transfer.items.map((i) => (
            <tr key={pluKey(i.plu)}>
              <td class="al-right num">{i.plu.code}</td>
              <td>{names.get(pluKey(i.plu))?.name ?? `${i.plu.stockName} ${i.plu.code}`}</td>
              {correction && <td class="al-right num">{quantity(i.expectedQuantity)}</td>}
              {correction && <td class="al-right num">{quantity(i.actualQuantity)}</td>}
              <td class={`al-right num${i.quantity < 0 ? ' negative' : ''}`}>
                {correction && i.quantity > 0 ? '+' : ''}
                {quantity(i.quantity)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function TransferDetail({ id, onClose }: { id: string; onClose: () => void }) {
  const { data: t, error } = useOne<StockTransfer>(path('stocktransfers', id));
  return (
    <Drawer wide title={t ? `${t.type} ${t.documentNumber}` : 'Stock transfer'} onClose={onClose}>
      {error && !t ? (
        <Notice tone="bad">{error}</Notice>
      ) : !t ? (
        <Spinner />
      ) : (
        <div class="detail">
          <Facts
            items={[
              ['Document', <b class="mono">{t.documentNumber}</b>],
              ['Type', <Badge tone={TYPE_TONE[t.type]}>{t.type}</Badge>],
              ['Date', dateTime(t.createdAt)],
              ['By', t.createdBy.userName],
              ['Stock', route(t)],
              ['Ticket', t.ticketId ? <a href={`/tickets/${encodeURIComponent(t.ticketId)}`}>{t.ticketId}</a> : '—'],
              ['Note', t.note || '—'],
            ]}
          />
          <h3>Items</h3>
          <TransferItems transfer={t} />
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
  items: Array<{ plu: { code: string | number | null }; quantity: number | null }>;
}

function NewTransfer({ onClose }: { onClose: () => void }) {
  const stocks = useOptions<Stock>('stocks', (s) => s.name);
  return (
    <Editor<TransferDraft>
      resource="stocktransfers"
      editKey={null}
      noun="Stock transfer"
      wide
      title={() => 'New stock transfer'}
      defaults={{ type: 'Income', sourceStockName: null, targetStockName: null, note: null, items: [{ plu: { code: null }, quantity: null }] }}
      rights={{ create: 'StockTransferCreate', update: 'StockTransferCreate' }}
      toBody={(v) => ({
        type: v.type,
        sourceStockName: v.type === 'Income' ? null : v.sourceStockName,
        targetStockName: v.type === 'Income' || v.type === 'Transfer' ? v.targetStockName : null,
        note: v.note,
        items: v.items.map((i) => ({ plu: { code: Number(i.plu.code) }, quantity: i.quantity })),
      })}
      onClose={onClose}
    >
      {(form) => {
        const type = form.values.type;
        const itemStock = type === 'Income' ? form.values.targetStockName : form.values.sourceStockName;
        return (
          <>
            <div class="form-grid">
              <Field form={form} name="type" label="Type" kind="select" options={options(ENUMS.postableTransferType, (t) => ({ Income: 'Income (goods received)', Outcome: 'Outcome (write-off)', Transfer: 'Transfer between stocks', Invoice: 'Invoice (sold on invoice)' })[t] ?? t)} required />
              {type !== 'Income' && <Field form={form} name="sourceStockName" label="From stock" kind="select" emptyOption="Choose…" options={stocks} required />}
              {(type === 'Income' || type === 'Transfer') && (
                <Field
                  form={form}
                  name="targetStockName"
                  label="To stock"
                  kind="select"
                  emptyOption="Choose…"
                  options={stocks}
                  required
                  validate={(v, all) => (type === 'Transfer' && v && v === all.sourceStockName ? 'Choose another stock than the source.' : null)}
                />
              )}
            </div>
            <Rows form={form} name="items" label="Items" addLabel="Add item" empty="Add the products that move." newRow={() => ({ plu: { code: null }, quantity: null })}>
              {(p) => (
                <>
                  <PluSelect form={form} name={`${p}.plu.code`} stockName={itemStock} />
                  <Field form={form} name={`${p}.quantity`} label="Quantity" kind="number" required validate={(v) => (typeof v === 'number' && v <= 0 ? 'Must be more than 0.' : null)} />
                </>
              )}
            </Rows>
            <Field form={form} name="note" label="Note" kind="textarea" nullable placeholder="Supplier, delivery note number…" />
          </>
        );
      }}
    </Editor>
  );
}

/** A product of one stock (StockItem only: the only kind kept in stock). */
function PluSelect({ form, name, stockName }: { form: AnyForm; name: string; stockName: string | null }) {
  const { data } = useAll<Plu>('plus', { filters: { stockName: op.eq(stockName ?? '\u0000'), type: op.eq('StockItem') }, sort: 'name' }, ['plus']);
  const opts = (data ?? []).map((p) => ({ value: String(p.code), label: `${p.name} (${p.code})` }));
  return <Field form={form} name={name} label="Product" kind="select" emptyOption={stockName ? 'Choose…' : 'Choose the stock first'} options={opts} required disabled={!stockName} />;
}

// ---- stock takings ----

const countedOf = (t: StockTaking) => t.items.filter((i) => i.actualQuantity !== null && i.actualQuantity !== undefined).length;
const stocksOf = (t: StockTaking) => [...new Set(t.items.map((i) => i.plu.stockName))].join(', ') || '—';

const TAKING_COLUMNS: Column<StockTaking>[] = [
  { id: 'created', title: 'Started', sort: 'createdAt', render: (t) => dateTime(t.createdAt) },
  { id: 'stock', title: 'Stock', render: stocksOf },
  { id: 'counted', title: 'Counted', align: 'right', render: (t) => `${countedOf(t)} / ${t.items.length}` },
  { id: 'by', title: 'By', render: (t) => t.closedBy?.userName ?? t.createdBy.userName, secondary: true },
  { id: 'state', title: 'State', sort: 'closedAt', render: (t) => (t.closedAt ? <Badge tone="good">Closed {date(t.closedAt)}</Badge> : <Badge tone="info">Counting</Badge>) },
  { id: 'note', title: 'Note', render: (t) => t.note || '', secondary: true },
];

export function StockTakings({ takingId }: { takingId: string | null }) {
  const [edit, setEdit] = useEditParam();
  const can = useCan();
  if (takingId) return <Count id={takingId} />;
  return (
    <>
      <Card
        title="Stock takings"
        actions={
          can('StockTakingCreate') && (
            <Button variant="primary" icon="plus" onClick={() => setEdit('new')} data-testid="new-stocktaking">
              New stock taking
            </Button>
          )
        }
      >
        <DataTable<StockTaking>
          resource="stocktakings"
          label="Stock takings"
          columns={TAKING_COLUMNS}
          rowKey={(t) => t.id}
          defaultSort="-createdAt"
          onOpen={(t) => navigate(`/catalog/stocktakings/${encodeURIComponent(t.id)}`)}
          empty={{ title: 'No stock takings yet', text: 'Start one to count a stock; closing it corrects the quantities to what you counted.' }}
        />
      </Card>
      {edit && <NewTaking onClose={() => setEdit(null)} />}
    </>
  );
}

function NewTaking({ onClose }: { onClose: () => void }) {
  const stocks = useOptions<Stock>('stocks', (s) => s.name);
  const form = useForm({ stockName: '', note: null as string | null });
  const start = () =>
    form.submit(async (v) => {
      const plus = await api.all<Plu>('plus', { filters: { stockName: op.eq(v.stockName), type: op.eq('StockItem'), isActive: op.eq(true) }, sort: 'name' });
      if (!plus.length) throw new Error(`Stock “${v.stockName}” holds no stock items to count.`);
      try {
        const taking = await api.post<StockTaking>(path('stocktakings'), { note: v.note, items: plus.map((p) => ({ plu: { code: p.code, stockName: p.stockName }, actualQuantity: null })) });
        navigate(`/catalog/stocktakings/${encodeURIComponent(taking.id)}`);
      } catch (e) {
        if (e instanceof ApiError && e.isMissingRight) void refreshSession().catch(() => undefined);
        throw e;
      }
    });
  return (
    <Drawer
      title="New stock taking"
      subtitle="Every stock item of the stock goes on the count sheet."
      onClose={onClose}
      footer={
        <>
          <span class="spacer" />
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button variant="primary" busy={form.busy} onClick={start} data-testid="start-count">
            Start counting
          </Button>
        </>
      }
    >
      <form
        class="form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void start();
        }}
      >
        {form.formError && <Notice tone="bad">{form.formError}</Notice>}
        <Field form={form} name="stockName" label="Stock to count" kind="select" emptyOption="Choose…" options={stocks} required testId="count-stock" />
        <Field form={form} name="note" label="Note" kind="textarea" nullable placeholder="e.g. Month-end count, bar" />
      </form>
    </Drawer>
  );
}

/** The count sheet: one big input per product, a search to jump to one, and the close. */
function Count({ id }: { id: string }) {
  const can = useCan();
  const { data: taking, error, notFound, reload } = useOne<StockTaking>(path('stocktakings', id), ['stocktakings']);
  const names = usePluNames(taking?.items.map((i) => i.plu.stockName) ?? []);
  const [search, setSearch] = useState('');
  const form = useForm<StockTaking | null>(null);
  const loadedV = useRef<number | undefined>(undefined);
  const closing = useRef(false);
  // A stored version newer than the form's is taken in while the form is untouched (a reload
  // that raced our own save brings an older one: that is ignored).
  if (taking && (taking._v ?? 0) > (loadedV.current ?? -1) && !form.dirty) {
    loadedV.current = taking._v;
    form.reset(taking);
  }
  const values = form.values;

  const save = async (close: boolean) => {
    closing.current = close;
    if (close) {
      const missing = values?.items.filter((i) => typeof i.actualQuantity !== 'number').length ?? 0;
      if (missing) setSearch('');
    }
    return form.submit(async (v) => {
      if (!v) return;
      if (close) {
        const ok = await confirm({
          title: 'Close this stock taking?',
          text: 'The hub sets every counted product to the quantity you entered and writes a Correction document. A closed stock taking cannot be changed.',
          confirm: 'Close and correct stock',
        });
        if (!ok) return;
      }
      const body = {
        ...v,
        items: v.items.map((i) => ({ plu: i.plu, actualQuantity: typeof i.actualQuantity === 'number' ? i.actualQuantity : null })),
        ...(close ? { closedBy: { userName: session.value!.user.userName }, closedAt: new Date().toISOString() } : {}),
      };
      try {
        const stored = await api.put<StockTaking>(path('stocktakings', v.id), body);
        loadedV.current = stored._v;
        form.reset(stored);
        toast(close ? 'Stock taking closed; the stock is corrected.' : 'Count saved.');
      } catch (e) {
        if (e instanceof ApiError && e.isMissingRight) void refreshSession().catch(() => undefined);
        throw e;
      }
    });
  };

  if (notFound) return <Notice tone="warn">This stock taking no longer exists.</Notice>;
  if (error && !taking) return <Notice tone="bad">{error}</Notice>;
  if (!taking || !values) return <Spinner />;
  const closed = !!taking.closedAt;
  const editable = !closed && can('StockTakingUpdate');
  const counted = values.items.filter((i) => typeof i.actualQuantity === 'number').length;
  const needle = search.trim().toLocaleLowerCase();
  const rows = values.items.map((item, index) => ({ item, index, plu: names.get(pluKey(item.plu)) }));
  rows.sort((a, b) => collator.compare(a.plu?.name ?? '', b.plu?.name ?? ''));

  return (
    <div class="count" data-testid="count">
      <div class="count-head">
        <LinkButton href="/catalog/stocktakings" icon="left" variant="ghost">
          All stock takings
        </LinkButton>
        <div class="count-title">
          <h2>
            Stock taking · {stocksOf(taking)} {closed ? <Badge tone="good">Closed</Badge> : <Badge tone="info">Counting</Badge>}
          </h2>
          <p class="muted">
            Started {dateTime(taking.createdAt)} by {taking.createdBy.userName}
            {taking.closedAt && ` · closed ${dateTime(taking.closedAt)} by ${taking.closedBy?.userName}`}
            {taking.note && ` · ${taking.note}`}
          </p>
        </div>
      </div>
      {form.formError && (
        <Notice tone="bad">
          <span data-testid="form-error">{form.formError}</span>{' '}
          {form.formError.startsWith('Someone changed') && (
            <Button
              small
              onClick={() => {
                form.reset(taking);
                reload();
              }}
            >
              Reload
            </Button>
          )}
        </Notice>
      )}
      {closed && taking.stockTransferId && <Correction id={taking.stockTransferId} />}
      {!closed && !editable && <Notice>Counting needs the right “StockTakingUpdate”.</Notice>}
      <Card>
        <div class="count-tools">
          <Field label="Find a product" kind="search" value={search} onChange={(v) => setSearch(String(v ?? ''))} placeholder="Name or code" testId="count-search" />
          <div class="count-progress" aria-live="polite">
            <span>
              <b>{counted}</b> of {values.items.length} counted
            </span>
            <div class="meter">
              <span style={{ width: `${values.items.length ? (counted / values.items.length) * 100 : 0}%` }} />
            </div>
          </div>
        </div>
        {values.items.length === 0 ? (
          <Empty title="Nothing to count" />
        ) : (
          <ul class="count-list">
            {rows.map(({ item, index, plu }) => {
              const name = plu?.name ?? `${item.plu.stockName} ${item.plu.code}`;
              const hidden = needle !== '' && !name.toLocaleLowerCase().includes(needle) && !String(item.plu.code).startsWith(needle);
              const expected = taking.items[index]?.expectedQuantity ?? plu?.stockQuantity ?? 0;
              const actual = item.actualQuantity;
              const diff = typeof actual === 'number' ? Math.round((actual - expected) * 10000) / 10000 : null;
              return (
                <li key={pluKey(item.plu)} class={`count-row${typeof actual === 'number' ? ' done' : ''}`} hidden={hidden} data-testid={`count-${item.plu.code}`}>
                  <div class="count-name">
                    <b>{name}</b>
                    <span class="muted">
                      {item.plu.code} · expected {quantity(expected)}
                    </span>
                  </div>
                  <div class="count-input">
                    <Field
                      form={form}
                      name={`items[${index}].actualQuantity`}
                      label={`Counted ${name}`}
                      kind="number"
                      big
                      nullable
                      disabled={!editable}
                      validate={(v) => (closing.current && typeof v !== 'number' ? 'Count this product before closing.' : typeof v === 'number' && v < 0 ? 'Cannot be negative.' : null)}
                    />
                  </div>
                  <div class={`count-diff${diff === null ? '' : diff < 0 ? ' negative' : diff > 0 ? ' positive' : ' zero'}`}>{diff === null ? '' : diff === 0 ? '✓' : `${diff > 0 ? '+' : ''}${quantity(diff)}`}</div>
                </li>
              );
            })}
          </ul>
        )}
      </Card>
      {!closed && editable && (
        <div class="sticky-actions">
          <span class="muted">{form.dirty ? 'Unsaved counts' : 'All counts saved'}</span>
          <span class="spacer" />
          <Button busy={form.busy && !closing.current} onClick={() => void save(false)} data-testid="save-count">
            Save count
          </Button>
          {can('StockTakingClose') && (
            <Button variant="primary" icon="check" busy={form.busy && closing.current} onClick={() => void save(true)} data-testid="close-count">
              Close and correct stock
            </Button>
          )}
        </div>
      )}
      {!closed && can('StockTakingDelete') && (
        <DeleteTaking id={taking.id} />
      )}
    </div>
  );
}

function DeleteTaking({ id }: { id: string }) {
  const [busy, setBusy] = useState(false);
  return (
    <div class="danger-zone">
      <Button
        variant="ghost"
        icon="trash"
        busy={busy}
        onClick={async () => {
          if (!(await confirm({ title: 'Throw this count away?', text: 'The stock taking is deleted; stock quantities stay as they are.', confirm: 'Delete', danger: true }))) return;
          setBusy(true);
          try {
            await api.del(path('stocktakings', id));
            toast('Stock taking deleted.');
            navigate('/catalog/stocktakings');
          } catch (e) {
            toast(describeError(e), 'bad');
          } finally {
            setBusy(false);
          }
        }}
      >
        Delete this stock taking
      </Button>
    </div>
  );
}

function Correction({ id }: { id: string }) {
  const { data: t, error } = useOne<StockTransfer>(path('stocktransfers', id));
  return (
    <Card title={t ? <>Correction document <span class="mono" data-testid="correction-number">{t.documentNumber}</span></> : 'Correction document'} class="correction">
      {error && !t ? <Notice tone="bad">{error}</Notice> : !t ? <Spinner /> : <TransferItems transfer={t} />}
    </Card>
  );
}
