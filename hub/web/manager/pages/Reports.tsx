/**
 * Reports (issues 21 and 28): sales over any range of days grouped as the manager asks (GET
 * /api/reports/sales, also as CSV), and the audit of those days — voids, deleted items, returns,
 * discounts and prices other than the list's, per day and waiter, each event with its ticket
 * (GET /api/reports/audit, /api/auditevents). The fiscal day, the shifts and the count are the End of
 * day page's (EndOfDay.tsx).
 */
import { useState } from 'preact/hooks';
import { messages, pick, type Entry } from '../../shared/i18n';
import type { AuditEvent, AuditReport, SalesReport } from '../lib/wire';
import { Field } from '../components/Field';
import { Empty, PageHeader, Stat, toast, useAction } from '../components/ui';
import { CompactTable } from '../components/CompactTable';
import { Button, Card, Notice, Spinner } from '../../shared/ui';
import { api, download, op } from '../lib/api';
import { useAll } from '../lib/data';
import { useLoad } from '../lib/data';
import { dateTime, dayDate, money, quantity } from '../lib/format';
import { addDays, dayOf, monthOf, weekdayOf } from '../../shared/days';
import { linkHandler } from '../lib/router';
import { useQuery } from '../lib/router';
import { useCan } from '../lib/session';

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
  endOfDayMoved: { en: 'The fiscal day, the shifts, the cash count, the Z report and the export for the accountant:', sk: 'Fiškálny deň, zmeny, počítanie hotovosti, uzávierka Z a export pre účtovníctvo:', cs: 'Fiskální den, směny, počítání hotovosti, uzávěrka Z a export pro účetnictví:' },
  endOfDay: { en: 'End of day', sk: 'Uzávierka dňa', cs: 'Uzávěrka dne' },
  audit: { en: 'Where money walked out', sk: 'Kde odchádzajú peniaze', cs: 'Kde odcházejí peníze' },
  auditText: {
    en: 'Voids and deleted items by who made them; returns, discounts and prices other than the list price on the waiter’s tickets. Choose a row for its events.',
    sk: 'Storná a zmazané položky podľa toho, kto ich urobil; vrátenia, zľavy a ceny iné ako cenníkové na účtoch čašníka. Vyberte riadok a zobrazia sa jednotlivé udalosti.',
    cs: 'Storna a smazané položky podle toho, kdo je udělal; vrácení, slevy a ceny jiné než ceníkové na účtech číšníka. Vyberte řádek a zobrazí se jednotlivé události.',
  },
  day: { en: 'Day', sk: 'Deň', cs: 'Den' },
  waiter: { en: 'Waiter', sk: 'Čašník', cs: 'Číšník' },
  voidsK: { en: 'Voids', sk: 'Storná', cs: 'Storna' },
  deletesK: { en: 'Deleted', sk: 'Zmazané', cs: 'Smazané' },
  returnsK: { en: 'Returns', sk: 'Vrátenia', cs: 'Vrácení' },
  discountsK: { en: 'Discounts', sk: 'Zľavy', cs: 'Slevy' },
  overridesK: { en: 'Own prices', sk: 'Zmenené ceny', cs: 'Změněné ceny' },
  noAudit: { en: 'Nothing walked out in these days', sk: 'V týchto dňoch nič také', cs: 'V těchto dnech nic takového' },
  when: { en: 'When', sk: 'Kedy', cs: 'Kdy' },
  what: { en: 'What', sk: 'Čo', cs: 'Co' },
  ticket: { en: 'Ticket', sk: 'Účet', cs: 'Účet' },
  item: { en: 'Item', sk: 'Položka', cs: 'Položka' },
  howMuch: { en: 'How much', sk: 'Koľko', cs: 'Kolik' },
  count: { en: '{n}×', sk: '{n}×', cs: '{n}×' },
});

const AUDIT_COLUMNS = [
  ['voids', 'voidsK'],
  ['deletes', 'deletesK'],
  ['returns', 'returnsK'],
  ['discounts', 'discountsK'],
  ['priceOverrides', 'overridesK'],
] as const;
const KIND_WORDS: Record<string, Entry> = {
  Void: { en: 'Void', sk: 'Storno', cs: 'Storno' },
  Delete: { en: 'Deleted', sk: 'Zmazané', cs: 'Smazané' },
  Return: { en: 'Return', sk: 'Vrátenie', cs: 'Vrácení' },
  Discount: { en: 'Discount', sk: 'Zľava', cs: 'Sleva' },
  PriceOverride: { en: 'Own price', sk: 'Zmenená cena', cs: 'Změněná cena' },
};

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

/**
 * The first and last day of a preset, as `yyyy-mm-dd` of the shop's calendar: the report's `from` and
 * `to` are the shop's local days, so "today" is the shop's today, wherever the browser is.
 */
export function presetRange(preset: Preset, now = new Date()): { from: string; to: string } {
  const today = dayOf(now);
  switch (preset) {
    case 'today':
      return { from: today, to: today };
    case 'yesterday':
      return { from: addDays(today, -1), to: addDays(today, -1) };
    case 'last7':
      return { from: addDays(today, -6), to: today };
    case 'week': {
      const monday = addDays(today, -((weekdayOf(today) + 6) % 7));
      return { from: monday, to: addDays(monday, 6) };
    }
    case 'month': {
      const { first, last } = monthOf(today);
      return { from: first, to: last };
    }
    case 'lastMonth': {
      const { first, last } = monthOf(today, -1);
      return { from: first, to: last };
    }
    case 'year':
      return { from: `${today.slice(0, 4)}-01-01`, to: `${today.slice(0, 4)}-12-31` };
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
      {can('ReportRead') && <Audit />}
      <Notice tone="info">
        {t('endOfDayMoved')}{' '}
        <a href="/endofday" onClick={linkHandler('/endofday')}>
          {t('endOfDay')}
        </a>
      </Notice>
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
  const [exporting, run] = useAction();
  const presetOn = PRESETS.find((p) => {
    const r = presetRange(p);
    return r.from === from && r.to === to;
  });

  const exportCsv = () =>
    run(async () => {
      const file = await download(salesUrl(from, to, groupBy), 'text/csv', `sales-${groupBy}-${from}_${to}.csv`);
      toast(t('csvDone', { file }));
    });

  const r = report.data;
  const tot = r?.totals;
  // A row's figures and the totals' (the totals' cash rounding is no column of the rows).
  type Figures = Omit<SalesReport['totals'], 'rounding'>;
  // A VAT rate's row and a payment type's hold tickets and net (and VAT) only: no sales columns of zeros beside them.
  const salesColumns = groupBy !== 'vat' && groupBy !== 'payment';
  const cols: Array<{ id: string; title: string; value: (x: Figures) => string; secondary?: boolean }> = [
    { id: 'tickets', title: t('tickets'), value: (x) => quantity(x.tickets), secondary: true },
    ...(salesColumns
      ? [
          { id: 'quantity', title: t('quantity'), value: (x: Figures) => quantity(x.quantity) },
          { id: 'gross', title: t('gross'), value: (x: Figures) => money(x.gross) },
          { id: 'discounts', title: t('discounts'), value: (x: Figures) => money(x.discounts) },
          { id: 'returns', title: t('returns'), value: (x: Figures) => money(x.returns) },
          { id: 'voids', title: t('voids'), value: (x: Figures) => money(x.voids) },
        ]
      : []),
    { id: 'net', title: t('net'), value: (x) => money(x.net) },
    // The hub splits VAT by rate only (0 in the other groupings): its total is above the table.
    ...(groupBy === 'vat'
      ? [
          { id: 'base', title: t('base'), value: (x: Figures) => money(x.base) },
          { id: 'vat', title: t('vat'), value: (x: Figures) => money(x.vat) },
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
          <div class="segmented" style={{ maxWidth: 'none' }} role="group" aria-label={t('period')}>
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

/** The range's audit per day and waiter; a row opens its events (who, when, which ticket, how much). */
function Audit() {
  const [q] = useQuery();
  const month = presetRange('month');
  const from = q.get('from') || month.from;
  const to = q.get('to') || month.to;
  const url = from <= to ? `/api/reports/audit?${new URLSearchParams({ from, to })}` : null;
  const audit = useLoad<AuditReport>(url, (signal) => api.get<AuditReport>(url!, signal), ['tickets']);
  const [open, setOpen] = useState<string | null>(null);
  const a = audit.data;
  const figure = (f: { events: number; amount: number }) => (f.events ? <>{money(f.amount)} <span class="muted">{t('count', { n: f.events })}</span></> : '—');
  return (
    <Card title={t('audit')}>
      <div class="stack">
        <p class="muted">{t('auditText')}</p>
        {audit.error && <Notice tone="bad">{audit.error}</Notice>}
        {!a && audit.loading && <Spinner />}
        {a && a.rows.length === 0 && <Empty title={t('noAudit')} />}
        {a && a.rows.length > 0 && (
          <div class="table-scroll">
            <table class="compact report-table" aria-label={t('audit')} data-testid="audit-table">
              <thead>
                <tr>
                  <th>{t('day')}</th>
                  <th>{t('waiter')}</th>
                  {AUDIT_COLUMNS.map(([, label]) => (
                    <th key={label} class="al-right">
                      {t(label)}
                    </th>
                  ))}
                  <th class="al-right">{t('total')}</th>
                </tr>
              </thead>
              <tbody>
                {a.rows.map((r) => {
                  const id = `${r.day}/${r.userName}`;
                  return [
                    <tr
                      key={id}
                      data-key={id}
                      class={`clickable${open === id ? ' selected' : ''}`}
                      tabIndex={0}
                      onClick={() => setOpen(open === id ? null : id)}
                      onKeyDown={(e) => e.key === 'Enter' && setOpen(open === id ? null : id)}
                      aria-expanded={open === id}
                    >
                      <td>{dayDate(r.day)}</td>
                      <td>{r.name}</td>
                      {AUDIT_COLUMNS.map(([field]) => (
                        <td key={field} data-col={field} class="al-right num">
                          {figure(r[field])}
                        </td>
                      ))}
                      <td data-col="total" class="al-right num">
                        <b>{money(r.total)}</b>
                      </td>
                    </tr>,
                    open === id && (
                      <tr key={`${id}-events`}>
                        <td colSpan={AUDIT_COLUMNS.length + 3}>
                          <AuditEvents day={r.day} userName={r.userName} />
                        </td>
                      </tr>
                    ),
                  ];
                })}
              </tbody>
              <tfoot>
                <tr data-key="totals">
                  <th colSpan={2}>{t('total')}</th>
                  {AUDIT_COLUMNS.map(([field]) => (
                    <th key={field} data-col={field} class="al-right num">
                      {figure(a.totals[field])}
                    </th>
                  ))}
                  <th data-col="total" class="al-right num">
                    {money(a.totals.total)}
                  </th>
                </tr>
              </tfoot>
            </table>
          </div>
        )}
      </div>
    </Card>
  );
}

function AuditEvents({ day, userName }: { day: string; userName: string }) {
  const events = useAll<AuditEvent>('auditevents', { filters: { Day: op.eq(day), UserName: op.eq(userName) }, sort: 'at' }, ['tickets']);
  if (!events.data) return <Spinner />;
  return (
    <CompactTable
      label={t('audit')}
      testId="audit-events"
      rows={events.data}
      rowKey={(e) => e.id}
      rowProps={(e) => ({ 'data-kind': e.kind })}
      cols={[
        { title: t('when'), cell: (e) => dateTime(e.at) },
        { title: t('what'), cell: (e) => pick(KIND_WORDS[e.kind]) },
        {
          title: t('ticket'),
          cell: (e) => (
            <a href={`/tickets/${e.ticketId}`} onClick={linkHandler(`/tickets/${e.ticketId}`)}>
              {e.ticketName || e.tableName || e.ticketId.slice(-6)}
            </a>
          ),
        },
        { title: t('item'), cell: (e) => e.plu?.name ?? '—' },
        { title: t('quantity'), figure: true, cell: (e) => (e.quantity === null ? '—' : quantity(e.quantity)) },
        { title: t('howMuch'), figure: true, cell: (e) => money(e.amount) },
      ]}
    />
  );
}
