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
  fiscalreports: 'ReportRead',
  auditevents: 'ReportRead',
  users: 'UserRead',
  fiscaldevices: 'SettingsRead',
  'receipts/emails': 'SettingsRead',
  stocktransfers: 'StockRead',
  stocktakings: 'StockRead',
  stocktransfernumberings: 'StockRead',
};

import type { Entry } from '../../shared/i18n.js';

export interface Gated {
  /** Every one of these rights is needed to see it. */
  needs?: readonly string[];
}

/** Names of shared/Icon's icons (this module stays free of JSX, so the hub's own tests can read it). */
type ViewIcon = 'today' | 'tickets' | 'devices' | 'table' | 'catalog' | 'customers' | 'reports' | 'register' | 'settings';

export interface View extends Gated {
  href: string;
  /** In each language (shared/i18n.ts `pick`). */
  label: Entry;
  icon: ViewIcon;
}

export const VIEWS: readonly View[] = [
  { href: '/today', label: { en: 'Today', sk: 'Dnes', cs: 'Dnes' }, icon: 'today' },
  { href: '/tickets', label: { en: 'Tickets', sk: 'Účty', cs: 'Účty' }, icon: 'tickets' },
  { href: '/devices', label: { en: 'Devices', sk: 'Zariadenia', cs: 'Zařízení' }, icon: 'devices', needs: ['SettingsRead'] },
  // The floor plan (issue 29): everyone reads it (a waiter sees the tables); changing it needs ZoneUpdate.
  { href: '/floorplan', label: { en: 'Floor plan', sk: 'Plán stolov', cs: 'Plán stolů' }, icon: 'table' },
  { href: '/catalog', label: { en: 'Catalog & stock', sk: 'Katalóg a sklad', cs: 'Katalog a sklad' }, icon: 'catalog' },
  { href: '/customers', label: { en: 'Customers', sk: 'Zákazníci', cs: 'Zákazníci' }, icon: 'customers', needs: ['CustomerRead'] },
  { href: '/reports', label: { en: 'Reports', sk: 'Prehľady', cs: 'Přehledy' }, icon: 'reports', needs: ['ReportRead'] },
  { href: '/endofday', label: { en: 'End of day', sk: 'Uzávierka dňa', cs: 'Uzávěrka dne' }, icon: 'register', needs: ['ReportRead'] },
  { href: '/settings', label: { en: 'Settings', sk: 'Nastavenia', cs: 'Nastavení' }, icon: 'settings', needs: ['SettingsRead'] },
];

export interface Tab extends Gated {
  id: string;
  label: Entry;
  href: string;
}

export const CATALOG_TABS: readonly Tab[] = [
  { id: 'products', label: { en: 'Products', sk: 'Produkty', cs: 'Produkty' }, href: '/catalog/products' },
  { id: 'categories', label: { en: 'Categories', sk: 'Kategórie', cs: 'Kategorie' }, href: '/catalog/categories' },
  { id: 'stocks', label: { en: 'Stocks', sk: 'Sklady', cs: 'Sklady' }, href: '/catalog/stocks' },
  { id: 'modifiers', label: { en: 'Modifiers', sk: 'Prílohy a úpravy', cs: 'Přílohy a úpravy' }, href: '/catalog/modifiers' },
  { id: 'transfers', label: { en: 'Stock transfers', sk: 'Skladové pohyby', cs: 'Skladové pohyby' }, href: '/catalog/transfers', needs: ['StockRead'] },
  { id: 'stocktakings', label: { en: 'Stock takings', sk: 'Inventúry', cs: 'Inventury' }, href: '/catalog/stocktakings', needs: ['StockRead'] },
];

export const SETTINGS_TABS: readonly Tab[] = [
  { id: 'payments', label: { en: 'Payment types', sk: 'Typy platieb', cs: 'Typy plateb' }, href: '/settings/payments' },
  { id: 'numberings', label: { en: 'Numberings', sk: 'Číselné rady', cs: 'Číselné řady' }, href: '/settings/numberings', needs: ['StockRead'] },
  { id: 'users', label: { en: 'Users & rights', sk: 'Používatelia a práva', cs: 'Uživatelé a práva' }, href: '/settings/users', needs: ['UserRead'] },
  { id: 'devices', label: { en: 'Devices', sk: 'Zariadenia', cs: 'Zařízení' }, href: '/settings/devices' },
  { id: 'receipts', label: { en: 'Receipts & e-mail', sk: 'Doklady a e-mail', cs: 'Doklady a e-mail' }, href: '/settings/receipts', needs: ['SettingsRead'] },
  { id: 'outbox', label: { en: 'E-mail outbox', sk: 'Odoslané e-maily', cs: 'Odeslané e-maily' }, href: '/settings/outbox', needs: ['SettingsRead'] },
  { id: 'backups', label: { en: 'Backups', sk: 'Zálohy', cs: 'Zálohy' }, href: '/settings/backups', needs: ['SettingsRead'] },
  { id: 'registers', label: { en: 'Registers', sk: 'Pokladne', cs: 'Pokladny' }, href: '/settings/registers', needs: ['SettingsRead'] },
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
