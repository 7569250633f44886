/**
 * Catalog and stock: products (with category, cost price and the hub's margin, EAN barcode and a
 * minimum stock), categories, stocks, modifiers, stock transfers and stock takings — one tab each, each
 * in its own module beside this one with its own messages.
 */
import { TabbedPage } from '../../components/TabbedPage';
import { CATALOG_TABS } from '../../lib/access';
import { Categories } from './categories';
import { Modifiers } from './modifiers';
import { Products } from './products';
import { StockTakings } from './stocktakings';
import { Stocks } from './stocks';
import { Transfers } from './transfers';
import { messages } from '../../../shared/i18n';

const t = messages({
  title: { en: 'Catalog & stock', sk: 'Katalóg a sklad', cs: 'Katalog a sklad' },
  subtitle: { en: 'What you sell, what you keep, and how much of it is on the shelf.', sk: 'Čo predávate, čo máte na sklade a koľko toho je na regáli.', cs: 'Co prodáváte, co máte na skladě a kolik toho je na regálu.' },
});

export function Catalog({ tab, takingId }: { tab: string; takingId: string | null }) {
  return (
    <TabbedPage
      title={t('title')}
      subtitle={t('subtitle')}
      tabs={CATALOG_TABS}
      asked={tab}
      panes={{
        products: () => <Products />,
        categories: () => <Categories />,
        stocks: () => <Stocks />,
        modifiers: () => <Modifiers />,
        transfers: () => <Transfers />,
        stocktakings: () => <StockTakings takingId={takingId} />,
      }}
    />
  );
}
