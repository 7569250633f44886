/** The answers of the report routes (issue 21), for the OpenAPI document and the tests that hold real answers to it. */
import { z } from 'zod';
import { GROUP_BY } from './service.js';

const measures = {
  tickets: z.number().int().describe('Tickets that sold in this row (a product: tickets holding it).'),
  quantity: z.number().describe('Quantity sold (Positive items).'),
  gross: z.number().describe('Positive items at their prices with options, before discounts.'),
  discounts: z.number().describe('What item discounts and the ticket discount (shared out over the items to the cent) took off the positive items.'),
  returnsQuantity: z.number().describe('Quantity returned (Negative items).'),
  returns: z.number().describe('Returned items, a positive amount, after the ticket discount.'),
  net: z.number().describe('gross − discounts − returns: what the tickets brought in (a payment type: what was paid in it, change deducted from cash).'),
  vat: z.number().describe('VAT in net (groupBy vat, and the totals; 0 elsewhere).'),
  voidQuantity: z.number().describe('Quantity cancelled by a storno or on a deleted ticket, on the day of the void (waiter and register: who voided, where).'),
  voids: z.number().describe('The value of those items.'),
};

export const salesReportSchema = z.object({
  from: z.string().describe('First local day (YYYY-MM-DD), included.'),
  to: z.string().describe('Last local day, included.'),
  timeZone: z.string().describe('POS_HUB_TIMEZONE: the days are the shop’s local days.'),
  groupBy: z.enum(GROUP_BY),
  upToDate: z.boolean().describe('False while a store upgraded from a version without running totals is still counting its earlier tickets (minutes, once).'),
  rows: z.array(
    z.object({
      key: z
        .string()
        .describe(
          'product `<stockName>/<code>`, category name (empty: none), waiter user name, register device name, VAT rate, payment type number, hour `00`-`23`, day `YYYY-MM-DD`, month `YYYY-MM`.',
        ),
      label: z.string().nullable().describe('Product name, category, waiter’s name, register, payment type name, `20 %`; null for no category.'),
      ...measures,
      plu: z.object({ code: z.number().int(), stockName: z.string() }).optional().describe('groupBy product.'),
      paymentTypeNumber: z.number().int().optional().describe('groupBy payment.'),
      category: z.string().nullable().optional().describe('groupBy payment: the payment type’s category (Cash, CreditCard, …).'),
      rate: z.number().optional().describe('groupBy vat.'),
      base: z.number().optional().describe('groupBy vat: net − vat.'),
      hour: z.number().int().optional().describe('groupBy hour: 0-23, local.'),
    }),
  ),
  totals: z
    .object({
      ...measures,
      base: z.number(),
      rounding: z
        .number()
        .describe('Slovak cash rounding (eKasa devices): what rounding the cash part to 5 cents added to the payments (negative: took off), apart from the sales; groupBy payment rows add up to net + rounding.'),
    })
    .describe('The whole range (tickets counted once).'),
});

export const fiscalDaySchema = z.object({
  fiscalName: z.string(),
  dailySalesReportNumber: z.number().int(),
  isOpen: z.boolean().nullable().describe('True: the device’s open day (what an X report prints); false: closed by a Z; null: the hub has not seen the device’s state.'),
  tickets: z.number().int(),
  total: z.number(),
  returns: z.number(),
  discounts: z.number(),
  vatTotal: z.number(),
  payments: z.array(z.object({ paymentTypeNumber: z.number().int(), name: z.string(), category: z.string().nullable(), tickets: z.number().int(), amount: z.number() })),
  vat: z.array(z.object({ rate: z.number(), base: z.number(), vat: z.number(), gross: z.number() })),
  cashSales: z.number().describe('What the Cash-category payment types took in, change deducted: what the drawer gained (POST /api/cashcounts compares a count with it).'),
  rounding: z
    .number()
    .describe('Slovak cash rounding (eKasa devices): what rounding the cash part to 5 cents added to the payments (negative: took off), apart from the sales: the payments add up to total + rounding.'),
});

const auditFigure = z.object({ events: z.number().int(), quantity: z.number().describe('Items (0 for discounts, which are whole tickets’).'), amount: z.number() });
const auditFigures = {
  voids: auditFigure.describe('Items taken off by a storno, at their value.'),
  deletes: auditFigure.describe('Items of tickets deleted while open, at their value.'),
  returns: auditFigure.describe('Items given back on closed returns: the refunds.'),
  discounts: auditFigure.describe('What item and ticket discounts took off closed tickets (events: tickets).'),
  priceOverrides: auditFigure.describe('Items sold at a price other than the list price: (list − sold) × quantity.'),
  total: z.number().describe('Every amount above together.'),
};

export const auditReportSchema = z.object({
  from: z.string(),
  to: z.string(),
  timeZone: z.string(),
  rows: z.array(z.object({ day: z.string().describe('Local day, YYYY-MM-DD.'), userName: z.string(), name: z.string(), ...auditFigures })).describe('One per day and user, by day then user name.'),
  totals: z.object(auditFigures),
});
