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
  (t) => [uniqueIndex('sessions_refresh').on(t.refreshHash), index('sessions_device').on(t.deviceName, t.revokedAt)],
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
  },
  (t) => [index('customers_external_id').on(t.externalId), index('customers_last_name').on(t.lastName)],
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
  },
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
  },
  (t) => [uniqueIndex('plus_stock_code').on(t.stockName, t.code), index('plus_name').on(t.name)],
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
  },
  (t) => [index('changes_at').on(t.at)],
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
