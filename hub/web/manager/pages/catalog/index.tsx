/**
 * Catalog and stock: products (with category, cost price and the hub's margin, EAN barcode and a
 * minimum stock), categories, stocks, modifiers, stock transfers and stock takings — one tab each, each
 * in its own module beside this one with its own messages.
 */
import { Empty, PageHeader, Tabs } from '../../components/ui';
import { allowed, CATALOG_TABS } from '../../lib/access';
import { useCan } from '../../lib/session';
import { Categories } from './categories';
import { Modifiers } from './modifiers';
import { Products } from './products';
import { StockTakings } from './stocktakings';
import { Stocks } from './stocks';
import { Transfers } from './transfers';
import { messages, pick } from '../../../shared/i18n';

const t = messages({
  title: { en: 'Catalog & stock', sk: 'Katalóg a sklad', cs: 'Katalog a sklad' },
  subtitle: { en: 'What you sell, what you keep, and how much of it is on the shelf.', sk: 'Čo predávate, čo máte na sklade a koľko toho je na regáli.', cs: 'Co prodáváte, co máte na skladě a kolik toho je na regálu.' },
  notYours: { en: 'This part is not part of your work here', sk: 'Táto časť nepatrí k vašej práci', cs: 'Tato část nepatří k vaší práci' },
});

export function Catalog({ tab: asked, takingId }: { tab: string; takingId: string | null }) {
  const can = useCan();
  const tabs = CATALOG_TABS.filter((tb) => allowed(tb, can)).map((tb) => ({ ...tb, label: pick(tb.label) }));
  const tab = tabs.some((tb) => tb.id === asked) ? asked : null;
  return (
    <div class="page">
      <PageHeader title={t('title')} subtitle={t('subtitle')} />
      <Tabs tabs={tabs} current={tab ?? ''} />
      {tab === null && <Empty icon="alert" title={t('notYours')} />}
      {tab === 'products' && <Products />}
      {tab === 'categories' && <Categories />}
      {tab === 'stocks' && <Stocks />}
      {tab === 'modifiers' && <Modifiers />}
      {tab === 'transfers' && <Transfers />}
      {tab === 'stocktakings' && <StockTakings takingId={takingId} />}
    </div>
  );
}
