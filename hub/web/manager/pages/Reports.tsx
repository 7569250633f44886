/**
 * Reports (issue 21): sales over any range of days grouped as the manager asks (GET /api/reports/sales,
 * also as CSV), and a fiscal day's X/Z figures with the drawer counted against them (POST /api/cashcounts).
 */
import { useState } from 'preact/hooks';
import { messages, parseDecimal, pick, type Entry } from '../../shared/i18n';
import type { FiscalDevice } from '../../shared/types';
import type { CashCount, FiscalDay, SalesReport } from '../lib/wire';
import { DataTable } from '../components/DataTable';
import { Field } from '../components/Field';
import { Badge, Button, Card, Empty, Facts, Notice, PageHeader, Spinner, Stat, toast } from '../components/ui';
import { api, describeError, download, op } from '../lib/api';
import { useLoad, useOptions } from '../lib/data';
import { dateTime, isoDay, money, quantity } from '../lib/format';
import { useQuery } from '../lib/router';
import { useCan } from '../lib/session';
import { rightWord } from '../lib/rights-words';

const t = messages({
  title: { en: 'Reports', sk: 'Prehľady', cs: 'Přehledy' },
  subtitle: { en: 'Sales of closed tickets over any days, and the fiscal day with its cash count.', sk: 'Tržby z uzavretých účtov za ľubovoľné dni a fiškálny deň s počítaním hotovosti.', cs: 'Tržby z uzavřených účtů za libovolné dny a fiskální den s počítáním hotovosti.' },
  sales: { en: 'Sales', sk: 'Tržby', cs: 'Tržby' },
  from: { en: 'From', sk: 'Od', cs: 'Od' },
  to: { en: 'To', sk: 'Do', cs: 'Do' },
  groupBy: { en: 'Group by', sk: 'Zoskupiť podľa', cs: 'Seskupit podle' },
  period: { en: 'Period', sk: 'Obdobie', cs: 'Období' },
  today: { en: 'Today', sk: 'Dnes', cs: 'Dnes' },
  yesterday: { en: 'Yesterday', sk: 'Včera', cs: 'Včera' },
  last7: { en: 'Last 7 days', sk: 'Posledných 7 dní', cs: 'Posledních 7 dní' },
  week: { en: 'This week', sk: 'Tento týždeň', cs: 'Tento týden' },
  month: { en: 'This month', sk: 'Tento mesiac', cs: 'Tento měsíc' },
  lastMonth: { en: 'Last month', sk: 'Minulý mesiac', cs: 'Minulý měsíc' },
  year: { en: 'This year', sk: 'Tento rok', cs: 'Tento rok' },
  csv: { en: 'Export CSV', sk: 'Export do CSV', cs: 'Export do CSV' },
  csvDone: { en: 'Downloaded {file}.', sk: 'Stiahnutý súbor {file}.', cs: 'Stažen soubor {file}.' },
  badRange: { en: 'The last day is before the first one.', sk: 'Posledný deň je pred prvým.', cs: 'Poslední den je před prvním.' },
  notUpToDate: { en: 'The hub is still counting earlier tickets: the figures may grow for a few minutes.', sk: 'Hub ešte započítava staršie účty: čísla sa môžu niekoľko minút meniť.', cs: 'Hub ještě započítává starší účty: čísla se mohou několik minut měnit.' },
  noSales: { en: 'No sales in these days', sk: 'V týchto dňoch žiadne tržby', cs: 'V těchto dnech žádné tržby' },
  noSalesText: { en: 'Only closed tickets count, on the day they closed.', sk: 'Počítajú sa len uzavreté účty, v deň uzavretia.', cs: 'Počítají se jen uzavřené účty, v den uzavření.' },
  total: { en: 'Total', sk: 'Spolu', cs: 'Celkem' },
  tickets: { en: 'Tickets', sk: 'Účty', cs: 'Účty' },
  quantity: { en: 'Quantity', sk: 'Množstvo', cs: 'Množství' },
  gross: { en: 'Gross', sk: 'Brutto', cs: 'Brutto' },
  discounts: { en: 'Discounts', sk: 'Zľavy', cs: 'Slevy' },
  returns: { en: 'Returns', sk: 'Vrátené', cs: 'Vrácené' },
  voids: { en: 'Voids', sk: 'Stornované', cs: 'Stornované' },
  net: { en: 'Net sales', sk: 'Tržba', cs: 'Tržba' },
  vat: { en: 'VAT', sk: 'DPH', cs: 'DPH' },
  base: { en: 'VAT base', sk: 'Základ DPH', cs: 'Základ DPH' },
  noCategory: { en: 'No category', sk: 'Bez kategórie', cs: 'Bez kategorie' },
  netNote: { en: 'gross − discounts − returns', sk: 'brutto − zľavy − vrátené', cs: 'brutto − slevy − vrácené' },
  ticketsNote: { en: '{n} tickets', sk: 'Účty: {n}', cs: 'Účty: {n}' },
  voidsNote: { en: 'quantity {n}', sk: 'množstvo {n}', cs: 'množství {n}' },
  fiscalDay: { en: 'Fiscal day and cash count', sk: 'Fiškálny deň a počítanie hotovosti', cs: 'Fiskální den a počítání hotovosti' },
  fiscalDevice: { en: 'Fiscal printer', sk: 'Fiškálna tlačiareň', cs: 'Fiskální tiskárna' },
  pick: { en: 'Choose…', sk: 'Vyberte…', cs: 'Vyberte…' },
  pickDevice: { en: 'Choose a fiscal printer to see its day', sk: 'Vyberte fiškálnu tlačiareň a zobrazí sa jej deň', cs: 'Vyberte fiskální tiskárnu a zobrazí se její den' },
  dayNumber: { en: 'Fiscal day', sk: 'Fiškálny deň', cs: 'Fiskální den' },
  state: { en: 'State', sk: 'Stav', cs: 'Stav' },
  open: { en: 'Open (X report)', sk: 'Otvorený (X správa)', cs: 'Otevřený (X zpráva)' },
  closed: { en: 'Closed (Z report)', sk: 'Uzavretý (uzávierka)', cs: 'Uzavřený (uzávěrka)' },
  unknown: { en: 'Not known', sk: 'Neznámy', cs: 'Neznámý' },
  dayTotal: { en: 'Total', sk: 'Spolu', cs: 'Celkem' },
  cashSales: { en: 'Cash taken', sk: 'Prijatá hotovosť', cs: 'Přijatá hotovost' },
  payments: { en: 'Payments', sk: 'Platby', cs: 'Platby' },
  payment: { en: 'Payment type', sk: 'Typ platby', cs: 'Typ platby' },
  amount: { en: 'Amount', sk: 'Suma', cs: 'Částka' },
  rate: { en: 'VAT rate', sk: 'Sadzba DPH', cs: 'Sazba DPH' },
  withVat: { en: 'With VAT', sk: 'S DPH', cs: 'S DPH' },
  countTitle: { en: 'Count the drawer', sk: 'Spočítať hotovosť v pokladni', cs: 'Spočítat hotovost v pokladně' },
  openingFloat: { en: 'Opening float', sk: 'Počiatočný stav', cs: 'Počáteční stav' },
  counted: { en: 'Counted in the drawer', sk: 'Napočítané v pokladni', cs: 'Napočítáno v pokladně' },
  note: { en: 'Note', sk: 'Poznámka', cs: 'Poznámka' },
  record: { en: 'Record the count', sk: 'Zaznamenať počítanie', cs: 'Zaznamenat počítání' },
  enterAmount: { en: 'Enter an amount, e.g. 150,50.', sk: 'Zadajte sumu, napr. 150,50.', cs: 'Zadejte částku, např. 150,50.' },
  recorded: { en: 'Cash count recorded.', sk: 'Počítanie hotovosti zaznamenané.', cs: 'Počítání hotovosti zaznamenáno.' },
  expected: { en: 'Expected', sk: 'Očakávané', cs: 'Očekáváno' },
  difference: { en: 'Difference', sk: 'Rozdiel', cs: 'Rozdíl' },
  missing: { en: 'cash is missing', sk: 'chýba hotovosť', cs: 'chybí hotovost' },
  surplus: { en: 'more than expected', sk: 'viac, ako sa čakalo', cs: 'více, než se čekalo' },
  exact: { en: 'the drawer is right', sk: 'pokladňa sedí', cs: 'pokladna sedí' },
  earlier: { en: 'Earlier cash counts', sk: 'Predchádzajúce počítania hotovosti', cs: 'Předchozí počítání hotovosti' },
  noCounts: { en: 'No cash counts yet', sk: 'Zatiaľ žiadne počítanie hotovosti', cs: 'Zatím žádné počítání hotovosti' },
  countedAt: { en: 'Counted', sk: 'Spočítané', cs: 'Spočítáno' },
  by: { en: 'By', sk: 'Kto', cs: 'Kdo' },
  noCountRight: { en: 'Recording a cash count needs the right “{right}”.', sk: 'Zaznamenať počítanie hotovosti môžete len s právom „{right}“.', cs: 'Zaznamenat počítání hotovosti lze jen s právem „{right}“.' },
});

const GROUPS: Array<{ value: SalesReport['groupBy']; label: Entry }> = [
  { value: 'product', label: { en: 'Product', sk: 'Produkt', cs: 'Produkt' } },
  { value: 'category', label: { en: 'Category', sk: 'Kategória', cs: 'Kategorie' } },
  { value: 'waiter', label: { en: 'Waiter', sk: 'Čašník', cs: 'Číšník' } },
  { value: 'register', label: { en: 'Register', sk: 'Pokladňa', cs: 'Pokladna' } },
  { value: 'vat', label: { en: 'VAT rate', sk: 'Sadzba DPH', cs: 'Sazba DPH' } },
  { value: 'payment', label: { en: 'Payment type', sk: 'Typ platby', cs: 'Typ platby' } },
  { value: 'hour', label: { en: 'Hour', sk: 'Hodina', cs: 'Hodina' } },
  { value: 'day', label: { en: 'Day', sk: 'Deň', cs: 'Den' } },
  { value: 'month', label: { en: 'Month', sk: 'Mesiac', cs: 'Měsíc' } },
];

const PRESETS = ['today', 'yesterday', 'last7', 'week', 'month', 'lastMonth', 'year'] as const;
type Preset = (typeof PRESETS)[number];

/** The first and last day of a preset, as local `yyyy-mm-dd`. */
export function presetRange(preset: Preset, now = new Date()): { from: string; to: string } {
  const y = now.getFullYear();
  const m = now.getMonth();
  const d = now.getDate();
  switch (preset) {
    case 'today':
      return { from: isoDay(now), to: isoDay(now) };
    case 'yesterday':
      return { from: isoDay(new Date(y, m, d - 1)), to: isoDay(new Date(y, m, d - 1)) };
    case 'last7':
      return { from: isoDay(new Date(y, m, d - 6)), to: isoDay(now) };
    case 'week': {
      const monday = new Date(y, m, d - ((now.getDay() + 6) % 7));
      return { from: isoDay(monday), to: isoDay(new Date(monday.getFullYear(), monday.getMonth(), monday.getDate() + 6)) };
    }
    case 'month':
      return { from: isoDay(new Date(y, m, 1)), to: isoDay(new Date(y, m + 1, 0)) };
    case 'lastMonth':
      return { from: isoDay(new Date(y, m - 1, 1)), to: isoDay(new Date(y, m, 0)) };
    case 'year':
      return { from: isoDay(new Date(y, 0, 1)), to: isoDay(new Date(y, 11, 31)) };
  }
}

const salesUrl = (from: string, to: string, groupBy: string) => `/api/reports/sales?${new URLSearchParams({ from, to, groupBy })}`;

/** What a row is called: the hub's label, else its key (a day, an hour). */
function rowLabel(row: SalesReport['rows'][number], groupBy: string): string {
  if (groupBy === 'category' && !row.key) return t('noCategory');
  if (groupBy === 'hour') return `${row.key}:00–${row.key}:59`;
  return row.label || row.key;
}

export function Reports() {
  const can = useCan();
  return (
    <div class="page">
      <PageHeader title={t('title')} subtitle={t('subtitle')} />
      <Sales />
      {can('ReportRead') && <FiscalDaySection />}
    </div>
  );
}

function Sales() {
  const [q, setQuery] = useQuery();
  const month = presetRange('month');
  const from = q.get('from') || month.from;
  const to = q.get('to') || month.to;
  const groupBy = GROUPS.find((g) => g.value === q.get('groupBy'))?.value ?? 'product';
  const badRange = from > to;
  const report = useLoad<SalesReport>(badRange ? null : salesUrl(from, to, groupBy), (signal) => api.get<SalesReport>(salesUrl(from, to, groupBy), signal), ['tickets']);
  const [exporting, setExporting] = useState(false);
  const presetOn = PRESETS.find((p) => {
    const r = presetRange(p);
    return r.from === from && r.to === to;
  });

  const exportCsv = async () => {
    setExporting(true);
    try {
      const file = await download(salesUrl(from, to, groupBy), 'text/csv', `sales-${groupBy}-${from}_${to}.csv`);
      toast(t('csvDone', { file }));
    } catch (e) {
      toast(describeError(e), 'bad');
    } finally {
      setExporting(false);
    }
  };

  const r = report.data;
  const tot = r?.totals;
  const cols: Array<{ id: string; title: string; value: (x: SalesReport['totals']) => string; secondary?: boolean }> = [
    { id: 'tickets', title: t('tickets'), value: (x) => quantity(x.tickets), secondary: true },
    { id: 'quantity', title: t('quantity'), value: (x) => quantity(x.quantity) },
    { id: 'gross', title: t('gross'), value: (x) => money(x.gross) },
    { id: 'discounts', title: t('discounts'), value: (x) => money(x.discounts) },
    { id: 'returns', title: t('returns'), value: (x) => money(x.returns) },
    { id: 'voids', title: t('voids'), value: (x) => money(x.voids) },
    { id: 'net', title: t('net'), value: (x) => money(x.net) },
    // The hub splits VAT by rate only (0 in the other groupings): its total is above the table.
    ...(groupBy === 'vat'
      ? [
          { id: 'base', title: t('base'), value: (x: SalesReport['totals']) => money(x.base) },
          { id: 'vat', title: t('vat'), value: (x: SalesReport['totals']) => money(x.vat) },
        ]
      : []),
  ];
  return (
    <Card
      title={t('sales')}
      actions={
        <Button icon="download" busy={exporting} disabled={badRange} onClick={() => void exportCsv()} data-testid="export-csv">
          {t('csv')}
        </Button>
      }
    >
      <div class="stack">
        <div class="stack">
          <div class="segmented" style={{ maxWidth: 'none', flexWrap: 'wrap' }} role="group" aria-label={t('period')}>
            {PRESETS.map((p) => (
              <button key={p} type="button" aria-pressed={presetOn === p} class={presetOn === p ? 'on' : ''} onClick={() => setQuery({ ...presetRange(p) }, { replace: true })}>
                {t(p)}
              </button>
            ))}
          </div>
          <div class="filter-grid">
            <Field label={t('from')} kind="day" value={from} onChange={(v) => v && setQuery({ from: v as string }, { replace: true })} testId="report-from" />
            <Field label={t('to')} kind="day" value={to} onChange={(v) => v && setQuery({ to: v as string }, { replace: true })} testId="report-to" />
            <Field
              label={t('groupBy')}
              kind="select"
              value={groupBy}
              options={GROUPS.map((g) => ({ value: g.value, label: pick(g.label) }))}
              onChange={(v) => setQuery({ groupBy: v === 'product' ? null : (v as string) }, { replace: true })}
              testId="report-group"
            />
          </div>
        </div>
        {badRange && <Notice tone="warn">{t('badRange')}</Notice>}
        {report.error && <Notice tone="bad">{report.error}</Notice>}
        {r && !r.upToDate && <Notice tone="warn">{t('notUpToDate')}</Notice>}
        {!r && report.loading && <Spinner />}
        {r && tot && (
          <>
            <div class="stats">
              <Stat label={t('net')} value={<span data-testid="total-net">{money(tot.net)}</span>} note={t('ticketsNote', { n: quantity(tot.tickets) })} tone="good" />
              <Stat label={t('gross')} value={<span data-testid="total-gross">{money(tot.gross)}</span>} note={t('netNote')} />
              <Stat label={t('discounts')} value={<span data-testid="total-discounts">{money(tot.discounts)}</span>} />
              <Stat label={t('returns')} value={<span data-testid="total-returns">{money(tot.returns)}</span>} />
              <Stat label={t('voids')} value={<span data-testid="total-voids">{money(tot.voids)}</span>} note={t('voidsNote', { n: quantity(tot.voidQuantity) })} />
              <Stat label={t('vat')} value={<span data-testid="total-vat">{money(tot.vat)}</span>} note={`${t('base')} ${money(tot.base)}`} />
            </div>
            {r.rows.length === 0 ? (
              <Empty title={t('noSales')}>{t('noSalesText')}</Empty>
            ) : (
              <div class="table-scroll">
                <table class="compact report-table" aria-label={t('sales')} data-testid="sales-table">
                  <thead>
                    <tr>
                      <th>{pick(GROUPS.find((g) => g.value === groupBy)!.label)}</th>
                      {cols.map((c) => (
                        <th key={c.id} class={`al-right${c.secondary ? ' secondary' : ''}`}>
                          {c.title}
                        </th>
                      ))}
                    </tr>
                  </thead>
                  <tbody>
                    {r.rows.map((row) => (
                      <tr key={row.key} data-key={row.key}>
                        <td data-col="label">{rowLabel(row, groupBy)}</td>
                        {cols.map((c) => (
                          <td key={c.id} data-col={c.id} class={`al-right num${c.secondary ? ' secondary' : ''}`}>
                            {c.value({ ...row, base: row.base ?? 0 })}
                          </td>
                        ))}
                      </tr>
                    ))}
                  </tbody>
                  <tfoot>
                    <tr data-key="totals">
                      <th data-col="label">{t('total')}</th>
                      {cols.map((c) => (
                        <th key={c.id} data-col={c.id} class={`al-right num${c.secondary ? ' secondary' : ''}`}>
                          {c.value(tot)}
                        </th>
                      ))}
                    </tr>
                  </tfoot>
                </table>
              </div>
            )}
          </>
        )}
      </div>
    </Card>
  );
}

function FiscalDaySection() {
  const can = useCan();
  const [q, setQuery] = useQuery();
  // The fiscal printers are listed to those who may read the settings; the others type the name.
  const devices = useOptions<FiscalDevice>('fiscaldevices', (f) => f.name);
  const fiscalName = q.get('fiscal') ?? (devices.length === 1 ? devices[0].value : '');
  const url = fiscalName ? `/api/reports/fiscalday?${new URLSearchParams({ fiscalName })}` : null;
  const day = useLoad<FiscalDay>(url, (signal) => api.get<FiscalDay>(url!, signal), ['tickets', 'fiscaldevices']);
  const d = day.data;
  return (
    <Card title={t('fiscalDay')}>
      <div class="stack">
        <div class="filter-grid">
          {can('SettingsRead') ? (
            <Field label={t('fiscalDevice')} kind="select" value={fiscalName} emptyOption={t('pick')} options={devices} onChange={(v) => setQuery({ fiscal: (v as string) || null }, { replace: true })} testId="fiscal-device" />
          ) : (
            <Field label={t('fiscalDevice')} value={fiscalName} onChange={(v) => setQuery({ fiscal: (v as string) || null }, { replace: true })} testId="fiscal-device" />
          )}
        </div>
        {!fiscalName && <Empty icon="fiscal" title={t('pickDevice')} />}
        {fiscalName && day.error && <Notice tone="bad">{day.error}</Notice>}
        {fiscalName && !d && day.loading && <Spinner />}
        {d && (
          <div class="stack" data-testid="fiscal-day">
            <Facts
              items={[
                [t('dayNumber'), <span data-testid="day-number">{d.dailySalesReportNumber}</span>],
                [t('state'), d.isOpen === null ? t('unknown') : d.isOpen ? <Badge tone="info">{t('open')}</Badge> : <Badge>{t('closed')}</Badge>],
                [t('tickets'), quantity(d.tickets)],
                [t('dayTotal'), <b data-testid="day-total">{money(d.total)}</b>],
                [t('returns'), money(d.returns)],
                [t('discounts'), money(d.discounts)],
                [t('vat'), money(d.vatTotal)],
                [t('cashSales'), <b data-testid="day-cash">{money(d.cashSales)}</b>],
              ]}
            />
            <div class="grid-2">
              <table class="compact" aria-label={t('payments')}>
                <thead>
                  <tr>
                    <th>{t('payment')}</th>
                    <th class="al-right">{t('tickets')}</th>
                    <th class="al-right">{t('amount')}</th>
                  </tr>
                </thead>
                <tbody>
                  {d.payments.map((p) => (
                    <tr key={p.paymentTypeNumber}>
                      <td>{p.name}</td>
                      <td class="al-right num">{p.tickets}</td>
                      <td class="al-right num">{money(p.amount)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <table class="compact" aria-label={t('vat')}>
                <thead>
                  <tr>
                    <th>{t('rate')}</th>
                    <th class="al-right">{t('base')}</th>
                    <th class="al-right">{t('vat')}</th>
                    <th class="al-right">{t('withVat')}</th>
                  </tr>
                </thead>
                <tbody>
                  {d.vat.map((v) => (
                    <tr key={v.rate}>
                      <td>{quantity(v.rate)} %</td>
                      <td class="al-right num">{money(v.base)}</td>
                      <td class="al-right num">{money(v.vat)}</td>
                      <td class="al-right num">{money(v.gross)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            {can('CashCount') ? <CountForm fiscalName={fiscalName} cashSales={d.cashSales} /> : <Notice tone="info">{t('noCountRight', { right: rightWord('CashCount') })}</Notice>}
          </div>
        )}
        {fiscalName && (
          <>
            <h3>{t('earlier')}</h3>
            <DataTable<CashCount>
              resource="cashcounts"
              label={t('earlier')}
              stateKey="cc"
              filters={{ fiscalName: op.eq(fiscalName) }}
              defaultSort="-countedAt"
              rowKey={(c) => c.id}
              pageSize={10}
              columns={[
                { id: 'at', title: t('countedAt'), sort: 'countedAt', render: (c) => dateTime(c.countedAt) },
                { id: 'day', title: t('dayNumber'), align: 'right', render: (c) => c.dailySalesReportNumber ?? '—', secondary: true },
                { id: 'float', title: t('openingFloat'), align: 'right', render: (c) => money(c.openingFloat), secondary: true },
                { id: 'expected', title: t('expected'), align: 'right', render: (c) => money(c.expected) },
                { id: 'counted', title: t('counted'), align: 'right', render: (c) => money(c.counted) },
                { id: 'difference', title: t('difference'), align: 'right', render: (c) => <span class={c.difference < 0 ? 'negative' : ''}>{money(c.difference)}</span> },
                { id: 'by', title: t('by'), render: (c) => c.countedBy.name || c.countedBy.userName, secondary: true },
              ]}
              empty={{ title: t('noCounts') }}
            />
          </>
        )}
      </div>
    </Card>
  );
}

function CountForm({ fiscalName, cashSales }: { fiscalName: string; cashSales: number }) {
  const [opening, setOpening] = useState('0');
  const [counted, setCounted] = useState('');
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<CashCount | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const float = parseDecimal(opening || '0');
  const count = parseDecimal(counted);
  const expected = Number.isNaN(float) ? null : Math.round((float + cashSales) * 100) / 100;

  const submit = async (e: Event) => {
    e.preventDefault();
    const found: Record<string, string> = {};
    if (Number.isNaN(float) || float < 0) found.openingFloat = t('enterAmount');
    if (Number.isNaN(count) || count < 0) found.counted = t('enterAmount');
    setErrors(found);
    if (Object.keys(found).length) return;
    setBusy(true);
    setFailure(null);
    try {
      const c = await api.post<CashCount>('/api/cashcounts', { fiscalName, openingFloat: float, counted: count, note: note.trim() || null });
      setResult(c);
      toast(t('recorded'));
    } catch (err) {
      setFailure(describeError(err));
    } finally {
      setBusy(false);
    }
  };

  const diffWords = (n: number) => (n < 0 ? t('missing') : n > 0 ? t('surplus') : t('exact'));
  return (
    <form class="form stack" noValidate onSubmit={(e) => void submit(e)}>
      <h3>{t('countTitle')}</h3>
      <div class="form-grid">
        <Field label={t('openingFloat')} kind="text" value={opening} onChange={(v) => setOpening(v as string)} error={errors.openingFloat} suffix="€" testId="count-float" />
        <Field label={t('counted')} kind="text" value={counted} onChange={(v) => setCounted(v as string)} error={errors.counted} suffix="€" required testId="count-counted" />
        <Field label={t('note')} value={note} onChange={(v) => setNote(v as string)} wide />
      </div>
      <p class="muted">
        {t('expected')}: <b data-testid="count-expected">{money(expected)}</b>
        {!Number.isNaN(count) && expected !== null && counted.trim() !== '' && (
          <>
            {' · '}
            {t('difference')}: <b class={count - expected < 0 ? 'negative' : ''}>{money(Math.round((count - expected) * 100) / 100)}</b>
          </>
        )}
      </p>
      {failure && <Notice tone="bad">{failure}</Notice>}
      {result && (
        <Notice tone={result.difference < 0 ? 'bad' : result.difference > 0 ? 'warn' : 'good'}>
          <span data-testid="count-result">
            {t('expected')} <b>{money(result.expected)}</b> · {t('counted')} <b>{money(result.counted)}</b> · {t('difference')}{' '}
            <b data-testid="count-difference">{money(result.difference)}</b> ({diffWords(result.difference)})
          </span>
        </Notice>
      )}
      <div>
        <Button type="submit" variant="primary" icon="check" busy={busy} data-testid="count-save">
          {t('record')}
        </Button>
      </div>
    </form>
  );
}
