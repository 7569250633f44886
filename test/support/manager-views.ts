/**
 * Every view of the manager's page worth a look, as [name, address, test id shown once it is
 * ready]: the browser test renders each one (test/web/manager.test.ts) and `npm run screenshots`
 * (scripts/screenshots.ts) photographs each at three sizes.
 */
export function managerViews(ids: { ticketId: string; stocktakingId: string }): Array<[string, string, string]> {
  return [
    ['today', '/today', 'sales-total'],
    ['tickets', '/tickets', 'table-tickets'],
    ['ticket-detail', `/tickets/${ids.ticketId}`, 'ticket-detail'],
    ['devices', '/devices', 'device-FP1'],
    ['catalog', '/catalog/products', 'table-plus'],
    ['categories', '/catalog/categories', 'new-category'],
    ['stocks', '/catalog/stocks', 'stock-value'],
    ['transfers', '/catalog/transfers', 'table-stocktransfers'],
    ['stocktaking', `/catalog/stocktakings/${ids.stocktakingId}`, 'count'],
    ['customers', '/customers', 'table-customers'],
    ['customer-edit', '/customers?edit=stastny', 'save'],
    ['settings-users', '/settings/users', 'table-users'],
    ['settings-user-edit', '/settings/users?edit=admin', 'save'],
    ['settings-printers', '/settings/devices?kind=printers&edit=Kitchen', 'save'],
    ['reports', '/reports', 'total-vat'],
    ['end-of-day', '/endofday', 'eod-date'],
    ['settings-receipts', '/settings/receipts', 'receipt-settings'],
    ['settings-backups', '/settings/backups', 'backup-now'],
    ['settings-registers', '/settings/registers', 'registers'],
  ];
}
