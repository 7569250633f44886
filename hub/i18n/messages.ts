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

  // --- Printed kitchen orders and bills (the shop's language) ---
  'print.ticket': { en: 'Ticket', sk: 'Účet', cs: 'Účet' },
  'print.table': { en: 'Table', sk: 'Stôl', cs: 'Stůl' },
  'print.waiter': { en: 'Waiter', sk: 'Čašník', cs: 'Číšník' },
  'print.time': { en: 'Time', sk: 'Čas', cs: 'Čas' },
  'print.order': { en: 'Order', sk: 'Objednávka', cs: 'Objednávka' },
  'print.cancel': { en: 'CANCEL', sk: 'STORNO', cs: 'STORNO' },
  'print.copy': { en: 'COPY', sk: 'KÓPIA', cs: 'KOPIE' },
  'print.reprint': { en: 'REPRINT', sk: 'OPAKOVANÁ TLAČ', cs: 'OPAKOVANÝ TISK' },
  'print.bill': { en: 'BILL', sk: 'ÚČET', cs: 'ÚČET' },
  'print.notFiscal': { en: 'Not a fiscal receipt', sk: 'Nie je pokladničný doklad', cs: 'Není daňový doklad' },
  'print.discount': { en: 'Discount', sk: 'Zľava', cs: 'Sleva' },
  'print.total': { en: 'TOTAL', sk: 'SPOLU', cs: 'CELKEM' },
  'print.printedFor': { en: 'Printed for {name}', sk: 'Vytlačené pre {name}', cs: 'Vytištěno pro {name}' },
  'print.testPage': { en: 'Test page: {name}', sk: 'Skúšobná strana: {name}', cs: 'Zkušební stránka: {name}' },

  // --- E-mail receipts (the shop's language) ---
  'mail.subject': { en: 'Receipt {number} – {shop}', sk: 'Doklad {number} – {shop}', cs: 'Doklad {number} – {shop}' },
  'mail.receiptNo': { en: 'Receipt no. {number}', sk: 'Doklad č. {number}', cs: 'Doklad č. {number}' },
  'mail.date': { en: 'Date', sk: 'Dátum', cs: 'Datum' },
  'mail.ticket': { en: 'Ticket', sk: 'Účet', cs: 'Účet' },
  'mail.servedBy': { en: 'Served by', sk: 'Obsluha', cs: 'Obsluha' },
  'mail.item': { en: 'Item', sk: 'Položka', cs: 'Položka' },
  'mail.qtyPrice': { en: 'Qty × price', sk: 'Množstvo × cena', cs: 'Množství × cena' },
  'mail.vat': { en: 'VAT', sk: 'DPH', cs: 'DPH' },
  'mail.total': { en: 'Total', sk: 'Spolu', cs: 'Celkem' },
  'mail.TOTAL': { en: 'TOTAL', sk: 'SPOLU', cs: 'CELKEM' },
  'mail.subtotal': { en: 'Subtotal', sk: 'Medzisúčet', cs: 'Mezisoučet' },
  'mail.discount': { en: 'Discount {rate} %', sk: 'Zľava {rate} %', cs: 'Sleva {rate} %' },
  'mail.vatRate': { en: 'VAT rate', sk: 'Sadzba DPH', cs: 'Sazba DPH' },
  'mail.base': { en: 'Base', sk: 'Základ', cs: 'Základ' },
  'mail.vatColumns': { en: 'base / VAT / total', sk: 'základ / DPH / spolu', cs: 'základ / DPH / celkem' },
  'mail.change': { en: 'Change', sk: 'Vydané', cs: 'Vráceno' },
  'mail.fiscalReceipt': { en: 'Fiscal receipt {number}, daily report {report}', sk: 'Pokladničný doklad {number}, denná uzávierka {report}', cs: 'Účtenka {number}, denní uzávěrka {report}' },
  'mail.fiscalMemory': { en: 'Fiscal memory {serial} ({name}), register {device}', sk: 'Fiškálna pamäť {serial} ({name}), pokladňa {device}', cs: 'Fiskální paměť {serial} ({name}), pokladna {device}' },
  'mail.ekasaOffline': { en: 'eKasa: registered offline, sent to the eKasa system later', sk: 'eKasa: zaevidované offline, do systému eKasa bude odoslané neskôr' },
} as const satisfies Record<string, Entry>;

export type MessageKey = keyof typeof MESSAGES;
