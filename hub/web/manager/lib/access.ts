/**
 * What the manager's page shows to whom, declared once (CONTRACT §12): the right each resource's
 * reading needs, and the views and tabs with the rights they need. The menu, the tabs, the router and
 * the data hooks all read this, so the page never asks the hub for what its user may not read (no
 * 403 on the wire) and never offers a view that would show nothing but a refusal.
 */

/**
 * Resources only some users read. The others (the catalog, devices, printers, payment types) every
 * logged-in user reads; tickets and orders too, narrowed by the hub to what the user may see.
 * Customers without CustomerRead are found only one at a time by card, which the page never does.
 * A test holds this against the hub's resource definitions.
 */
export const READ_RIGHTS: Readonly<Record<string, string>> = {
  customers: 'CustomerRead',
  cashcounts: 'ReportRead',
  users: 'UserRead',
  fiscaldevices: 'SettingsRead',
  'receipts/emails': 'SettingsRead',
  stocktransfers: 'StockRead',
  stocktakings: 'StockRead',
  stocktransfernumberings: 'StockRead',
};

export interface Gated {
  /** Every one of these rights is needed to see it. */
  needs?: readonly string[];
}

/** Names of components/Icon's icons (this module stays free of JSX, so the hub's own tests can read it). */
type ViewIcon = 'today' | 'tickets' | 'devices' | 'catalog' | 'customers' | 'settings';

export interface View extends Gated {
  href: string;
  label: string;
  icon: ViewIcon;
}

export const VIEWS: readonly View[] = [
  { href: '/today', label: 'Today', icon: 'today' },
  { href: '/tickets', label: 'Tickets', icon: 'tickets' },
  { href: '/devices', label: 'Devices', icon: 'devices', needs: ['SettingsRead'] },
  { href: '/catalog', label: 'Catalog & stock', icon: 'catalog' },
  { href: '/customers', label: 'Customers', icon: 'customers', needs: ['CustomerRead'] },
  { href: '/settings', label: 'Settings', icon: 'settings', needs: ['SettingsRead'] },
];

export interface Tab extends Gated {
  id: string;
  label: string;
  href: string;
}

export const CATALOG_TABS: readonly Tab[] = [
  { id: 'products', label: 'Products', href: '/catalog/products' },
  { id: 'stocks', label: 'Stocks', href: '/catalog/stocks' },
  { id: 'modifiers', label: 'Modifiers', href: '/catalog/modifiers' },
  { id: 'transfers', label: 'Stock transfers', href: '/catalog/transfers', needs: ['StockRead'] },
  { id: 'stocktakings', label: 'Stock takings', href: '/catalog/stocktakings', needs: ['StockRead'] },
];

export const SETTINGS_TABS: readonly Tab[] = [
  { id: 'payments', label: 'Payment types', href: '/settings/payments' },
  { id: 'numberings', label: 'Numberings', href: '/settings/numberings', needs: ['StockRead'] },
  { id: 'users', label: 'Users & rights', href: '/settings/users', needs: ['UserRead'] },
  { id: 'devices', label: 'Devices', href: '/settings/devices' },
];

export type Can = (right: string) => boolean;

export const allowed = (item: Gated, can: Can): boolean => (item.needs ?? []).every(can);

/** Whether a list or record of `/api/<resource>…` may be read: the data hooks skip the others. */
export function mayRead(resourceOrUrl: string, can: Can): boolean {
  const path = resourceOrUrl.replace(/^\/api\//, '').split('?')[0];
  const resource = Object.keys(READ_RIGHTS).find((r) => path === r || path.startsWith(`${r}/`));
  return !resource || can(READ_RIGHTS[resource]);
}

/** The view a path belongs to (its first segment). */
export const viewOf = (path: string): View | undefined => VIEWS.find((v) => v.href === '/' + (path.split('/')[1] ?? ''));
