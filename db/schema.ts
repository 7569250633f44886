/**
 * The hub's tables. Every resource table has its key, `v` (the resource's `_v`) and `doc` (the
 * JSON document as presented, minus `_v`), plus typed columns for what is filtered, sorted, joined
 * or unique. Decimal columns hold value × 10^4 as integers; datetimes are epoch milliseconds.
 * Change this file, then `npm run db:generate` and commit the migration it writes.
 */
import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

const v = () => integer('v').notNull();
const doc = () => text('doc').notNull();
/** The condition of a partial index over the rows where `column` has a value. */
const notNull = (column: string) => sql`${sql.raw(column)} IS NOT NULL`;

export const meta = sqliteTable('meta', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

export const users = sqliteTable(
  'users',
  {
    id: text('id').primaryKey(),
    v: v(),
    doc: doc(),
    userName: text('user_name').notNull(),
    isActive: integer('is_active').notNull(),
    passwordHash: text('password_hash').notNull(),
  },
  (t) => [uniqueIndex('users_user_name').on(sql`${t.userName} COLLATE NOCASE`)],
);

export const sessions = sqliteTable(
  'sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    refreshHash: text('refresh_hash').notNull(),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    deviceName: text('device_name').notNull(),
    envName: text('env_name').notNull(),
    createdAt: integer('created_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
    refreshExpiresAt: integer('refresh_expires_at').notNull(),
    revokedAt: integer('revoked_at'),
  },
  (t) => [uniqueIndex('sessions_refresh').on(t.refreshHash), index('sessions_device').on(t.deviceName, t.revokedAt), index('sessions_user').on(t.userId, t.revokedAt)],
);

export const customers = sqliteTable(
  'customers',
  {
    id: text('id').primaryKey(),
    v: v(),
    doc: doc(),
    externalId: text('external_id'),
    isActive: integer('is_active').notNull(),
    creditRate: integer('credit_rate').notNull(),
    discountRate: integer('discount_rate').notNull(),
    activationTime: integer('activation_time'),
    expirationTime: integer('expiration_time'),
    firstName: text('first_name'),
    lastName: text('last_name'),
    fullName: text('full_name'),
    companyName: text('company_name'),
    companyVatId: text('company_vat_id'),
    companyTaxId: text('company_tax_id'),
    note: text('note'),
    /** The six fields the seed's Search looks in and the card numbers, folded once at write time (not per query). */
    searchText: text('search_text'),
    /** Sort keys in the shop's collation (hub/i18n/collation.ts), kept by the engine. */
    fullNameSk: text('full_name_sk'),
    lastNameSk: text('last_name_sk'),
  },
  (t) => [
    index('customers_external_id').on(t.externalId),
    index('customers_last_name').on(t.lastName),
    index('customers_full_name_sk').on(t.fullNameSk),
    index('customers_last_name_sk').on(t.lastNameSk),
    // Search counts its matches over every customer: this index covers that scan (~60 bytes a
    // customer instead of the whole row with its document), half the time of a count.
    index('customers_search_text').on(t.searchText),
  ],
);

export const customerCards = sqliteTable(
  'customer_cards',
  {
    serialNumber: text('serial_number').primaryKey(),
    customerId: text('customer_id').notNull().references(() => customers.id, { onDelete: 'cascade' }),
  },
  (t) => [index('customer_cards_customer').on(t.customerId)],
);

export const stockTransferNumberings = sqliteTable(
  'stock_transfer_numberings',
  {
    id: text('id').primaryKey(),
    v: v(),
    doc: doc(),
    isActive: integer('is_active').notNull(),
    type: text('type').notNull(),
  },
  (t) => [uniqueIndex('numberings_one_active_per_type').on(t.type).where(sql`${t.isActive} = 1`)],
);

export const devices = sqliteTable(
  'devices',
  {
    name: text('name').primaryKey(),
    v: v(),
    doc: doc(),
    isActive: integer('is_active').notNull(),
    envName: text('env_name').notNull(),
    /** SHA-256 of a paired register's key (hub/resources/devices/register-key.ts): a register is found by its key. */
    registerKeyHash: text('register_key_hash'),
  },
  (t) => [uniqueIndex('devices_register_key').on(t.registerKeyHash).where(notNull('register_key_hash'))],
);

export const modifiers = sqliteTable(
  'modifiers',
  {
    id: text('id').primaryKey(),
    v: v(),
    doc: doc(),
    name: text('name'),
  },
  (t) => [index('modifiers_name').on(t.name)],
);

export const orderEndpoints = sqliteTable('order_endpoints', {
  name: text('name').primaryKey(),
  v: v(),
  doc: doc(),
  isActive: integer('is_active').notNull(),
  type: text('type').notNull(),
  address: text('address'),
});

export const stocks = sqliteTable('stocks', {
  name: text('name').primaryKey(),
  v: v(),
  doc: doc(),
});

export const paymentTypes = sqliteTable('payment_types', {
  number: integer('number').primaryKey(),
  v: v(),
  doc: doc(),
  isActive: integer('is_active').notNull(),
  category: text('category').notNull(),
  isChangeable: integer('is_changeable').notNull(),
});

export const plus = sqliteTable(
  'plus',
  {
    id: text('id').primaryKey(),
    v: v(),
    doc: doc(),
    code: integer('code').notNull(),
    stockName: text('stock_name').notNull(),
    name: text('name').notNull(),
    type: text('type').notNull(),
    isActive: integer('is_active').notNull(),
    /** Exact decimal × 10^4; changed only by stock transfers. */
    stockQuantity: integer('stock_quantity').notNull().default(0),
    category: text('category'),
    barcode: text('barcode'),
    /** Exact decimal × 10^4: below it a StockItem is low on stock. */
    minimumQuantity: integer('minimum_quantity'),
    /** The name's sort key in the shop's collation. */
    nameSk: text('name_sk'),
  },
  (t) => [
    uniqueIndex('plus_stock_code').on(t.stockName, t.code),
    index('plus_name').on(t.name),
    index('plus_name_sk').on(t.nameSk),
    index('plus_category').on(t.category).where(notNull('category')),
    // A scanner's lookup: Barcode=<ean>.
    index('plus_barcode').on(t.barcode).where(notNull('barcode')),
  ],
);

/** Product categories (issue 21): plus name one; order endpoints route whole categories. */
export const categories = sqliteTable('categories', {
  name: text('name').primaryKey(),
  v: v(),
  doc: doc(),
  isActive: integer('is_active').notNull(),
});

/** The floor plan (issue 29): zones, their tables in the document; shown by sort_order, then name. */
export const zones = sqliteTable(
  'zones',
  {
    name: text('name').primaryKey(),
    v: v(),
    doc: doc(),
    isActive: integer('is_active').notNull(),
    sortOrder: integer('sort_order').notNull(),
  },
  (t) => [index('zones_order').on(t.sortOrder, t.name)],
);

export const fiscalDevices = sqliteTable('fiscal_devices', {
  name: text('name').primaryKey(),
  v: v(),
  doc: doc(),
  isActive: integer('is_active').notNull(),
  driver: text('driver').notNull(),
});

/** The change log (CONTRACT §9): one row per stored change, written in the change's transaction. */
export const changes = sqliteTable(
  'changes',
  {
    seq: integer('seq').primaryKey({ autoIncrement: true }),
    resource: text('resource').notNull(),
    key: text('key').notNull(),
    op: text('op').notNull(),
    v: integer('v').notNull(),
    at: integer('at').notNull(),
    /**
     * The document as stored at this version, kept only on a hub in a chain (CONTRACT §13) and only
     * until head office has acknowledged the entry: HQ must get each version, not just the latest.
     */
    doc: text('doc'),
  },
  // No index beside the primary key (issue 31): every change appends a row, and each index is another
  // page written per commit. Compaction's "newest entry older than the retention" is a binary search
  // over seq instead (hub/engine/change-log.ts): `at` grows with seq. Every other query reads by seq.
  // AUTOINCREMENT stays (sqlite_sequence: one more page per commit): a seq is never handed out twice
  // (CONTRACT §9, §13), and a restored backup goes on after the old file's last seq through it
  // (db/client.ts continueChangesAfter); without it, a rebuild of the table besides.
);

export const idempotencyKeys = sqliteTable(
  'idempotency_keys',
  {
    userId: text('user_id').notNull(),
    key: text('key').notNull(),
    fingerprint: text('fingerprint').notNull(),
    status: integer('status').notNull(),
    headers: text('headers').notNull(),
    body: text('body'),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] }), index('idempotency_created').on(t.createdAt)],
);

/**
 * Tickets: the document plus the columns registers filter on every minute. `device_name` is
 * derived (originDeviceName while open, closeInfo.deviceName once closed) so DeviceName is indexed.
 */
export const tickets = sqliteTable(
  'tickets',
  {
    id: text('id').primaryKey(),
    v: v(),
    doc: doc(),
    isClosed: integer('is_closed').notNull(),
    externalId: text('external_id'),
    name: text('name'),
    purchaseType: text('purchase_type').notNull(),
    originDeviceName: text('origin_device_name').notNull(),
    deviceName: text('device_name').notNull(),
    currencyLabel: text('currency_label'),
    discountRate: integer('discount_rate').notNull(),
    openDate: integer('open_date').notNull(),
    closeDate: integer('close_date'),
    customerId: text('customer_id'),
    customerCardSerialNumber: text('customer_card_serial_number'),
    employeeUserName: text('employee_user_name'),
    tableName: text('table_name'),
    zoneName: text('zone_name'),
    closeDeviceName: text('close_device_name'),
    closeFiscalName: text('close_fiscal_name'),
    closeNumber: integer('close_number'),
    closeDailySalesReportNumber: integer('close_daily_sales_report_number'),
    closeFiscalMemorySerialNumber: text('close_fiscal_memory_serial_number'),
    hasDiscount: integer('has_discount').notNull(),
    hasNegativeItem: integer('has_negative_item').notNull(),
    hasReturnedItem: integer('has_returned_item').notNull(),
    totalAmount: integer('total_amount').notNull(),
    /** Sort keys of name and table name in the shop's collation: a table plan in natural order ("2" before "10"). */
    nameSk: text('name_sk'),
    tableNameSk: text('table_name_sk'),
    /** The closed ticket a return was started from (POST /api/tickets/{id}/return): its earlier returns cap the next one. */
    returnOf: text('return_of'),
    /**
     * 1 once the closed ticket is in the running sales totals (hub/reports/store.ts), set in the
     * transaction that adds it: what was counted, not when, decides what the backfill counts (issue 28).
     */
    salesCounted: integer('sales_counted').notNull().default(0),
  },
  // Which query needs each index (issue 31; evidence: `npx tsx scripts/query-audit.ts` on the
  // bench's 1,000,000-ticket store, and test/db/query-plans.test.ts holds each index to its query).
  // A ticket create writes a page or more of every index an open ticket enters; the five partial
  // ones below it skips. Making the closed-ticket sorts' indexes partial too (WHERE is_closed = 1)
  // was measured and not kept: SQLite uses such an index only when IsClosed is a literal, and then
  // took it for the closed tickets' page by id (25 ms → 1.9 s on the bench's store).
  (t) => [
    // The open tickets: the register's table plan (IsClosed=false&LocationTableName), its start
    // (IsClosed=false, hub/web/register/till.ts), a waiter's view (engine/visibility.ts: is_closed = 0);
    // a table's tickets in any state (LocationTableName, the manager's Tickets page).
    index('tickets_closed_table').on(t.isClosed, t.tableName),
    // Closed tickets sorted by table (IsClosed=true&$sort=location.tableName, the manager's Tickets page).
    index('tickets_closed_table_sk').on(t.isClosed, t.tableNameSk),
    // Tickets of one state sorted by name (IsClosed&$sort=name, the seed).
    index('tickets_closed_name_sk').on(t.isClosed, t.nameSk),
    // A register's own sales of a day (IsClosed=true&DeviceName&CloseDate), DeviceName (the manager's
    // Tickets page), a waiter's view (engine/visibility.ts: device_name = ?).
    index('tickets_device_close').on(t.deviceName, t.closeDate),
    // Tickets of one state sorted by opening (IsClosed&$sort=openDate: the manager's Today, open ones).
    index('tickets_closed_open_date').on(t.isClosed, t.openDate),
    // Partial (`IS NOT NULL`) where the column is empty on an open ticket: a ticket write then
    // touches five B-trees fewer, and every filter on these columns (`=`, `<`, `>=`, … imply NOT
    // NULL to SQLite's planner) still finds its index.
    // CloseDate ranges: a day's closed tickets (the manager's Today, the register's Returns, reports/store.ts).
    index('tickets_close_date').on(t.closeDate).where(notNull('close_date')),
    // OpenDate ranges (the manager's Tickets page from/to), $sort=openDate, and the count of all tickets.
    index('tickets_open_date').on(t.openDate),
    // A waiter's view (engine/visibility.ts: employee_user_name = ?), EmployeeUserName (the manager's Tickets page).
    index('tickets_employee').on(t.employeeUserName, t.isClosed),
    // ExternalId (the seed).
    index('tickets_external_id').on(t.externalId).where(notNull('external_id')),
    // CustomerCardSerialNumber (the manager's Tickets page).
    index('tickets_customer_card').on(t.customerCardSerialNumber).where(notNull('customer_card_serial_number')),
    // CustomerId: a customer's purchases (the manager's Customers page).
    index('tickets_customer').on(t.customerId).where(notNull('customer_id')),
    // CloseInfoFiscalName (+ CloseInfoNumber): a receipt by its fiscal number.
    index('tickets_close_number').on(t.closeFiscalName, t.closeNumber).where(notNull('close_fiscal_name')),
    // LocationZoneName (the seed), with or without IsClosed.
    index('tickets_zone').on(t.zoneName, t.isClosed),
    // ReturnOf: the returns of a ticket (the register's Returns, a return's cap: store.ts returnDocsOf).
    index('tickets_return_of').on(t.returnOf).where(notNull('return_of')),
    // Closed tickets not yet in the sales totals: empty once a store is counted, so it costs nothing.
    index('tickets_uncounted').on(t.id).where(sql`is_closed = 1 AND sales_counted = 0`),
  ],
);

export const ticketItems = sqliteTable(
  'ticket_items',
  {
    ticketId: text('ticket_id').notNull().references(() => tickets.id, { onDelete: 'cascade' }),
    itemId: integer('item_id').notNull(),
    pluCode: integer('plu_code').notNull(),
    pluStockName: text('plu_stock_name').notNull(),
  },
  // The primary key alone (issue 31). ItemPluCode and ItemPluStockName are EXISTS per ticket
  // through it (repo.ts filterSql): SQLite never used the indexes on plu_code and plu_stock_name
  // for them (measured on the bench's store), and they cost a create five and more pages.
  (t) => [primaryKey({ columns: [t.ticketId, t.itemId] })],
);

/** Kitchen orders (CONTRACT §6, §11): made in the ticket write's transaction, printed by the queue. */
export const orders = sqliteTable(
  'orders',
  {
    id: text('id').primaryKey(),
    v: v(),
    doc: doc(),
    ticketId: text('ticket_id').notNull(),
    orderEndpointName: text('order_endpoint_name').notNull(),
    kind: text('kind').notNull(),
    state: text('state').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [
    // A ticket's orders (ticketId: the manager's ticket page, a register's view of a ticket).
    index('orders_ticket').on(t.ticketId),
    // A kitchen display's lists (hub/web/kds/feed.ts reload: state, createdAt since, $sort=createdAt;
    // its endpoints matched in the index, not in the rows). Not by endpoint first: a create's orders
    // go to several endpoints, and each endpoint's run in such an index was another page written
    // per create (issue 31); by state and time, a create's orders all land on one page.
    index('orders_state_created').on(t.state, t.createdAt, t.orderEndpointName),
  ],
);

/**
 * The durable print queue (outbox): a job is written in the transaction that causes it and
 * delivered by a worker after the commit. `payload` is the layout's data, frozen at enqueue time.
 */
export const printJobs = sqliteTable(
  'print_jobs',
  {
    id: text('id').primaryKey(),
    endpointName: text('endpoint_name').notNull(),
    kind: text('kind').notNull(),
    refId: text('ref_id'),
    payload: text('payload').notNull(),
    state: text('state').notNull(),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    createdAt: integer('created_at').notNull(),
    printedAt: integer('printed_at'),
  },
  (t) => [
    index('print_jobs_ref').on(t.refId),
    // The next job of a printer, in order, among the open ones only: a printed day does not slow it.
    index('print_jobs_open')
      .on(t.endpointName, t.createdAt)
      .where(sql`${sql.raw('state')} IN ('Queued', 'Printing', 'Waiting', 'Unknown')`),
    // The jobs a stopped hub left on their way to paper, found at start without reading a backlog
    // of thousands queued for a dead printer. Empty but for a moment per job: costs a write nothing.
    index('print_jobs_printing')
      .on(t.endpointName)
      .where(sql`${sql.raw('state')} = 'Printing'`),
  ],
);

/**
 * Fiscal receipts in flight: written before the device is asked to print, so a crash or a lost
 * reply leaves a record to reconcile against the device instead of printing blind a second time.
 */
export const fiscalJobs = sqliteTable(
  'fiscal_jobs',
  {
    id: text('id').primaryKey(),
    ticketId: text('ticket_id').notNull(),
    fiscalName: text('fiscal_name').notNull(),
    state: text('state').notNull(),
    request: text('request').notNull(),
    lastNumberBefore: integer('last_number_before'),
    result: text('result'),
    error: text('error'),
    createdAt: integer('created_at').notNull(),
    finishedAt: integer('finished_at'),
  },
  (t) => [
    index('fiscal_jobs_ticket').on(t.ticketId, t.state),
    // Every close asks for its device's pending jobs before and after printing; a year of closes
    // is a year of Done jobs, so the index holds only the pending ones (a handful at most).
    index('fiscal_jobs_pending')
      .on(t.fiscalName, t.createdAt)
      .where(sql`state = 'Pending'`),
  ],
);

/** Stock transfers (CONTRACT §7): immutable documents; every one moves plus' stockQuantity in its transaction. */
export const stockTransfers = sqliteTable(
  'stock_transfers',
  {
    id: text('id').primaryKey(),
    v: v(),
    doc: doc(),
    documentNumber: text('document_number').notNull(),
    type: text('type').notNull(),
    createdAt: integer('created_at').notNull(),
    sourceStockName: text('source_stock_name'),
    targetStockName: text('target_stock_name'),
    ticketId: text('ticket_id'),
    stockTakingId: text('stock_taking_id'),
    /** An Income's supplier (issue 28): a supplier's deliveries are listed by it. */
    supplierName: text('supplier_name'),
  },
  (t) => [
    uniqueIndex('stock_transfers_document_number').on(t.documentNumber),
    index('stock_transfers_supplier').on(t.supplierName).where(notNull('supplier_name')),
    index('stock_transfers_type_created').on(t.type, t.createdAt),
    index('stock_transfers_created').on(t.createdAt),
    index('stock_transfers_ticket').on(t.ticketId),
    index('stock_transfers_stock_taking').on(t.stockTakingId),
    index('stock_transfers_source').on(t.sourceStockName),
    index('stock_transfers_target').on(t.targetStockName),
  ],
);

export const stockTransferItems = sqliteTable(
  'stock_transfer_items',
  {
    transferId: text('transfer_id').notNull().references(() => stockTransfers.id, { onDelete: 'cascade' }),
    line: integer('line').notNull(),
    pluCode: integer('plu_code').notNull(),
    pluStockName: text('plu_stock_name').notNull(),
  },
  (t) => [primaryKey({ columns: [t.transferId, t.line] }), index('stock_transfer_items_plu').on(t.pluCode, t.pluStockName), index('stock_transfer_items_stock').on(t.pluStockName)],
);

export const stockTakings = sqliteTable(
  'stock_takings',
  {
    id: text('id').primaryKey(),
    v: v(),
    doc: doc(),
    isClosed: integer('is_closed').notNull(),
    createdAt: integer('created_at').notNull(),
    createdByUserName: text('created_by_user_name'),
    closedAt: integer('closed_at'),
    closedByUserName: text('closed_by_user_name'),
    currencyLabel: text('currency_label'),
  },
  (t) => [index('stock_takings_created').on(t.createdAt), index('stock_takings_closed').on(t.closedAt)],
);

export const stockTakingItems = sqliteTable(
  'stock_taking_items',
  {
    stockTakingId: text('stock_taking_id').notNull().references(() => stockTakings.id, { onDelete: 'cascade' }),
    line: integer('line').notNull(),
    pluCode: integer('plu_code').notNull(),
    pluStockName: text('plu_stock_name').notNull(),
  },
  (t) => [primaryKey({ columns: [t.stockTakingId, t.line] }), index('stock_taking_items_plu').on(t.pluCode, t.pluStockName), index('stock_taking_items_stock').on(t.pluStockName)],
);

/**
 * E-mail receipts (CONTRACT §11): an outbox written in the close's transaction and delivered by
 * hub/mail/worker.ts. `doc` is what GET /api/receipts/emails answers; the other columns are the
 * delivery's bookkeeping and the message itself, frozen at the close.
 */
export const receiptEmails = sqliteTable(
  'receipt_emails',
  {
    id: text('id').primaryKey(),
    v: v(),
    doc: doc(),
    ticketId: text('ticket_id').notNull(),
    toAddress: text('to_address').notNull(),
    state: text('state').notNull(),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    createdAt: integer('created_at').notNull(),
    sentAt: integer('sent_at'),
    /** Start of the current delivery round (the close, or the last resend): the give-up time counts from here. */
    queuedAt: integer('queued_at').notNull(),
    nextAttemptAt: integer('next_attempt_at').notNull(),
    /** Set and committed right before the SMTP call, cleared with its outcome; still set at start-up: interrupted. */
    sendingAt: integer('sending_at'),
    /** Resends so far: part of the Message-ID, so a resend is a new message and a retry is not. */
    round: integer('round').notNull().default(0),
    subject: text('subject').notNull(),
    textBody: text('text_body').notNull(),
    htmlBody: text('html_body').notNull(),
  },
  (t) => [
    index('receipt_emails_queue').on(t.state, t.nextAttemptAt),
    index('receipt_emails_ticket').on(t.ticketId),
    index('receipt_emails_to').on(sql`${t.toAddress} COLLATE NOCASE`),
    index('receipt_emails_created').on(t.createdAt),
  ],
);

/** The receipt settings (one row, id 'default'); the SMTP password apart from `doc`, which GET answers. */
export const receiptSettings = sqliteTable('receipt_settings', {
  id: text('id').primaryKey(),
  v: v(),
  doc: doc(),
  smtpPassword: text('smtp_password'),
});

/**
 * Running sales totals (issue 21): one row per dimension (total, product, category, waiter,
 * register, vat, payment, hour), bucket (local day `d:2026-11-21`, month `m:2026-11`, or a fiscal
 * device's day `f:<name>␟<number>`) and key, added to in the transaction of each close and void
 * (hub/reports/store.ts). Amounts and quantities × 10^4. The migration makes it WITHOUT ROWID: a
 * report reads the measures straight from the primary key's B-tree.
 */
export const salesTotals = sqliteTable(
  'sales_totals',
  {
    dimension: text('dimension').notNull(),
    bucket: text('bucket').notNull(),
    key: text('key').notNull(),
    label: text('label'),
    tickets: integer('tickets').notNull().default(0),
    quantity: integer('quantity').notNull().default(0),
    gross: integer('gross').notNull().default(0),
    discounts: integer('discounts').notNull().default(0),
    returnsQuantity: integer('returns_quantity').notNull().default(0),
    returns: integer('returns').notNull().default(0),
    net: integer('net').notNull().default(0),
    vat: integer('vat').notNull().default(0),
    voidQuantity: integer('void_quantity').notNull().default(0),
    voids: integer('voids').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.dimension, t.bucket, t.key] })],
);

/**
 * Cash counts (issue 21, 28): a drawer counted against what it should hold — a shift's drawer (`shift_id`:
 * its float, the cash its register took, its cash movements) or, without shifts, a fiscal day's cash.
 * `fiscal_name` is '' and `day_number` 0 for a shift of a register without a fiscal device.
 */
export const cashCounts = sqliteTable(
  'cash_counts',
  {
    id: text('id').primaryKey(),
    v: v(),
    doc: doc(),
    fiscalName: text('fiscal_name').notNull(),
    dayNumber: integer('day_number').notNull(),
    countedAt: integer('counted_at').notNull(),
    shiftId: text('shift_id'),
  },
  (t) => [
    index('cash_counts_day').on(t.fiscalName, t.dayNumber),
    index('cash_counts_counted').on(t.countedAt),
    index('cash_counts_shift').on(t.shiftId).where(notNull('shift_id')),
  ],
);

/**
 * Shifts (issue 28): a register's cash drawer session — opened with a float, cash put in and taken
 * out with a reason, closed with a count. At most one open shift per register.
 */
export const shifts = sqliteTable(
  'shifts',
  {
    id: text('id').primaryKey(),
    v: v(),
    doc: doc(),
    deviceName: text('device_name').notNull(),
    isOpen: integer('is_open').notNull(),
    openedAt: integer('opened_at').notNull(),
    closedAt: integer('closed_at'),
  },
  (t) => [
    uniqueIndex('shifts_one_open').on(t.deviceName).where(sql`is_open = 1`),
    index('shifts_device_opened').on(t.deviceName, t.openedAt),
    index('shifts_opened').on(t.openedAt),
    index('shifts_closed').on(t.closedAt).where(notNull('closed_at')),
  ],
);

/**
 * What each shift's register took, per payment type (net of change; `payment_type_number` 0: the
 * whole, its tickets and total), added in the transaction of each close on a register with an open
 * shift (hub/reports/drawer-store.ts). Amounts × 10^4.
 */
export const shiftSales = sqliteTable(
  'shift_sales',
  {
    shiftId: text('shift_id').notNull(),
    paymentTypeNumber: integer('payment_type_number').notNull(),
    tickets: integer('tickets').notNull().default(0),
    amount: integer('amount').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.shiftId, t.paymentTypeNumber] })],
);

/**
 * The audit (issue 28): where money walks out of a restaurant — voids, deleted tickets' items, returns,
 * discounts and prices other than the list price — one row per event, with who, when, which ticket and
 * how much; `day` is the local day (POS_HUB_TIMEZONE). Written in the transaction of the write or the
 * close that makes it (hub/reports/audit-store.ts); derived data like the sales totals, so not in the
 * change log.
 */
export const auditEvents = sqliteTable(
  'audit_events',
  {
    id: text('id').primaryKey(),
    v: v(),
    doc: doc(),
    at: integer('at').notNull(),
    day: text('day').notNull(),
    kind: text('kind').notNull(),
    userName: text('user_name').notNull(),
    ticketId: text('ticket_id').notNull(),
    amount: integer('amount').notNull(),
  },
  (t) => [index('audit_events_day').on(t.day, t.userName), index('audit_events_ticket').on(t.ticketId), index('audit_events_at').on(t.at)],
);

/** X and Z reports as the fiscal devices printed them (issue 28): a fiscal day's history. */
export const fiscalReports = sqliteTable(
  'fiscal_reports',
  {
    id: text('id').primaryKey(),
    v: v(),
    doc: doc(),
    fiscalName: text('fiscal_name').notNull(),
    kind: text('kind').notNull(),
    number: integer('number').notNull(),
    takenAt: integer('taken_at').notNull(),
  },
  (t) => [index('fiscal_reports_day').on(t.fiscalName, t.number), index('fiscal_reports_taken').on(t.takenAt)],
);
