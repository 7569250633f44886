/** What the stock screens share: a transfer's items with the products' names, and who made a document. */
import { useMemo } from 'preact/hooks';
import { api, op } from '../../lib/api';
import { useLoad } from '../../lib/data';
import { money, stockQuantity } from '../../lib/format';
import type { Plu, StockTransfer } from '../../../shared/types';
import { messages } from '../../../shared/i18n';

const t = messages({
  items: { en: 'Items', sk: 'Položky', cs: 'Položky' },
  code: { en: 'Code', sk: 'Kód', cs: 'Kód' },
  product: { en: 'Product', sk: 'Produkt', cs: 'Produkt' },
  expected: { en: 'Expected', sk: 'Očakávané', cs: 'Očekávané' },
  counted: { en: 'Counted', sk: 'Spočítané', cs: 'Spočítané' },
  correction: { en: 'Correction', sk: 'Rozdiel', cs: 'Rozdíl' },
  quantity: { en: 'Quantity', sk: 'Množstvo', cs: 'Množství' },
  value: { en: 'Value', sk: 'Hodnota', cs: 'Hodnota' },
  costAt: { en: 'Cost', sk: 'Cena', cs: 'Cena' },
});

export const pluKey = (p: { code: number; stockName?: string }) => `${p.stockName ?? ''}\u0000${p.code}`;

/** The plus of these stocks (nothing is asked before a stock is known), by stock and code. */
export function usePluNames(stocks: string[]): Map<string, Plu> {
  const unique = [...new Set(stocks)].sort();
  const { data } = useLoad(unique.length ? `plus-of:${JSON.stringify(unique)}` : null, (signal) => api.all<Plu>('plus', { filters: { stockName: op.in(unique) } }, signal), ['plus', 'stocktransfers']);
  return useMemo(() => new Map((data ?? []).map((p) => [pluKey(p), p])), [data]);
}

/** Who made a document, by name (the hub records it; older documents knew only the user name). */
export const who = (by: { userName: string; name?: string } | null | undefined) => (by ? by.name || by.userName : '—');

/** One transfer's items with plu names; for a correction, the counted and expected quantities too. */
export function TransferItems({ transfer }: { transfer: StockTransfer }) {
  const names = usePluNames(transfer.items.flatMap((i) => i.plu.stockName ?? []));
  const correction = transfer.type === 'Correction';
  const costed = transfer.items.some((i) => i.costPrice);
  const unitOf = (i: StockTransfer['items'][number]) => names.get(pluKey(i.plu))?.unit;
  return (
    <div class="table-scroll">
      <table class="compact" aria-label={t('items')}>
        <thead>
          <tr>
            <th class="al-right">{t('code')}</th>
            <th>{t('product')}</th>
            {correction && <th class="al-right">{t('expected')}</th>}
            {correction && <th class="al-right">{t('counted')}</th>}
            <th class="al-right">{correction ? t('correction') : t('quantity')}</th>
            {costed && <th class="al-right">{t('costAt')}</th>}
            {costed && <th class="al-right">{t('value')}</th>}
          </tr>
        </thead>
        <tbody>
          {transfer.items.map((i) => (
            <tr key={pluKey(i.plu)}>
              <td class="al-right num">{i.plu.code}</td>
              <td>{names.get(pluKey(i.plu))?.name ?? `${i.plu.stockName} ${i.plu.code}`}</td>
              {correction && <td class="al-right num">{stockQuantity(i.expectedQuantity, unitOf(i))}</td>}
              {correction && <td class="al-right num">{stockQuantity(i.actualQuantity, unitOf(i))}</td>}
              <td class={`al-right num${i.quantity < 0 ? ' negative' : ''}`}>
                {correction && i.quantity > 0 ? '+' : ''}
                {stockQuantity(i.quantity, unitOf(i))}
              </td>
              {costed && <td class="al-right num">{i.costPrice ? money(i.costPrice.amount) : '—'}</td>}
              {costed && <td class={`al-right num${i.quantity < 0 ? ' negative' : ''}`}>{i.costPrice ? money(Math.round(i.quantity * i.costPrice.amount * 100) / 100) : '—'}</td>}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
