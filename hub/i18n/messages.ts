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
  'print.receiptCopy': { en: 'RECEIPT COPY', sk: 'KÓPIA DOKLADU', cs: 'KOPIE DOKLADU' },
  'print.receiptNumber': { en: 'Receipt no.', sk: 'Doklad č.', cs: 'Doklad č.' },
  'print.fiscalDevice': { en: 'Fiscal device', sk: 'Fiškálne zariadenie', cs: 'Fiskální zařízení' },
  'print.dailyReport': { en: 'Daily report no.', sk: 'Uzávierka č.', cs: 'Uzávěrka č.' },
  'print.register': { en: 'Register', sk: 'Pokladňa', cs: 'Pokladna' },
  'print.closed': { en: 'Closed', sk: 'Uzavretý', cs: 'Uzavřen' },
  'print.change': { en: 'Change', sk: 'Vydané', cs: 'Vráceno' },
  // --- Names the hub gives (the shop's language) ---
  'ticket.returnName': { en: 'Return of {name}', sk: 'Vrátenie – {name}', cs: 'Vrácení – {name}' },
  'ticket.receiptRef': { en: 'receipt {number}', sk: 'doklad {number}', cs: 'doklad {number}' },

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

  // --- API error details (the caller's language: theirs, else Accept-Language, else the shop's) ---
  'error.unauthenticated': { en: 'A valid access token is required.', sk: 'Je potrebný platný prístupový token.', cs: 'Je potřeba platný přístupový token.' },
  'error.missingRight': { en: 'This operation requires the right {rights}.', sk: 'Táto operácia vyžaduje právo {rights}.', cs: 'Tato operace vyžaduje právo {rights}.' },
  'error.notSale': {
    en: 'Ticket writes require the Sale environment (a CashRegister or PDA device).',
    sk: 'Zápis účtov je možný len z predajného zariadenia (pokladňa alebo PDA).',
    cs: 'Zápis účtů je možný jen z prodejního zařízení (pokladna nebo PDA).',
  },
  'error.notFound': { en: "{resource} '{key}' does not exist.", sk: "{resource} '{key}' neexistuje.", cs: "{resource} '{key}' neexistuje." },
  'error.routeNotFound': { en: 'No endpoint at {path}.', sk: 'Na adrese {path} nie je nič.', cs: 'Na adrese {path} nic není.' },
  'error.methodNotAllowed': { en: '{method} is not allowed on {path}.', sk: 'Metóda {method} nie je na {path} povolená.', cs: 'Metoda {method} není na {path} povolena.' },
  'error.versionMismatch': {
    en: "{resource} '{id}' is at version {version}, the request expected {sent}.",
    sk: "{resource} '{id}' má verziu {version}, požiadavka počítala s verziou {sent}.",
    cs: "{resource} '{id}' má verzi {version}, požadavek počítal s verzí {sent}.",
  },
  'error.idempotencyKeyReused': {
    en: 'This Idempotency-Key was used before with a different request.',
    sk: 'Tento Idempotency-Key už bol použitý s inou požiadavkou.',
    cs: 'Tento Idempotency-Key už byl použit s jiným požadavkem.',
  },
  'error.payloadTooLarge': { en: 'The request body is larger than {limit}.', sk: 'Telo požiadavky je väčšie ako {limit}.', cs: 'Tělo požadavku je větší než {limit}.' },
  'error.clientAborted': {
    en: 'The client closed the connection before its request body was complete.',
    sk: 'Klient zavrel spojenie skôr, ako poslal celú požiadavku.',
    cs: 'Klient zavřel spojení dřív, než poslal celý požadavek.',
  },
  'error.storageFailed': {
    en: 'The hub could not write this change to its disk and is restarting. It may not have been saved: check, then try again.',
    sk: 'Hub nemohol zapísať túto zmenu na disk a reštartuje sa. Zmena možno nebola uložená: skontrolujte ju a skúste znova.',
    cs: 'Hub nemohl zapsat tuto změnu na disk a restartuje se. Změna možná nebyla uložena: zkontrolujte ji a zkuste to znovu.',
  },
  'error.unsupportedMediaType': {
    en: 'Request bodies must be application/json, not {type}.',
    sk: 'Telo požiadavky musí byť application/json, nie {type}.',
    cs: 'Tělo požadavku musí být application/json, ne {type}.',
  },
  'error.unexpected': {
    en: 'An unexpected error occurred. The request id identifies it in the hub log.',
    sk: 'Nastala neočakávaná chyba. V zázname hubu ju nájdete podľa identifikátora požiadavky.',
    cs: 'Nastala neočekávaná chyba. V záznamu hubu ji najdete podle identifikátoru požadavku.',
  },
} as const satisfies Record<string, Entry>;

export type MessageKey = keyof typeof MESSAGES;
