/**
 * Every text the hub says to people, in one place: API error details, report columns, printed
 * kitchen tickets and bills, e-mail receipts. `{name}` is a placeholder `t()` fills. Every key has
 * `en` and `sk` (test/i18n/catalog.test.ts holds them to it and to the same placeholders); `cs` where
 * written, else Slovak is shown to Czech readers.
 */
type Entry = { en: string; sk: string; cs?: string };

export const MESSAGES = {
  // --- Reports (CSV headers and labels) ---
  'report.key': { en: 'Key', sk: 'Kľúč', cs: 'Klíč' },
  'report.label': { en: 'Name', sk: 'Názov', cs: 'Název' },
  'report.tickets': { en: 'Tickets', sk: 'Účty', cs: 'Účty' },
  'report.quantity': { en: 'Quantity sold', sk: 'Predané množstvo', cs: 'Prodané množství' },
  'report.gross': { en: 'Gross sales', sk: 'Tržba pred zľavami', cs: 'Tržba před slevami' },
  'report.discounts': { en: 'Discounts', sk: 'Zľavy', cs: 'Slevy' },
  'report.returnsQuantity': { en: 'Quantity returned', sk: 'Vrátené množstvo', cs: 'Vrácené množství' },
  'report.returns': { en: 'Returns', sk: 'Vrátené', cs: 'Vráceno' },
  'report.net': { en: 'Net sales', sk: 'Tržba', cs: 'Tržba' },
  'report.vat': { en: 'VAT', sk: 'DPH', cs: 'DPH' },
  'report.base': { en: 'Base', sk: 'Základ', cs: 'Základ' },
  'report.voidQuantity': { en: 'Quantity voided', sk: 'Stornované množstvo', cs: 'Stornované množství' },
  'report.voids': { en: 'Voids', sk: 'Storná', cs: 'Storna' },
  'report.total': { en: 'Total', sk: 'Spolu', cs: 'Celkem' },
  'report.uncategorized': { en: '(no category)', sk: '(bez kategórie)', cs: '(bez kategorie)' },
  'report.groupBy.product': { en: 'Product', sk: 'Produkt', cs: 'Produkt' },
  'report.groupBy.category': { en: 'Category', sk: 'Kategória', cs: 'Kategorie' },
  'report.groupBy.waiter': { en: 'Waiter', sk: 'Čašník', cs: 'Číšník' },
  'report.groupBy.register': { en: 'Register', sk: 'Pokladňa', cs: 'Pokladna' },
  'report.groupBy.vat': { en: 'VAT rate', sk: 'Sadzba DPH', cs: 'Sazba DPH' },
  'report.groupBy.payment': { en: 'Payment type', sk: 'Typ platby', cs: 'Typ platby' },
  'report.groupBy.hour': { en: 'Hour', sk: 'Hodina', cs: 'Hodina' },
  'report.groupBy.day': { en: 'Day', sk: 'Deň', cs: 'Den' },
  'report.groupBy.month': { en: 'Month', sk: 'Mesiac', cs: 'Měsíc' },
} as const satisfies Record<string, Entry>;

export type MessageKey = keyof typeof MESSAGES;
