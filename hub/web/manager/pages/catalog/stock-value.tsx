/** What each stock is worth (issue 28), shown on Catalog › Stocks. */
import { Field } from '../../components/Field';
import { Card, Notice, Spinner } from '../../../shared/ui';
import { api } from '../../lib/api';
import { useLoad } from '../../lib/data';
import { money } from '../../lib/format';
import { dayOf } from '../../../shared/days';
import { useQuery } from '../../lib/router';
import type { components } from '../../../shared/api-types';
import { messages } from '../../../shared/i18n';

const t = messages({
  stock: { en: 'Stock', sk: 'Sklad', cs: 'Sklad' },
  stockValue: { en: 'Stock value', sk: 'Hodnota skladu', cs: 'Hodnota skladu' },
  stockValueText: { en: 'What each stock is worth now at its average purchase prices, and what went through it in the period, at cost.', sk: 'Koľko má každý sklad teraz hodnotu v priemerných nákupných cenách a čo ním v období prešlo, v nákupných cenách.', cs: 'Jakou hodnotu má každý sklad teď v průměrných nákupních cenách a co jím v období prošlo, v nákupních cenách.' },
  from: { en: 'From', sk: 'Od', cs: 'Od' },
  to: { en: 'To', sk: 'Do', cs: 'Do' },
  valueNow: { en: 'Value now', sk: 'Hodnota teraz', cs: 'Hodnota teď' },
  received: { en: 'Received', sk: 'Príjem', cs: 'Příjem' },
  transfersNet: { en: 'Transfers in − out', sk: 'Prevody sem − preč', cs: 'Převody sem − pryč' },
  costOfGoodsSold: { en: 'Cost of goods sold', sk: 'Náklady na predaný tovar', cs: 'Náklady na prodané zboží' },
  writtenOff: { en: 'Written off', sk: 'Odpísané', cs: 'Odepsané' },
  corrections: { en: 'Stock-taking differences', sk: 'Inventúrne rozdiely', cs: 'Inventurní rozdíly' },
  allStocksTotal: { en: 'All stocks', sk: 'Všetky sklady', cs: 'Všechny sklady' },
  withoutCost: { en: '{n} products with stock but no purchase price are not in the value.', sk: 'Produkty so zásobou, ale bez nákupnej ceny ({n}), nie sú v hodnote.', cs: 'Produkty se zásobou, ale bez nákupní ceny ({n}), nejsou v hodnotě.' },
  movesWithoutCost: { en: '{n} items of the period moved without a known price and are not in its figures.', sk: 'Položky obdobia bez známej ceny ({n}) nie sú v jeho číslach.', cs: 'Položky období bez známé ceny ({n}) nejsou v jeho číslech.' },
});

type StockValueReport = components['schemas']['StockValue'];
type ValueRow = StockValueReport['totals'];
type ValueColumn = 'value' | 'received' | 'costOfGoodsSold' | 'writtenOff' | 'corrections' | 'transfers';

/** The figures of a stock's value, as columns: what a manager checks first comes first; transfers in and out as one balance. */
const VALUE_COLUMNS: Array<{ key: ValueColumn; title: () => string; of: (r: ValueRow) => number; secondary?: boolean }> = [
  { key: 'value', title: () => t('valueNow'), of: (r) => r.value },
  { key: 'received', title: () => t('received'), of: (r) => r.received },
  { key: 'costOfGoodsSold', title: () => t('costOfGoodsSold'), of: (r) => r.costOfGoodsSold },
  { key: 'writtenOff', title: () => t('writtenOff'), of: (r) => r.writtenOff, secondary: true },
  { key: 'corrections', title: () => t('corrections'), of: (r) => r.corrections, secondary: true },
  { key: 'transfers', title: () => t('transfersNet'), of: (r) => Math.round((r.transferredIn - r.transferredOut) * 100) / 100, secondary: true },
];

/** What each stock is worth now, and what went through it between two days, at cost (GET /api/stockvalue). */
export function StockValue() {
  const [q, setQuery] = useQuery();
  // The shop's today: the report's days are the shop's (POS_HUB_TIMEZONE).
  const today = dayOf(new Date());
  const from = q.get('valueFrom') ?? `${today.slice(0, 8)}01`;
  const to = q.get('valueTo') ?? today;
  const report = useLoad(`stockvalue:${from}:${to}`, (signal) => api.get<StockValueReport>(`/api/stockvalue?from=${from}&to=${to}`, signal), ['stocktransfers', 'plus']);
  const r = report.data;
  const cell = (n: number) => <span class={`num${n < 0 ? ' negative' : ''}`}>{money(n)}</span>;
  return (
    <Card title={t('stockValue')}>
      <p class="muted">{t('stockValueText')}</p>
      <div class="filter-grid">
        <Field label={t('from')} kind="day" value={from} onChange={(v) => v && setQuery({ valueFrom: String(v) })} testId="value-from" />
        <Field label={t('to')} kind="day" value={to} onChange={(v) => v && setQuery({ valueTo: String(v) })} testId="value-to" />
      </div>
      {report.error && !r ? (
        <Notice tone="bad">{report.error}</Notice>
      ) : !r ? (
        <Spinner />
      ) : (
        <>
          <div class="table-scroll">
            <table class="compact wrap-heads" aria-label={t('stockValue')} data-testid="stock-value">
              <thead>
                <tr>
                  <th>{t('stock')}</th>
                  {VALUE_COLUMNS.map((c) => (
                    <th key={c.key} class={`al-right${c.secondary ? ' secondary' : ''}`}>
                      {c.title()}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {r.stocks.map((row) => (
                  <tr key={row.stockName} data-key={row.stockName}>
                    <td>
                      <b>{row.stockName}</b>
                    </td>
                    {VALUE_COLUMNS.map((c) => (
                      <td key={c.key} class={`al-right${c.secondary ? ' secondary' : ''}`} data-col={c.key}>
                        {cell(c.of(row))}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
              <tfoot>
                <tr data-key="totals">
                  <th>{t('allStocksTotal')}</th>
                  {VALUE_COLUMNS.map((c) => (
                    <td key={c.key} class={`al-right${c.secondary ? ' secondary' : ''}`} data-col={c.key}>
                      <b>{cell(c.of(r.totals))}</b>
                    </td>
                  ))}
                </tr>
              </tfoot>
            </table>
          </div>
          {r.totals.productsWithoutCost > 0 && <p class="field-hint">{t('withoutCost', { n: r.totals.productsWithoutCost })}</p>}
          {r.totals.movesWithoutCost > 0 && <p class="field-hint">{t('movesWithoutCost', { n: r.totals.movesWithoutCost })}</p>}
        </>
      )}
    </Card>
  );
}
