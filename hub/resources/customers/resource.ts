import { customerSql } from './store.js';
import { z } from 'zod';
import { hasRight, requireRight } from '../../http/caller.js';
import { errors, memberError } from '../../http/errors.js';
import { dec, toJsonNumber, toScaled } from '../../core/money.js';
import { atRead, defineResource } from '../../engine/define.js';
import { idKeyed } from '../../engine/keys.js';
import { dateTime, decimal, freeObject, idKey, nullableText, rate, text } from '../../engine/fields.js';
import { bool } from '../../engine/refs.js';
import { foldText } from '../../../db/text.js';

export const CUSTOMER_STATUSES = ['Valid', 'Expired', 'NotYetValid'] as const;

const card = z.object({
  externalId: text().default(''),
  isActive: z.boolean().default(true),
  isVirtual: z.boolean().default(false),
  serialNumber: text().min(1),
  processor: text().default(''),
  status: text().default('Valid'),
  statusTime: dateTime().nullable().default(null),
  statusReason: nullableText().default(null),
  activationTime: dateTime().optional(),
  expirationTime: dateTime().nullable().default(null),
  note: nullableText().default(null),
  meta: freeObject().nullable().default(null),
});

const COMPANY_KEYS = ['name', 'vatId', 'taxId'] as const;
/** The seed names the searched company properties Name, VatId and TaxId: they are taken in any case and
 *  stored (and answered) in camelCase, so Search finds them; the camelCase key wins when both are given. */
const company = z.preprocess(
  (v) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return v;
    const out: Record<string, unknown> = {};
    for (const [k, value] of Object.entries(v)) {
      const canonical = COMPANY_KEYS.find((c) => c.toLowerCase() === k.toLowerCase());
      if (!canonical) out[k] = value;
      else if (k === canonical || !Object.hasOwn(v, canonical)) out[canonical] = value;
    }
    return out;
  },
  z.looseObject({ name: nullableText(), vatId: nullableText(), taxId: nullableText() }),
);

const creditTransaction = z.object({
  at: z.string(),
  amount: z.number(),
  balance: z.number(),
  userName: z.string(),
  name: z.string().optional().describe('The name of who changed the credit (changes before issue 28: absent).'),
});

const ms = (iso: unknown) => (typeof iso === 'string' ? Date.parse(iso) : null);

/** Valid, Expired (expirationTime passed) or NotYetValid (activationTime ahead), by the injected clock. */
export function customerStatus(doc: { activationTime: string | null; expirationTime: string | null }, now: Date): (typeof CUSTOMER_STATUSES)[number] {
  const t = now.getTime();
  const exp = ms(doc.expirationTime);
  const act = ms(doc.activationTime);
  if (exp !== null && exp <= t) return 'Expired';
  if (act !== null && act > t) return 'NotYetValid';
  return 'Valid';
}


export const customers = defineResource({
  name: 'customers',
  title: 'Customer',
  example: { firstName: 'Ján', lastName: 'Šťastný', email: 'jan.stastny@example.sk', phone: '+421 900 123 456', cards: [{ serialNumber: 'CARD-0001' }], discountRate: 5 },
  table: 'customers',
  key: idKeyed(),
  schema: z.object({
    id: idKey().optional(),
    externalId: nullableText().default(null),
    isActive: z.boolean().default(true),
    activationTime: dateTime().nullable().default(null),
    expirationTime: dateTime().nullable().default(null),
    firstName: text().default(''),
    lastName: text().default(''),
    gender: nullableText().default(null),
    birthDate: nullableText().default(null),
    email: text().default(''),
    phone: nullableText().default(null),
    isCompany: z.boolean().default(false),
    company: company.nullable().default(null),
    address: freeObject().nullable().default(null),
    deliveryAddress: freeObject().nullable().default(null),
    credit: z.object({ amount: decimal(), currencyLabel: nullableText().default(null) }).default({ amount: 0, currencyLabel: null }),
    cards: z.array(card).max(100).default([]),
    creditRate: rate().default(0),
    discountRate: rate().default(0),
    note: nullableText().default(null),
    meta: freeObject().default({}),
  }),
  readOnly: {
    // By the clock when read (customerStatus).
    status: atRead(z.enum(CUSTOMER_STATUSES)),
    fullName: z.string(),
    creditTransactions: z.array(creditTransaction),
  },
  columns: (d) => {
    const c: Partial<Record<'name' | 'vatId' | 'taxId', unknown>> = d.company ?? {};
    const s = (v: unknown) => (typeof v === 'string' ? v : null);
    return {
      external_id: s(d.externalId),
      is_active: bool(d.isActive),
      credit_rate: toScaled(d.creditRate),
      discount_rate: toScaled(d.discountRate),
      activation_time: ms(d.activationTime),
      expiration_time: ms(d.expirationTime),
      first_name: s(d.firstName),
      last_name: s(d.lastName),
      full_name: s(d.fullName),
      company_name: s(c.name),
      company_vat_id: s(c.vatId),
      company_tax_id: s(c.taxId),
      note: s(d.note),
      // Folded (no case, no accents) once at write time; card numbers too, so Search finds a customer by card.
      search_text: foldText(
        [d.firstName, d.lastName, c.name, c.vatId, c.taxId, d.note, ...(d.cards ?? []).map((card) => card.serialNumber)]
          .map((v) => (typeof v === 'string' ? v : ''))
          .join('\n'),
      ),
    };
  },
  children: [
    {
      table: 'customer_cards',
      fk: 'customer_id',
      rows: (d) => d.cards.map((c) => ({ serial_number: c.serialNumber })),
      unique: { column: 'serial_number', member: (i) => `cards[${i}].serialNumber`, message: 'customers.cardTaken' },
    },
  ],
  filters: {
    id: { type: 'string', column: 'id' },
    CardSerialNumber: { type: 'string', child: { table: 'customer_cards', fk: 'customer_id', column: 'serial_number' } },
    ExternalId: { type: 'string', column: 'external_id' },
    CreditRate: { type: 'decimal', column: 'credit_rate' },
    DiscountRate: { type: 'decimal', column: 'discount_rate' },
    IsActive: { type: 'bool', column: 'is_active' },
    ExpirationTime: { type: 'datetime', column: 'expiration_time' },
    IsExpired: {
      type: 'bool',
      predicate: (ctx) => customerSql.isExpired(ctx.clock.now().getTime()),
    },
    Search: {
      type: 'string',
      // Search is the seed's partial case-insensitive match over six fields: a plain value, contains and
      // in find it, ne and nin leave it out; an order or a prefix means nothing here (400, CONTRACT §4).
      ops: ['eq', 'ne', 'in', 'nin', 'contains'],
      build: (c) => customerSql.search(c),
    },
  },
  collate: ['fullName', 'lastName', 'firstName'],
  sortKeyColumns: { full_name: 'full_name_sk', last_name: 'last_name_sk' },
  sorts: {
    fullName: 'full_name',
    lastName: 'last_name',
    firstName: 'first_name',
    // The derived status, as customerStatus() computes it.
    status: (ctx) => customerSql.status(ctx.clock.now().getTime()),
  },
  // Without CustomerRead a register still finds one customer by the card it scans (or its external
  // id), and sees what a ticket needs of them: never an e-mail, phone, address or credit.
  read: {
    right: 'CustomerRead',
    lookup: {
      filters: ['CardSerialNumber', 'ExternalId'],
      schema: z
        .object({
          id: z.string(),
          fullName: z.string().nullable(),
          cards: z.array(z.object({ serialNumber: z.string(), isActive: z.boolean() })),
          discountRate: z.number(),
          status: z.enum(CUSTOMER_STATUSES),
        })
        .meta({ description: 'What a register without CustomerRead sees of the customer it looked up.' }),
      present: (doc) => ({
        id: doc.id,
        fullName: doc.fullName,
        cards: (doc.cards ?? []).map((c) => ({ serialNumber: c.serialNumber, isActive: c.isActive })),
        discountRate: doc.discountRate,
        status: doc.status,
      }),
    },
  },
  rights: { create: 'CustomerCreate', update: 'CustomerUpdate', delete: 'CustomerDelete' },
  rules: {
    notes: {
      post: 'A non-zero credit also needs CustomerSetCredit.',
      put: "A change of credit also needs CustomerSetCredit; a change of an existing customer's discountRate, CustomerSetDiscount.",
    },
  },
  hooks: {
    prepare({ caller, body, existing, ctx }) {
      const companyName = body.company?.name ?? '';
      if (!body.firstName && !body.lastName && !companyName) {
        throw errors.validation('customers.nameRequired', {}, [memberError('lastName', 'customers.nameRequiredMember', {}, 'Required')]);
      }
      const credit = body.credit;
      const before = existing ? existing.credit.amount : 0;
      const transactions = [...(existing?.creditTransactions ?? [])];
      if (!dec(credit.amount).eq(dec(before))) {
        requireRight(caller, 'CustomerSetCredit');
        transactions.push({
          at: ctx.clock.now().toISOString(),
          amount: toJsonNumber(dec(credit.amount).minus(dec(before))),
          balance: credit.amount,
          userName: caller.userName,
          name: caller.name,
        });
      }
      if (existing && !dec(body.discountRate).eq(dec(existing.discountRate)) && !hasRight(caller, 'CustomerSetDiscount')) {
        throw errors.missingRight('CustomerSetDiscount');
      }
      const now = ctx.clock.now().toISOString();
      const cards = body.cards.map((c) => ({ ...c, activationTime: c.activationTime ?? now }));
      const fullName = [body.firstName, body.lastName].filter(Boolean).join(' ') || companyName;
      return { ...body, cards, fullName, creditTransactions: transactions };
    },
    present: (doc, ctx) => ({ ...doc, status: customerStatus(doc, ctx.clock.now()) }),
  },
});
