/**
 * The rights in words (issue 28): what a manager reads on the users form and in every "needs the
 * right …" message, in the page's language, instead of the hub's keys (`TicketUpdateAny`). Keyed by
 * the hub's list (hub/http/rights.ts): a right added there without its words here does not compile.
 */
import type { Right } from '../../../http/rights.js';
import { language, pick, type Entry } from '../../shared/i18n.js';

/**
 * The create, change and delete rights of one kind of record (`Customer` → CustomerCreate,
 * CustomerUpdate, CustomerDelete), from its name in each language (what is made, changed, deleted).
 */
const crud = <K extends string>(kind: K, en: string, sk: string, cs: string) =>
  ({
    [`${kind}Create`]: { en: `Create ${en}`, sk: `Vytvárať ${sk}`, cs: `Vytvářet ${cs}` },
    [`${kind}Update`]: { en: `Change ${en}`, sk: `Upravovať ${sk}`, cs: `Upravovat ${cs}` },
    [`${kind}Delete`]: { en: `Delete ${en}`, sk: `Mazať ${sk}`, cs: `Mazat ${cs}` },
  }) as Record<`${K}${'Create' | 'Update' | 'Delete'}`, Entry>;

export const RIGHT_WORDS: Record<Right, Entry> = {
  ...crud('Customer', 'customers', 'zákazníkov', 'zákazníky'),
  CustomerSetDiscount: { en: 'Give customers a discount', sk: 'Dávať zákazníkom zľavu', cs: 'Dávat zákazníkům slevu' },
  CustomerSetCredit: { en: 'Change customers’ credit', sk: 'Meniť kredit zákazníkov', cs: 'Měnit kredit zákazníků' },
  ...crud('StockTransferNumbering', 'document numberings', 'číselné rady dokladov', 'číselné řady dokladů'),
  ...crud('Device', 'registers and devices', 'pokladne a zariadenia', 'pokladny a zařízení'),
  ...crud('Modifier', 'modifiers', 'prílohy a úpravy', 'přílohy a úpravy'),
  ...crud('OrderEndpoint', 'kitchen printers and displays', 'kuchynské tlačiarne a displeje', 'kuchyňské tiskárny a displeje'),
  ...crud('Stock', 'stocks', 'sklady', 'sklady'),
  ...crud('StockTaking', 'stock takings', 'inventúry', 'inventury'),
  // Starting and counting are said apart from the record's create and change.
  StockTakingCreate: { en: 'Start stock takings', sk: 'Začínať inventúry', cs: 'Zahajovat inventury' },
  StockTakingUpdate: { en: 'Count in stock takings', sk: 'Počítať inventúry', cs: 'Počítat inventury' },
  StockTakingClose: { en: 'Close stock takings (correct the stock)', sk: 'Uzatvárať inventúry (opraviť sklad)', cs: 'Uzavírat inventury (opravit sklad)' },
  ...crud('PaymentType', 'payment types', 'typy platieb', 'typy plateb'),
  TicketCreate: { en: 'Open tickets', sk: 'Otvárať účty', cs: 'Otevírat účty' },
  TicketUpdate: { en: 'Add to one’s own tickets', sk: 'Pridávať na vlastné účty', cs: 'Přidávat na vlastní účty' },
  TicketUpdateAny: { en: 'Change anyone’s tickets', sk: 'Meniť účty kohokoľvek', cs: 'Měnit účty kohokoli' },
  TicketRename: { en: 'Rename tickets', sk: 'Premenovávať účty', cs: 'Přejmenovávat účty' },
  TicketSetDiscount: { en: 'Give discounts on tickets', sk: 'Dávať zľavy na účty', cs: 'Dávat slevy na účty' },
  TicketSetCustomer: { en: 'Put a customer on a ticket', sk: 'Priraďovať zákazníka k účtu', cs: 'Přiřazovat zákazníka k účtu' },
  TicketHandover: { en: 'Hand tickets over to another waiter', sk: 'Odovzdávať účty inému čašníkovi', cs: 'Předávat účty jinému číšníkovi' },
  TicketTakeover: { en: 'Take over others’ tickets', sk: 'Preberať účty iných', cs: 'Přebírat účty jiných' },
  TicketDelete: { en: 'Delete open tickets', sk: 'Mazať otvorené účty', cs: 'Mazat otevřené účty' },
  TicketClose: { en: 'Take payment (close tickets)', sk: 'Inkasovať (uzatvárať účty)', cs: 'Inkasovat (uzavírat účty)' },
  TicketPrintPreliminary: { en: 'Print the bill before payment', sk: 'Tlačiť medziúčet', cs: 'Tisknout mezisoučet účtu' },
  Storno: { en: 'Take items back (storno, returns)', sk: 'Stornovať položky a vracať tovar', cs: 'Stornovat položky a vracet zboží' },
  ...crud('Plu', 'products and categories', 'produkty a kategórie', 'produkty a kategorie'),
  StockTransferCreate: { en: 'Post stock transfers (income, write-off, transfer)', sk: 'Vystavovať skladové pohyby (príjemky, výdajky, prevodky)', cs: 'Vystavovat skladové pohyby (příjemky, výdejky, převodky)' },
  ...crud('FiscalDevice', 'fiscal printers', 'fiškálne tlačiarne', 'fiskální tiskárny'),
  FiscalReport: { en: 'Print X and Z reports', sk: 'Tlačiť X a Z uzávierky', cs: 'Tisknout X a Z uzávěrky' },
  ...crud('User', 'users', 'používateľov', 'uživatele'),
  OrderProcess: { en: 'Move kitchen orders on (kitchen display)', sk: 'Posúvať kuchynské objednávky (kuchynský displej)', cs: 'Posouvat kuchyňské objednávky (kuchyňský displej)' },
  Backup: { en: 'Make and download backups', sk: 'Vytvárať a sťahovať zálohy', cs: 'Vytvářet a stahovat zálohy' },
  ReceiptSettingsUpdate: { en: 'Change receipt and e-mail settings', sk: 'Meniť nastavenia dokladov a e-mailu', cs: 'Měnit nastavení dokladů a e-mailu' },
  CustomerRead: { en: 'See customers', sk: 'Vidieť zákazníkov', cs: 'Vidět zákazníky' },
  TicketReadAll: { en: 'See everyone’s closed tickets', sk: 'Vidieť uzavreté účty všetkých', cs: 'Vidět uzavřené účty všech' },
  UserRead: { en: 'See users and their rights', sk: 'Vidieť používateľov a ich práva', cs: 'Vidět uživatele a jejich práva' },
  SettingsRead: { en: 'See devices and settings', sk: 'Vidieť zariadenia a nastavenia', cs: 'Vidět zařízení a nastavení' },
  StockRead: { en: 'See stock movements and stock takings', sk: 'Vidieť skladové pohyby a inventúry', cs: 'Vidět skladové pohyby a inventury' },
  ReportRead: { en: 'See sales reports', sk: 'Vidieť prehľady tržieb', cs: 'Vidět přehledy tržeb' },
  Metrics: { en: 'Read the monitoring figures', sk: 'Čítať údaje pre monitorovanie', cs: 'Číst údaje pro monitorování' },
  TicketSetPrice: { en: 'Change a price on a ticket', sk: 'Meniť cenu na účte', cs: 'Měnit cenu na účtu' },
  CashCount: { en: 'Record cash counts', sk: 'Zaznamenávať počítanie hotovosti', cs: 'Zaznamenávat počítání hotovosti' },
  CashMovement: { en: 'Put cash into or take it out of a drawer', sk: 'Vkladať a vyberať hotovosť z pokladne', cs: 'Vkládat a vybírat hotovost z pokladny' },
  ZoneCreate: { en: 'Add zones and tables to the floor plan', sk: 'Pridávať zóny a stoly do plánu sály', cs: 'Přidávat zóny a stoly do plánu sálu' },
  ZoneUpdate: { en: 'Change the floor plan', sk: 'Meniť plán sály', cs: 'Měnit plán sálu' },
  ZoneDelete: { en: 'Remove zones from the floor plan', sk: 'Odstraňovať zóny z plánu sály', cs: 'Odstraňovat zóny z plánu sálu' },
};

/** A right in the page's language; a name the page does not know (a newer hub's) as the hub spells it. */
export function rightWord(right: string): string {
  const words = (RIGHT_WORDS as Record<string, Entry | undefined>)[right];
  return words ? pick(words) : right;
}

/** Several rights, each in words and quoted the language's way, as a list a sentence can hold. */
export const rightsWords = (rights: readonly string[]): string => rights.map((r) => (language() === 'en' ? `“${rightWord(r)}”` : `„${rightWord(r)}“`)).join(', ');

/** The rights a text of the hub names (a refusal's detail, in whatever language it was said). */
export function rightsNamedIn(text: string): Right[] {
  return [...new Set(text.match(/\b[A-Z][A-Za-z]+\b/g) ?? [])].filter((w): w is Right => w in RIGHT_WORDS);
}
