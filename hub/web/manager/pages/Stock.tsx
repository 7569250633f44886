/**
 * Stock movements: transfers (the manager posts Income, Outcome, Transfer and Invoice; the hub
 * makes Sale and Correction) and stock takings — a count made on a tablet, row by row with big
 * inputs, closed into the Correction document that sets each stock to what was counted.
 */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { DataTable, type Column } from '../components/DataTable';
import { Editor } from '../components/Editor';
import { Field, type AnyForm } from '../components/Field';
import { Rows } from '../components/Rows';
import { Badge, Button, Card, confirm, Drawer, Empty, Facts, LinkButton, Notice, Spinner, toast, Toolbar, useAction } from '../components/ui';
import { api, ApiError, CONFLICT, op, path } from '../lib/api';
import { useLoad, useOne, useOptions } from '../lib/data';
import { useForm } from '../lib/form';
import { collator, date, dateTime, isoDay, money, stockQuantity } from '../lib/format';
import { guardLeaving, navigate, useQuery } from '../lib/router';
import { readStored, removeStored, writeStored } from '../../shared/storage';
import { rightWord } from '../lib/rights-words';
import { refreshSession, session, useCan } from '../lib/session';
import { ENUMS, options } from '../lib/enums';
import type { Plu, Stock, StockTaking, StockTransfer } from '../../shared/types';
import type { components } from '../../shared/api-types';
import { messages, plural } from '../../shared/i18n';
import { useEditParam } from './Catalog';

const t = messages({
  // transfer types
  Income: { en: 'Income', sk: 'Príjemka', cs: 'Příjemka' },
  Outcome: { en: 'Write-off', sk: 'Výdajka', cs: 'Výdejka' },
  Transfer: { en: 'Transfer', sk: 'Prevodka', cs: 'Převodka' },
  Sale: { en: 'Sale', sk: 'Predaj', cs: 'Prodej' },
  Invoice: { en: 'Invoice', sk: 'Faktúra', cs: 'Faktura' },
  Correction: { en: 'Correction', sk: 'Inventúrny rozdiel', cs: 'Inventurní rozdíl' },
  IncomeLong: { en: 'Income (goods received)', sk: 'Príjemka (prijatý tovar)', cs: 'Příjemka (přijaté zboží)' },
  OutcomeLong: { en: 'Write-off', sk: 'Výdajka (odpis)', cs: 'Výdejka (odpis)' },
  TransferLong: { en: 'Transfer between stocks', sk: 'Prevod medzi skladmi', cs: 'Převod mezi sklady' },
  InvoiceLong: { en: 'Invoice (sold on invoice)', sk: 'Faktúra (predaj na faktúru)', cs: 'Faktura (prodej na fakturu)' },
  // transfers
  document: { en: 'Document', sk: 'Doklad', cs: 'Doklad' },
  type: { en: 'Type', sk: 'Typ', cs: 'Typ' },
  date: { en: 'Date', sk: 'Dátum', cs: 'Datum' },
  stock: { en: 'Stock', sk: 'Sklad', cs: 'Sklad' },
  items: { en: 'Items', sk: 'Položky', cs: 'Položky' },
  by: { en: 'By', sk: 'Kto', cs: 'Kdo' },
  note: { en: 'Note', sk: 'Poznámka', cs: 'Poznámka' },
  ticket: { en: 'Ticket', sk: 'Účet', cs: 'Účet' },
  newTransfer: { en: 'New transfer', sk: 'Nový pohyb', cs: 'Nový pohyb' },
  allTypes: { en: 'All types', sk: 'Všetky typy', cs: 'Všechny typy' },
  allStocks: { en: 'All stocks', sk: 'Všetky sklady', cs: 'Všechny sklady' },
  transfers: { en: 'Stock transfers', sk: 'Skladové pohyby', cs: 'Skladové pohyby' },
  transfer: { en: 'Stock transfer', sk: 'Skladový pohyb', cs: 'Skladový pohyb' },
  noTransfers: { en: 'No stock transfers', sk: 'Žiadne skladové pohyby', cs: 'Žádné skladové pohyby' },
  noTransfersText: { en: 'Goods received, moved or written off appear here; so do the sales of stock items.', sk: 'Tu sa zobrazí prijatý, presunutý alebo odpísaný tovar, aj predaj skladových položiek.', cs: 'Zde se zobrazí přijaté, přesunuté nebo odepsané zboží, i prodej skladových položek.' },
  code: { en: 'Code', sk: 'Kód', cs: 'Kód' },
  product: { en: 'Product', sk: 'Produkt', cs: 'Produkt' },
  expected: { en: 'Expected', sk: 'Očakávané', cs: 'Očekávané' },
  counted: { en: 'Counted', sk: 'Spočítané', cs: 'Spočítané' },
  correction: { en: 'Correction', sk: 'Rozdiel', cs: 'Rozdíl' },
  quantity: { en: 'Quantity', sk: 'Množstvo', cs: 'Množství' },
  newTransferTitle: { en: 'New stock transfer', sk: 'Nový skladový pohyb', cs: 'Nový skladový pohyb' },
  fromStock: { en: 'From stock', sk: 'Zo skladu', cs: 'Ze skladu' },
  toStock: { en: 'To stock', sk: 'Do skladu', cs: 'Do skladu' },
  choose: { en: 'Choose…', sk: 'Vyberte…', cs: 'Vyberte…' },
  otherStock: { en: 'Choose another stock than the source.', sk: 'Vyberte iný sklad, ako je zdrojový.', cs: 'Vyberte jiný sklad, než je zdrojový.' },
  addItem: { en: 'Add item', sk: 'Pridať položku', cs: 'Přidat položku' },
  addItemsText: { en: 'Add the products that move.', sk: 'Pridajte produkty, ktoré sa presúvajú.', cs: 'Přidejte produkty, které se přesouvají.' },
  needItems: { en: 'Add at least one item.', sk: 'Pridajte aspoň jednu položku.', cs: 'Přidejte alespoň jednu položku.' },
  moreThanZero: { en: 'Must be more than 0.', sk: 'Musí byť viac ako 0.', cs: 'Musí být více než 0.' },
  notePlaceholder: { en: 'e.g. Delivered late, two crates damaged', sk: 'napr. Dodané neskoro, dve prepravky poškodené', cs: 'např. Dodáno pozdě, dvě přepravky poškozené' },
  chooseStockFirst: { en: 'Choose the stock first', sk: 'Najprv vyberte sklad', cs: 'Nejprve vyberte sklad' },
  // stock takings
  started: { en: 'Started', sk: 'Začatá', cs: 'Zahájena' },
  state: { en: 'State', sk: 'Stav', cs: 'Stav' },
  closedOn: { en: 'Closed {date}', sk: 'Uzavretá {date}', cs: 'Uzavřena {date}' },
  closed: { en: 'Closed', sk: 'Uzavretá', cs: 'Uzavřena' },
  counting: { en: 'Counting', sk: 'Prebieha', cs: 'Probíhá' },
  takings: { en: 'Stock takings', sk: 'Inventúry', cs: 'Inventury' },
  newTaking: { en: 'New stock taking', sk: 'Nová inventúra', cs: 'Nová inventura' },
  noTakings: { en: 'No stock takings yet', sk: 'Zatiaľ žiadne inventúry', cs: 'Zatím žádné inventury' },
  noTakingsText: { en: 'Start one to count a stock; closing it corrects the quantities to what you counted.', sk: 'Začnite inventúru skladu; jej uzavretie opraví množstvá podľa toho, čo ste spočítali.', cs: 'Zahajte inventuru skladu; její uzavření opraví množství podle toho, co jste spočítali.' },
  nothingToCount: { en: 'Stock “{name}” holds no stock items to count.', sk: 'Sklad „{name}“ nemá žiadne skladové položky na spočítanie.', cs: 'Sklad „{name}“ nemá žádné skladové položky k spočítání.' },
  newTakingText: { en: 'Every stock item of the stock goes on the count sheet.', sk: 'Všetky skladové položky skladu pôjdu do inventúrneho súpisu.', cs: 'Všechny skladové položky skladu půjdou do inventurního soupisu.' },
  cancel: { en: 'Cancel', sk: 'Zrušiť', cs: 'Zrušit' },
  startCounting: { en: 'Start counting', sk: 'Začať počítať', cs: 'Začít počítat' },
  stockToCount: { en: 'Stock to count', sk: 'Sklad na inventúru', cs: 'Sklad k inventuře' },
  takingNotePlaceholder: { en: 'e.g. Month-end count, bar', sk: 'napr. Mesačná inventúra, bar', cs: 'např. Měsíční inventura, bar' },
  closeTitle: { en: 'Close this stock taking?', sk: 'Uzavrieť túto inventúru?', cs: 'Uzavřít tuto inventuru?' },
  closeText: {
    en: 'The hub sets every counted product to the quantity you entered and writes a Correction document. A closed stock taking cannot be changed.',
    sk: 'Hub nastaví každý spočítaný produkt na zadané množstvo a vystaví doklad o inventúrnom rozdiele. Uzavretú inventúru už nemožno zmeniť.',
    cs: 'Hub nastaví každý spočítaný produkt na zadané množství a vystaví doklad o inventurním rozdílu. Uzavřenou inventuru již nelze změnit.',
  },
  closePartial: {
    en: '{n} of {all} products are counted; those not counted ({rest}) keep their stock quantity.',
    sk: 'Spočítané produkty: {n} z {all}; nespočítané ({rest}) si ponechajú svoje množstvo na sklade.',
    cs: 'Spočítané produkty: {n} z {all}; nespočítané ({rest}) si ponechají své množství na skladě.',
  },
  closeLoss: { en: 'Shortage worth {amount} ({below}).', sk: 'Manko v hodnote {amount} ({below}).', cs: 'Manko v hodnotě {amount} ({below}).' },
  closeNoLoss: { en: 'No shortage: nothing counted is below the expected quantity.', sk: 'Bez manka: nič spočítané nie je pod očakávaným množstvom.', cs: 'Bez manka: nic spočítaného není pod očekávaným množstvím.' },
  lossNoPrice: { en: '{n} of them have neither a cost price nor a price, so they are not in the sum.', sk: 'Z nich bez nákupnej aj predajnej ceny: {n}; v súčte nie sú.', cs: 'Z nich bez nákupní i prodejní ceny: {n}; v součtu nejsou.' },
  closeConfirm: { en: 'Close and correct stock', sk: 'Uzavrieť a opraviť sklad', cs: 'Uzavřít a opravit sklad' },
  countNothing: { en: 'Count at least one product before closing.', sk: 'Pred uzavretím spočítajte aspoň jeden produkt.', cs: 'Před uzavřením spočítejte alespoň jeden produkt.' },
  closedToast: { en: 'Stock taking closed; the stock is corrected.', sk: 'Inventúra je uzavretá; sklad je opravený.', cs: 'Inventura je uzavřena; sklad je opraven.' },
  savedToast: { en: 'Count saved.', sk: 'Inventúra uložená.', cs: 'Inventura uložena.' },
  gone: { en: 'This stock taking no longer exists.', sk: 'Táto inventúra už neexistuje.', cs: 'Tato inventura již neexistuje.' },
  allTakings: { en: 'All stock takings', sk: 'Všetky inventúry', cs: 'Všechny inventury' },
  takingTitle: { en: 'Stock taking · {stocks}', sk: 'Inventúra · {stocks}', cs: 'Inventura · {stocks}' },
  startedBy: { en: 'Started {when} by {who}', sk: 'Začal(a) {who} {when}', cs: 'Zahájil(a) {who} {when}' },
  closedBy: { en: ' · closed {when} by {who}', sk: ' · uzavrel(a) {who} {when}', cs: ' · uzavřel(a) {who} {when}' },
  reload: { en: 'Reload', sk: 'Načítať znova', cs: 'Načíst znovu' },
  needsRight: { en: 'Counting needs the right “{right}”.', sk: 'Počítanie vyžaduje právo „{right}“.', cs: 'Počítání vyžaduje právo „{right}“.' },
  find: { en: 'Find a product', sk: 'Nájsť produkt', cs: 'Najít produkt' },
  nameOrCode: { en: 'Name or code', sk: 'Názov alebo kód', cs: 'Název nebo kód' },
  countedOf: { en: '{n} of {all} counted', sk: 'Spočítané: {n} z {all}', cs: 'Spočítáno: {n} z {all}' },
  nothing: { en: 'Nothing to count', sk: 'Nie je čo počítať', cs: 'Není co počítat' },
  expectedQty: { en: 'expected {qty}', sk: 'očakávané {qty}', cs: 'očekávané {qty}' },
  countedName: { en: 'Counted {name}', sk: 'Spočítané {name}', cs: 'Spočítáno {name}' },
  notNegative: { en: 'Cannot be negative.', sk: 'Nemôže byť záporné.', cs: 'Nemůže být záporné.' },
  unsaved: { en: 'Unsaved counts', sk: 'Neuložené počty', cs: 'Neuložené počty' },
  allSaved: { en: 'All counts saved', sk: 'Všetko uložené', cs: 'Vše uloženo' },
  saveCount: { en: 'Save count', sk: 'Uložiť inventúru', cs: 'Uložit inventuru' },
  throwAway: { en: 'Throw this count away?', sk: 'Zahodiť túto inventúru?', cs: 'Zahodit tuto inventuru?' },
  throwAwayText: { en: 'The stock taking is deleted; stock quantities stay as they are.', sk: 'Inventúra sa zmaže; množstvá na sklade zostanú, ako sú.', cs: 'Inventura se smaže; množství na skladě zůstanou, jak jsou.' },
  delete: { en: 'Delete', sk: 'Zmazať', cs: 'Smazat' },
  deleted: { en: 'Stock taking deleted.', sk: 'Inventúra zmazaná.', cs: 'Inventura smazána.' },
  deleteTaking: { en: 'Delete this stock taking', sk: 'Zmazať túto inventúru', cs: 'Smazat tuto inventuru' },
  // stock value, purchase prices, suppliers (issue 28)
  value: { en: 'Value', sk: 'Hodnota', cs: 'Hodnota' },
  costPrice: { en: 'Purchase price', sk: 'Nákupná cena', cs: 'Nákupní cena' },
  costPriceHint: { en: 'Per unit, without VAT.', sk: 'Za jednotku, bez DPH.', cs: 'Za jednotku, bez DPH.' },
  costAt: { en: 'Cost', sk: 'Cena', cs: 'Cena' },
  supplier: { en: 'Supplier', sk: 'Dodávateľ', cs: 'Dodavatel' },
  supplierName: { en: 'Supplier', sk: 'Dodávateľ', cs: 'Dodavatel' },
  supplierHint: { en: 'Who delivered the goods, as on their delivery note.', sk: 'Kto tovar dodal, ako na dodacom liste.', cs: 'Kdo zboží dodal, jako na dodacím listu.' },
  companyId: { en: 'Company ID', sk: 'IČO', cs: 'IČO' },
  vatId: { en: 'VAT ID', sk: 'IČ DPH', cs: 'DIČ' },
  supplierDocument: { en: 'Their delivery note or invoice no.', sk: 'Číslo ich dodacieho listu alebo faktúry', cs: 'Číslo jejich dodacího listu nebo faktury' },
  noteHint: { en: 'Anything else worth knowing.', sk: 'Čokoľvek ďalšie, čo treba vedieť.', cs: 'Cokoli dalšího, co je třeba vědět.' },
  totalCost: { en: 'Value at cost', sk: 'Hodnota v nákupných cenách', cs: 'Hodnota v nákupních cenách' },
  stockValue: { en: 'Stock value', sk: 'Hodnota skladu', cs: 'Hodnota skladu' },
  stockValueText: { en: 'What each stock is worth now at its average purchase prices, and what went through it in the period, at cost.', sk: 'Koľko má každý sklad teraz hodnotu v priemerných nákupných cenách a čo ním v období prešlo, v nákupných cenách.', cs: 'Jakou hodnotu má každý sklad teď v průměrných nákupních cenách a co jím v období prošlo, v nákupních cenách.' },
  from: { en: 'From', sk: 'Od', cs: 'Od' },
  to: { en: 'To', sk: 'Do', cs: 'Do' },
  valueNow: { en: 'Value now', sk: 'Hodnota teraz', cs: 'Hodnota teď' },
  received: { en: 'Received', sk: 'Príjem', cs: 'Příjem' },
  transfersNet: { en: 'Transfers in − out', sk: 'Prevody sem − preč', cs: 'Převody sem − pryč' },
  costOfGoodsSold: { en: 'Cost of goods sold', sk: 'Náklady na predaný tovar', cs: 'Náklady na prodané zboží' },
  writtenOff: { en: 'Written off', sk: 'Odpísané', cs: 'Odepsané' },
  corrections: { en: 'Stock-taking differences', sk: 'Inventúrne rozdiely', cs: 'Inventurní rozdíly' },
  allStocksTotal: { en: 'All stocks', sk: 'Všetky sklady', cs: 'Všechny sklady' },
  withoutCost: { en: '{n} products with stock but no purchase price are not in the value.', sk: 'Produkty so zásobou, ale bez nákupnej ceny ({n}), nie sú v hodnote.', cs: 'Produkty se zásobou, ale bez nákupní ceny ({n}), nejsou v hodnotě.' },
  movesWithoutCost: { en: '{n} items of the period moved without a known price and are not in its figures.', sk: 'Položky obdobia bez známej ceny ({n}) nie sú v jeho číslach.', cs: 'Položky období bez známé ceny ({n}) nejsou v jeho číslech.' },
  // the count's draft (issue 28)
  draftRestored: { en: 'Counts typed on this device and not saved yet are back ({n}). Save them, or reload to drop them.', sk: 'Počty zadané na tomto zariadení, ktoré ešte neboli uložené, sú späť ({n}). Uložte ich, alebo ich zahoďte načítaním znova.', cs: 'Počty zadané na tomto zařízení, které ještě nebyly uloženy, jsou zpět ({n}). Uložte je, nebo je zahoďte načtením znovu.' },
  dropDraft: { en: 'Drop them', sk: 'Zahodiť ich', cs: 'Zahodit je' },
  leaveTitle: { en: 'Leave with unsaved counts?', sk: 'Odísť s neuloženými počtami?', cs: 'Odejít s neuloženými počty?' },
  leaveText: { en: 'They stay on this device and come back when you open this stock taking again, but nobody else sees them until you save.', sk: 'Zostanú na tomto zariadení a vrátia sa, keď túto inventúru znova otvoríte, no kým ich neuložíte, nikto iný ich nevidí.', cs: 'Zůstanou na tomto zařízení a vrátí se, až tuto inventuru znovu otevřete, ale dokud je neuložíte, nikdo jiný je nevidí.' },
  leave: { en: 'Leave', sk: 'Odísť', cs: 'Odejít' },
  correctionDoc: { en: 'Correction document', sk: 'Doklad o inventúrnom rozdiele', cs: 'Doklad o inventurním rozdílu' },
});

const belowCount = (n: number) =>
  plural(n, {
    one: { en: '{n} product below the expected quantity', sk: '{n} produkt pod očakávaným množstvom', cs: '{n} produkt pod očekávaným množstvím' },
    few: { en: '{n} products below the expected quantity', sk: '{n} produkty pod očakávaným množstvom', cs: '{n} produkty pod očekávaným množstvím' },
    other: { en: '{n} products below the expected quantity', sk: '{n} produktov pod očakávaným množstvom', cs: '{n} produktů pod očekávaným množstvím' },
  });

const TRANSFER_TYPES = ['Income', 'Outcome', 'Transfer', 'Sale', 'Invoice', 'Correction'] as const;
const typeWord = (type: string) => ((TRANSFER_TYPES as readonly string[]).includes(type) ? t(type as (typeof TRANSFER_TYPES)[number]) : type);
const typeLong = (type: string) => (type === 'Income' ? t('IncomeLong') : type === 'Outcome' ? t('OutcomeLong') : type === 'Transfer' ? t('TransferLong') : type === 'Invoice' ? t('InvoiceLong') : typeWord(type));

const pluKey = (p: { code: number; stockName?: string }) => `${p.stockName ?? ''}\u0000${p.code}`;

/** The plus of these stocks (nothing is asked before a stock is known), by stock and code. */
function usePluNames(stocks: string[]): Map<string, Plu> {
  const unique = [...new Set(stocks)].sort();
  const { data } = useLoad(unique.length ? `plus-of:${JSON.stringify(unique)}` : null, (signal) => api.all<Plu>('plus', { filters: { stockName: op.in(unique) } }, signal), ['plus', 'stocktransfers']);
  return useMemo(() => new Map((data ?? []).map((p) => [pluKey(p), p])), [data]);
}

/** Who made a document, by name (the hub records it; older documents knew only the user name). */
const who = (by: { userName: string; name?: string } | null | undefined) => (by ? by.name || by.userName : '—');

const TYPE_TONE: Record<string, 'good' | 'warn' | 'info' | 'neutral' | 'bad'> = { Income: 'good', Outcome: 'warn', Transfer: 'info', Sale: 'neutral', Invoice: 'warn', Correction: 'bad' };
/** Where the goods went; a Sale or Correction names no stock of its own, its items do. */
const route = (d: StockTransfer) =>
  [d.sourceStockName, d.targetStockName].filter(Boolean).join(' → ') || [...new Set(d.items.map((i) => i.plu.stockName))].join(', ') || '—';

const transferColumns = (): Column<StockTransfer>[] => [
  { id: 'number', title: t('document'), sort: 'documentNumber', render: (d) => <b class="mono">{d.documentNumber}</b> },
  { id: 'type', title: t('type'), render: (d) => <Badge tone={TYPE_TONE[d.type]}>{typeWord(d.type)}</Badge> },
  { id: 'created', title: t('date'), sort: 'createdAt', render: (d) => dateTime(d.createdAt) },
  { id: 'route', title: t('stock'), render: route },
  { id: 'items', title: t('items'), align: 'right', render: (d) => d.items.length },
  { id: 'value', title: t('value'), align: 'right', render: (d) => <span class={`num${(d.totalCost?.amount ?? 0) < 0 ? ' negative' : ''}`}>{d.totalCost ? money(d.totalCost.amount) : '—'}</span> },
  { id: 'supplier', title: t('supplier'), render: (d) => d.supplier?.name ?? '', secondary: true },
  { id: 'by', title: t('by'), render: (d) => who(d.createdBy), secondary: true },
  { id: 'note', title: t('note'), render: (d) => d.note || '', secondary: true },
];

export function Transfers() {
  const [q, setQuery] = useQuery();
  const [edit, setEdit] = useEditParam();
  const can = useCan();
  const stocks = useOptions<Stock>('stocks', (s) => s.name);
  const set = (k: string, v: unknown) => setQuery({ [k]: v ? String(v) : null, page: null });
  return (
    <>
      <Toolbar
        actions={
          can('StockTransferCreate') && (
            <Button variant="primary" icon="plus" onClick={() => setEdit('new')}>
              {t('newTransfer')}
            </Button>
          )
        }
      >
        <div class="filter-grid">
          <Field label={t('type')} kind="select" emptyOption={t('allTypes')} value={q.get('type') ?? ''} onChange={(v) => set('type', v)} options={options(ENUMS.transferType, typeWord)} />
          <Field label={t('stock')} kind="select" emptyOption={t('allStocks')} value={q.get('stock') ?? ''} onChange={(v) => set('stock', v)} options={stocks} />
        </div>
      </Toolbar>
      <Card>
        <DataTable<StockTransfer>
          resource="stocktransfers"
          label={t('transfers')}
          columns={transferColumns()}
          rowKey={(d) => d.id}
          defaultSort="-createdAt"
          filters={{ type: q.get('type') ? op.eq(q.get('type')!) : null, stockName: q.get('stock') ? op.eq(q.get('stock')!) : null }}
          onOpen={(d) => setQuery({ doc: d.id }, { replace: false })}
          selected={q.get('doc')}
          empty={{ title: t('noTransfers'), text: t('noTransfersText') }}
        />
      </Card>
      {q.get('doc') && <TransferDetail id={q.get('doc')!} onClose={() => setQuery({ doc: null })} />}
      {edit && <NewTransfer onClose={() => setEdit(null)} />}
    </>
  );
}

/** One transfer's items with plu names; for a correction, the counted and expected quantities too. */
export function TransferItems({ transfer }: { transfer: StockTransfer }) {
  const names = usePluNames(transfer.items.flatMap((i) => i.plu.stockName ?? []));
  const correction = transfer.type === 'Correction';
  const costed = transfer.items.some((i) => i.costPrice);
  const unitOf = (i: StockTransfer['items'][number]) => names.get(pluKey(i.plu))?.unit;
  return (
    <div class="table-scroll">
      <table class="compact" aria-label={t('items')}>
        <thead>
          <tr>
            <th class="al-right">{t('code')}</th>
            <th>{t('product')}</th>
            {correction && <th class="al-right">{t('expected')}</th>}
            {correction && <th class="al-right">{t('counted')}</th>}
            <th class="al-right">{correction ? t('correction') : t('quantity')}</th>
            {costed && <th class="al-right">{t('costAt')}</th>}
            {costed && <th class="al-right">{t('value')}</th>}
          </tr>
        </thead>
        <tbody>
          {transfer.items.map((i) => (
            <tr key={pluKey(i.plu)}>
              <td class="al-right num">{i.plu.code}</td>
              <td>{names.get(pluKey(i.plu))?.name ?? `${i.plu.stockName} ${i.plu.code}`}</td>
              {correction && <td class="al-right num">{stockQuantity(i.expectedQuantity, unitOf(i))}</td>}
              {correction && <td class="al-right num">{stockQuantity(i.actualQuantity, unitOf(i))}</td>}
              <td class={`al-right num${i.quantity < 0 ? ' negative' : ''}`}>
                {correction && i.quantity > 0 ? '+' : ''}
                {stockQuantity(i.quantity, unitOf(i))}
              </td>
              {costed && <td class="al-right num">{i.costPrice ? money(i.costPrice.amount) : '—'}</td>}
              {costed && <td class={`al-right num${i.quantity < 0 ? ' negative' : ''}`}>{i.costPrice ? money(Math.round(i.quantity * i.costPrice.amount * 100) / 100) : '—'}</td>}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function TransferDetail({ id, onClose }: { id: string; onClose: () => void }) {
  const { data: d, error } = useOne<StockTransfer>(path('stocktransfers', id));
  return (
    <Drawer wide title={d ? `${typeWord(d.type)} ${d.documentNumber}` : t('transfer')} onClose={onClose}>
      {error && !d ? (
        <Notice tone="bad">{error}</Notice>
      ) : !d ? (
        <Spinner />
      ) : (
        <div class="detail">
          <Facts
            items={[
              [t('document'), <b class="mono">{d.documentNumber}</b>],
              [t('type'), <Badge tone={TYPE_TONE[d.type]}>{typeWord(d.type)}</Badge>],
              [t('date'), dateTime(d.createdAt)],
              [t('by'), who(d.createdBy)],
              [t('stock'), route(d)],
              ...(d.supplier
                ? ([[t('supplier'), [d.supplier.name, d.supplier.companyId && `${t('companyId')} ${d.supplier.companyId}`, d.supplier.vatId && `${t('vatId')} ${d.supplier.vatId}`].filter(Boolean).join(' · ')], [t('supplierDocument'), d.supplier.documentNumber || '—']] as Array<[string, string]>)
                : []),
              [t('totalCost'), d.totalCost ? <b class="num" data-testid="transfer-total-cost">{money(d.totalCost.amount)}</b> : '—'],
              [t('ticket'), d.ticketId ? <a href={`/tickets/${encodeURIComponent(d.ticketId)}`}>{d.ticketId}</a> : '—'],
              [t('note'), d.note || '—'],
            ]}
          />
          <h3>{t('items')}</h3>
          <TransferItems transfer={d} />
        </div>
      )}
    </Drawer>
  );
}

interface TransferDraft {
  type: string;
  sourceStockName: string | null;
  targetStockName: string | null;
  note: string | null;
  supplier: { name: string; companyId: string | null; vatId: string | null; documentNumber: string | null };
  items: Array<{ plu: { code: string | number | null }; quantity: number | null; costPrice: { amount: number | null } }>;
}

function NewTransfer({ onClose }: { onClose: () => void }) {
  const stocks = useOptions<Stock>('stocks', (s) => s.name);
  const stockItems = usePluNames(stocks.map((o) => o.value));
  const suppliers = useSuppliers();
  return (
    <Editor<TransferDraft>
      resource="stocktransfers"
      editKey={null}
      noun={t('transfer')}
      wide
      title={() => t('newTransferTitle')}
      // No blank row to start with: an empty row's required fields would block saving.
      defaults={{ type: 'Income', sourceStockName: null, targetStockName: null, note: null, supplier: { name: '', companyId: null, vatId: null, documentNumber: null }, items: [] }}
      rights={{ create: 'StockTransferCreate', update: 'StockTransferCreate' }}
      toBody={(v) => ({
        type: v.type,
        sourceStockName: v.type === 'Income' ? null : v.sourceStockName,
        targetStockName: v.type === 'Income' || v.type === 'Transfer' ? v.targetStockName : null,
        note: v.note,
        // A supplier is an Income's, and only when named.
        supplier: v.type === 'Income' && v.supplier.name.trim() ? { ...v.supplier, name: v.supplier.name.trim() } : null,
        items: v.items.map((i) => ({
          plu: { code: Number(i.plu.code) },
          quantity: i.quantity,
          ...(v.type === 'Income' && typeof i.costPrice?.amount === 'number' ? { costPrice: { amount: i.costPrice.amount } } : {}),
        })),
      })}
      onClose={onClose}
    >
      {(form) => {
        const type = form.values.type;
        const itemStock = type === 'Income' ? form.values.targetStockName : form.values.sourceStockName;
        const units = new Map([...stockItems.values()].filter((p) => p.stockName === itemStock).map((p) => [String(p.code), p.unit]));
        return (
          <>
            <div class="form-grid">
              <Field form={form} name="type" label={t('type')} kind="select" options={options(ENUMS.postableTransferType, typeLong)} required />
              {type !== 'Income' && <Field form={form} name="sourceStockName" label={t('fromStock')} kind="select" emptyOption={t('choose')} options={stocks} required />}
              {(type === 'Income' || type === 'Transfer') && (
                <Field
                  form={form}
                  name="targetStockName"
                  label={t('toStock')}
                  kind="select"
                  emptyOption={t('choose')}
                  options={stocks}
                  required
                  validate={(v, all) => (type === 'Transfer' && v && v === all.sourceStockName ? t('otherStock') : null)}
                />
              )}
            </div>
            {type === 'Income' && (
              <div class="form-grid" data-testid="supplier">
                <Field form={form} name="supplier.name" label={t('supplierName')} hint={t('supplierHint')} list={suppliers.map((x) => x.name)} maxLength={200} testId="supplier-name" />
                <Field form={form} name="supplier.documentNumber" label={t('supplierDocument')} nullable testId="supplier-document" />
                <Field form={form} name="supplier.companyId" label={t('companyId')} nullable testId="supplier-company-id" />
                <Field form={form} name="supplier.vatId" label={t('vatId')} nullable />
                <SupplierFill form={form as unknown as AnyForm} suppliers={suppliers} />
              </div>
            )}
            <NeedItems form={form as unknown as AnyForm} />
            <Rows form={form} name="items" label={t('items')} addLabel={t('addItem')} empty={t('addItemsText')} newRow={() => ({ plu: { code: null }, quantity: null, costPrice: { amount: null } })}>
              {(p) => (
                <>
                  <PluSelect form={form} name={`${p}.plu.code`} stockName={itemStock} />
                  <Field
                    form={form}
                    name={`${p}.quantity`}
                    label={t('quantity')}
                    kind="number"
                    required
                    suffix={units.get(String(form.get(`${p}.plu.code`))) ?? undefined}
                    validate={(v) => (typeof v === 'number' && v <= 0 ? t('moreThanZero') : null)}
                  />
                  {type === 'Income' && <Field form={form} name={`${p}.costPrice.amount`} label={t('costPrice')} kind="number" min={0} nullable suffix="€" hint={t('costPriceHint')} testId="item-cost" />}
                </>
              )}
            </Rows>
            <Field form={form} name="note" label={t('note')} kind="textarea" nullable placeholder={t('notePlaceholder')} />
          </>
        );
      }}
    </Editor>
  );
}

/** A product of one stock (StockItem only: the only kind kept in stock). */
function PluSelect({ form, name, stockName }: { form: AnyForm; name: string; stockName: string | null }) {
  const { data } = useLoad(stockName ? `stock-items:${stockName}` : null, (signal) => api.all<Plu>('plus', { filters: { stockName: op.eq(stockName!), type: op.eq('StockItem') }, sort: 'name' }, signal), ['plus']);
  const opts = (data ?? []).map((p) => ({ value: String(p.code), label: `${p.name} (${p.code})` }));
  return <Field form={form} name={name} label={t('product')} kind="select" emptyOption={stockName ? t('choose') : t('chooseStockFirst')} options={opts} required disabled={!stockName} />;
}

/** The suppliers of the latest incomes, each once (newest first): offered as one types a supplier's name. */
function useSuppliers(): Array<NonNullable<StockTransfer['supplier']>> {
  const { data } = useLoad('suppliers', (signal) => api.list<StockTransfer>('stocktransfers', { filters: { type: op.eq('Income'), supplierName: op.ne('null') }, sort: '-createdAt', take: 200 }, signal), ['stocktransfers']);
  return useMemo(() => {
    const seen = new Map<string, NonNullable<StockTransfer['supplier']>>();
    for (const d of data?.items ?? []) if (d.supplier && !seen.has(d.supplier.name)) seen.set(d.supplier.name, d.supplier);
    return [...seen.values()];
  }, [data]);
}

/** A supplier chosen by name brings its company and VAT ids along, as given on its last income. */
function SupplierFill({ form, suppliers }: { form: AnyForm; suppliers: Array<NonNullable<StockTransfer['supplier']>> }) {
  const name = form.get('supplier.name');
  useEffect(() => {
    const known = suppliers.find((x) => x.name === name);
    if (!known) return;
    if (!form.get('supplier.companyId')) form.set('supplier.companyId', known.companyId ?? null);
    if (!form.get('supplier.vatId')) form.set('supplier.vatId', known.vatId ?? null);
  }, [name]);
  return null;
}

/** A new transfer needs at least one item: a check of the form's own on its `items`. */
function NeedItems({ form }: { form: AnyForm }) {
  useEffect(() => form.register('items', (v) => (Array.isArray(v) && v.length ? null : t('needItems'))), [form.register]);
  return null;
}

// ---- stock takings ----

const countedOf = (d: StockTaking) => d.items.filter((i) => i.actualQuantity !== null && i.actualQuantity !== undefined).length;
const stocksOf = (d: StockTaking) => [...new Set(d.items.map((i) => i.plu.stockName))].join(', ') || '—';

const takingColumns = (): Column<StockTaking>[] => [
  { id: 'created', title: t('started'), sort: 'createdAt', render: (d) => dateTime(d.createdAt) },
  { id: 'stock', title: t('stock'), render: stocksOf },
  { id: 'counted', title: t('counted'), align: 'right', render: (d) => `${countedOf(d)} / ${d.items.length}` },
  { id: 'by', title: t('by'), render: (d) => who(d.closedBy ?? d.createdBy), secondary: true },
  { id: 'state', title: t('state'), sort: 'closedAt', render: (d) => (d.closedAt ? <Badge tone="good">{t('closedOn', { date: date(d.closedAt) })}</Badge> : <Badge tone="info">{t('counting')}</Badge>) },
  { id: 'note', title: t('note'), render: (d) => d.note || '', secondary: true },
];

export function StockTakings({ takingId }: { takingId: string | null }) {
  const [edit, setEdit] = useEditParam();
  const can = useCan();
  if (takingId) return <Count id={takingId} />;
  return (
    <>
      <Card
        title={t('takings')}
        actions={
          can('StockTakingCreate') && (
            <Button variant="primary" icon="plus" onClick={() => setEdit('new')} data-testid="new-stocktaking">
              {t('newTaking')}
            </Button>
          )
        }
      >
        <DataTable<StockTaking>
          resource="stocktakings"
          label={t('takings')}
          columns={takingColumns()}
          rowKey={(d) => d.id}
          defaultSort="-createdAt"
          onOpen={(d) => navigate(`/catalog/stocktakings/${encodeURIComponent(d.id)}`)}
          empty={{ title: t('noTakings'), text: t('noTakingsText') }}
        />
      </Card>
      {edit && <NewTaking onClose={() => setEdit(null)} />}
    </>
  );
}

function NewTaking({ onClose }: { onClose: () => void }) {
  const stocks = useOptions<Stock>('stocks', (s) => s.name);
  const form = useForm({ stockName: '', note: null as string | null });
  const start = () =>
    form.submit(async (v) => {
      const plus = await api.all<Plu>('plus', { filters: { stockName: op.eq(v.stockName), type: op.eq('StockItem'), isActive: op.eq(true) }, sort: 'name' });
      if (!plus.length) throw new Error(t('nothingToCount', { name: v.stockName }));
      try {
        const taking = await api.post<StockTaking>(path('stocktakings'), { note: v.note, items: plus.map((p) => ({ plu: { code: p.code, stockName: p.stockName }, actualQuantity: null })) });
        navigate(`/catalog/stocktakings/${encodeURIComponent(taking.id)}`);
      } catch (e) {
        if (e instanceof ApiError && e.isMissingRight) void refreshSession().catch(() => undefined);
        throw e;
      }
    });
  return (
    <Drawer
      title={t('newTaking')}
      subtitle={t('newTakingText')}
      onClose={onClose}
      footer={
        <>
          <span class="spacer" />
          <Button variant="ghost" onClick={onClose}>
            {t('cancel')}
          </Button>
          <Button variant="primary" busy={form.busy} onClick={start} data-testid="start-count">
            {t('startCounting')}
          </Button>
        </>
      }
    >
      <form
        class="form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void start();
        }}
      >
        {form.formError && <Notice tone="bad">{form.formError}</Notice>}
        <Field form={form} name="stockName" label={t('stockToCount')} kind="select" emptyOption={t('choose')} options={stocks} required testId="count-stock" />
        <Field form={form} name="note" label={t('note')} kind="textarea" nullable placeholder={t('takingNotePlaceholder')} />
      </form>
    </Drawer>
  );
}

/**
 * What the counted shortages are worth: for each counted product below its expected quantity,
 * (counted − expected) × its cost price, else its price. `unpriced`: shortages with neither.
 */
function lossOf(items: StockTaking['items'], stored: StockTaking['items'], names: Map<string, Plu>): { value: number; count: number; unpriced: number } {
  let cents = 0;
  let count = 0;
  let unpriced = 0;
  items.forEach((item, index) => {
    if (typeof item.actualQuantity !== 'number') return;
    const plu = names.get(pluKey(item.plu));
    const expected = stored[index]?.expectedQuantity ?? plu?.stockQuantity ?? 0;
    const diff = item.actualQuantity - expected;
    if (diff >= 0) return;
    count++;
    const price = plu?.costPrice?.amount ?? (plu?.unitPrice.amount || null);
    if (price === null || price === undefined) unpriced++;
    else cents += Math.round(-diff * price * 100);
  });
  return { value: cents / 100, count, unpriced };
}

/** Counts typed on this device and not yet saved, for the stored version `v` of the stock taking they were typed on. */
interface CountDraft {
  v: number;
  counts: Array<{ code: number; stockName: string; actualQuantity: number | null }>;
}
const draftKey = (id: string) => `poshub.count.${id}`;

/** The count sheet: one big input per product, a search to jump to one, and the close. */
function Count({ id }: { id: string }) {
  const can = useCan();
  const { data: taking, error, notFound, reload } = useOne<StockTaking>(path('stocktakings', id), ['stocktakings']);
  const names = usePluNames(taking?.items.map((i) => i.plu.stockName) ?? []);
  const [search, setSearch] = useState('');
  const form = useForm<StockTaking | null>(null);
  const loadedV = useRef<number | undefined>(undefined);
  const closing = useRef(false);
  // A stored version newer than the form's is taken in while the form is untouched (a reload
  // that raced our own save brings an older one: that is ignored).
  if (taking && (taking._v ?? 0) > (loadedV.current ?? -1) && !form.dirty) {
    loadedV.current = taking._v;
    form.reset(taking);
  }
  const values = form.values;
  const closedNow = !!taking?.closedAt;

  // Counts typed and not saved are kept on this device as they are typed (a tablet that sleeps, a
  // tap on the menu), and come back when this stock taking is opened again at the same version.
  const [restored, setRestored] = useState(0);
  const triedDraft = useRef<number | undefined>(undefined);
  useEffect(() => {
    if (!taking || closedNow || triedDraft.current === taking._v || form.dirty) return;
    triedDraft.current = taking._v;
    const draft = readStored<CountDraft>(draftKey(id));
    if (!draft) return;
    if (draft.v !== taking._v) return removeStored(draftKey(id));
    let n = 0;
    for (const c of draft.counts) {
      const index = taking.items.findIndex((i) => i.plu.code === c.code && i.plu.stockName === c.stockName);
      if (index < 0 || taking.items[index].actualQuantity === c.actualQuantity) continue;
      form.set(`items[${index}].actualQuantity`, c.actualQuantity);
      n++;
    }
    setRestored(n);
  }, [taking?._v]);
  useEffect(() => {
    if (!values || closedNow || loadedV.current === undefined) return;
    if (form.dirty) writeStored(draftKey(id), { v: loadedV.current, counts: values.items.map((i) => ({ code: i.plu.code, stockName: i.plu.stockName, actualQuantity: typeof i.actualQuantity === 'number' ? i.actualQuantity : null })) } satisfies CountDraft);
    else removeStored(draftKey(id));
  }, [values, form.dirty]);

  // Leaving with unsaved counts asks first (in the page), and the browser warns before a reload or close.
  const unsaved = useRef(false);
  unsaved.current = form.dirty && !closedNow;
  useEffect(() => {
    guardLeaving(() => (unsaved.current ? confirm({ title: t('leaveTitle'), text: t('leaveText'), confirm: t('leave') }) : Promise.resolve(true)));
    const onUnload = (e: BeforeUnloadEvent) => {
      if (!unsaved.current) return;
      e.preventDefault();
      e.returnValue = '';
    };
    addEventListener('beforeunload', onUnload);
    return () => {
      guardLeaving(null);
      removeEventListener('beforeunload', onUnload);
    };
  }, []);

  const save = async (close: boolean) => {
    closing.current = close;
    return form.submit(async (v) => {
      if (!v) return;
      const countedItems = v.items.filter((i) => typeof i.actualQuantity === 'number');
      if (close) {
        if (!countedItems.length) throw new Error(t('countNothing'));
        const loss = lossOf(v.items, taking?.items ?? [], names);
        const rest = v.items.length - countedItems.length;
        const ok = await confirm({
          title: t('closeTitle'),
          text: (
            <div data-testid="close-summary">
              <p>{t('closeText')}</p>
              {rest > 0 && <p data-testid="close-partial">{t('closePartial', { n: countedItems.length, all: v.items.length, rest })}</p>}
              {loss.count > 0 ? (
                <p data-testid="close-loss">
                  <b>{t('closeLoss', { amount: money(loss.value), below: belowCount(loss.count) })}</b>
                  {loss.unpriced > 0 && ` ${t('lossNoPrice', { n: loss.unpriced })}`}
                </p>
              ) : (
                <p data-testid="close-loss">{t('closeNoLoss')}</p>
              )}
            </div>
          ),
          confirm: t('closeConfirm'),
          danger: loss.count > 0,
        });
        if (!ok) return;
      }
      // Closing takes only the counted products (the hub closes a count with every item counted):
      // the others are left off the sheet, so their stock stays as it is.
      const body = {
        ...v,
        items: (close ? countedItems : v.items).map((i) => ({ plu: i.plu, actualQuantity: typeof i.actualQuantity === 'number' ? i.actualQuantity : null })),
        ...(close ? { closedBy: { userName: session.value!.user.userName }, closedAt: new Date().toISOString() } : {}),
      };
      try {
        const stored = await api.put<StockTaking>(path('stocktakings', v.id), body);
        loadedV.current = stored._v;
        form.reset(stored);
        toast(close ? t('closedToast') : t('savedToast'));
      } catch (e) {
        if (e instanceof ApiError && e.isMissingRight) void refreshSession().catch(() => undefined);
        throw e;
      }
    });
  };

  if (notFound) return <Notice tone="warn">{t('gone')}</Notice>;
  if (error && !taking) return <Notice tone="bad">{error}</Notice>;
  if (!taking || !values) return <Spinner />;
  const closed = !!taking.closedAt;
  const editable = !closed && can('StockTakingUpdate');
  const counted = values.items.filter((i) => typeof i.actualQuantity === 'number').length;
  const needle = search.trim().toLocaleLowerCase();
  const rows = values.items.map((item, index) => ({ item, index, plu: names.get(pluKey(item.plu)) }));
  rows.sort((a, b) => collator.compare(a.plu?.name ?? '', b.plu?.name ?? ''));

  return (
    <div class="count" data-testid="count">
      <div class="count-head">
        <LinkButton href="/catalog/stocktakings" icon="left" variant="ghost">
          {t('allTakings')}
        </LinkButton>
        <div class="count-title">
          <h2>
            {t('takingTitle', { stocks: stocksOf(taking) })} {closed ? <Badge tone="good">{t('closed')}</Badge> : <Badge tone="info">{t('counting')}</Badge>}
          </h2>
          <p class="muted">
            {t('startedBy', { when: dateTime(taking.createdAt), who: who(taking.createdBy) })}
            {taking.closedAt && t('closedBy', { when: dateTime(taking.closedAt), who: who(taking.closedBy) })}
            {taking.note && ` · ${taking.note}`}
          </p>
        </div>
      </div>
      {form.formError && (
        <Notice tone="bad">
          <span data-testid="form-error">{form.formError}</span>{' '}
          {form.formError.startsWith(CONFLICT()) && (
            <Button
              small
              onClick={() => {
                form.reset(taking);
                reload();
              }}
            >
              {t('reload')}
            </Button>
          )}
        </Notice>
      )}
      {restored > 0 && form.dirty && (
        <Notice tone="info">
          <span data-testid="draft-restored">{t('draftRestored', { n: restored })}</span>{' '}
          <Button
            small
            onClick={() => {
              removeStored(draftKey(id));
              setRestored(0);
              form.reset(taking);
            }}
          >
            {t('dropDraft')}
          </Button>
        </Notice>
      )}
      {closed && taking.stockTransferId && <Correction id={taking.stockTransferId} />}
      {!closed && !editable && <Notice>{t('needsRight', { right: rightWord('StockTakingUpdate') })}</Notice>}
      <Card>
        <div class="count-tools">
          <Field label={t('find')} kind="search" value={search} onChange={(v) => setSearch(String(v ?? ''))} placeholder={t('nameOrCode')} testId="count-search" />
          <div class="count-progress" aria-live="polite">
            <span>
              {t('countedOf', { n: counted, all: values.items.length })}
            </span>
            <div class="meter">
              <span style={{ width: `${values.items.length ? (counted / values.items.length) * 100 : 0}%` }} />
            </div>
          </div>
        </div>
        {values.items.length === 0 ? (
          <Empty title={t('nothing')} />
        ) : (
          <ul class="count-list">
            {rows.map(({ item, index, plu }) => {
              const name = plu?.name ?? `${item.plu.stockName} ${item.plu.code}`;
              const hidden = needle !== '' && !name.toLocaleLowerCase().includes(needle) && !String(item.plu.code).startsWith(needle);
              const expected = taking.items[index]?.expectedQuantity ?? plu?.stockQuantity ?? 0;
              const actual = item.actualQuantity;
              const diff = typeof actual === 'number' ? Math.round((actual - expected) * 10000) / 10000 : null;
              return (
                <li key={pluKey(item.plu)} class={`count-row${typeof actual === 'number' ? ' done' : ''}`} hidden={hidden} data-testid={`count-${item.plu.code}`}>
                  <div class="count-name">
                    <b>{name}</b>
                    <span class="muted">
                      {item.plu.code} · {t('expectedQty', { qty: stockQuantity(expected, plu?.unit) })}
                    </span>
                  </div>
                  <div class="count-input">
                    <Field
                      form={form}
                      name={`items[${index}].actualQuantity`}
                      label={t('countedName', { name })}
                      kind="number"
                      big
                      suffix={plu?.unit ?? undefined}
                      nullable
                      disabled={!editable}
                      validate={(v) => (typeof v === 'number' && v < 0 ? t('notNegative') : null)}
                    />
                  </div>
                  <div class={`count-diff${diff === null ? '' : diff < 0 ? ' negative' : diff > 0 ? ' positive' : ' zero'}`}>{diff === null ? '' : diff === 0 ? '✓' : `${diff > 0 ? '+' : ''}${stockQuantity(diff, plu?.unit)}`}</div>
                </li>
              );
            })}
          </ul>
        )}
      </Card>
      {!closed && editable && (
        <div class="sticky-actions">
          <span class="muted">{form.dirty ? t('unsaved') : t('allSaved')}</span>
          <span class="spacer" />
          <Button busy={form.busy && !closing.current} onClick={() => void save(false)} data-testid="save-count">
            {t('saveCount')}
          </Button>
          {can('StockTakingClose') && (
            <Button variant="primary" icon="check" busy={form.busy && closing.current} onClick={() => void save(true)} data-testid="close-count">
              {t('closeConfirm')}
            </Button>
          )}
        </div>
      )}
      {!closed && can('StockTakingDelete') && (
        <DeleteTaking id={taking.id} />
      )}
    </div>
  );
}

function DeleteTaking({ id }: { id: string }) {
  const [busy, run] = useAction();
  return (
    <div class="danger-zone">
      <Button
        variant="ghost"
        icon="trash"
        busy={busy}
        onClick={async () => {
          if (!(await confirm({ title: t('throwAway'), text: t('throwAwayText'), confirm: t('delete'), danger: true }))) return;
          await run(async () => {
            await api.del(path('stocktakings', id));
            toast(t('deleted'));
            // Nothing left to keep: the draft goes with the stock taking, and leaving needs no question.
            removeStored(draftKey(id));
            guardLeaving(null);
            navigate('/catalog/stocktakings');
          });
        }}
      >
        {t('deleteTaking')}
      </Button>
    </div>
  );
}

function Correction({ id }: { id: string }) {
  const { data: d, error } = useOne<StockTransfer>(path('stocktransfers', id));
  return (
    <Card title={d ? <>{t('correctionDoc')} <span class="mono" data-testid="correction-number">{d.documentNumber}</span></> : t('correctionDoc')} class="correction">
      {error && !d ? <Notice tone="bad">{error}</Notice> : !d ? <Spinner /> : <TransferItems transfer={d} />}
    </Card>
  );
}

// ---- stock value (issue 28) ----

type StockValueReport = components['schemas']['StockValue'];
type ValueRow = StockValueReport['totals'];
type ValueColumn = 'value' | 'received' | 'costOfGoodsSold' | 'writtenOff' | 'corrections' | 'transfers';

/** The figures of a stock's value, as columns: what a manager checks first comes first; transfers in and out as one balance. */
const VALUE_COLUMNS: Array<{ key: ValueColumn; title: () => string; of: (r: ValueRow) => number; secondary?: boolean }> = [
  { key: 'value', title: () => t('valueNow'), of: (r) => r.value },
  { key: 'received', title: () => t('received'), of: (r) => r.received },
  { key: 'costOfGoodsSold', title: () => t('costOfGoodsSold'), of: (r) => r.costOfGoodsSold },
  { key: 'writtenOff', title: () => t('writtenOff'), of: (r) => r.writtenOff, secondary: true },
  { key: 'corrections', title: () => t('corrections'), of: (r) => r.corrections, secondary: true },
  { key: 'transfers', title: () => t('transfersNet'), of: (r) => Math.round((r.transferredIn - r.transferredOut) * 100) / 100, secondary: true },
];

/** What each stock is worth now, and what went through it between two days, at cost (GET /api/stockvalue). */
export function StockValue() {
  const [q, setQuery] = useQuery();
  const today = isoDay(new Date());
  const from = q.get('valueFrom') ?? `${today.slice(0, 8)}01`;
  const to = q.get('valueTo') ?? today;
  const report = useLoad(`stockvalue:${from}:${to}`, (signal) => api.get<StockValueReport>(`/api/stockvalue?from=${from}&to=${to}`, signal), ['stocktransfers', 'plus']);
  const r = report.data;
  const cell = (n: number) => <span class={`num${n < 0 ? ' negative' : ''}`}>{money(n)}</span>;
  return (
    <Card title={t('stockValue')}>
      <p class="muted">{t('stockValueText')}</p>
      <div class="filter-grid">
        <Field label={t('from')} kind="day" value={from} onChange={(v) => v && setQuery({ valueFrom: String(v) })} testId="value-from" />
        <Field label={t('to')} kind="day" value={to} onChange={(v) => v && setQuery({ valueTo: String(v) })} testId="value-to" />
      </div>
      {report.error && !r ? (
        <Notice tone="bad">{report.error}</Notice>
      ) : !r ? (
        <Spinner />
      ) : (
        <>
          <div class="table-scroll">
            <table class="compact wrap-heads" aria-label={t('stockValue')} data-testid="stock-value">
              <thead>
                <tr>
                  <th>{t('stock')}</th>
                  {VALUE_COLUMNS.map((c) => (
                    <th key={c.key} class={`al-right${c.secondary ? ' secondary' : ''}`}>
                      {c.title()}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {r.stocks.map((row) => (
                  <tr key={row.stockName} data-key={row.stockName}>
                    <td>
                      <b>{row.stockName}</b>
                    </td>
                    {VALUE_COLUMNS.map((c) => (
                      <td key={c.key} class={`al-right${c.secondary ? ' secondary' : ''}`} data-col={c.key}>
                        {cell(c.of(row))}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
              <tfoot>
                <tr data-key="totals">
                  <th>{t('allStocksTotal')}</th>
                  {VALUE_COLUMNS.map((c) => (
                    <td key={c.key} class={`al-right${c.secondary ? ' secondary' : ''}`} data-col={c.key}>
                      <b>{cell(c.of(r.totals))}</b>
                    </td>
                  ))}
                </tr>
              </tfoot>
            </table>
          </div>
          {r.totals.productsWithoutCost > 0 && <p class="field-hint">{t('withoutCost', { n: r.totals.productsWithoutCost })}</p>}
          {r.totals.movesWithoutCost > 0 && <p class="field-hint">{t('movesWithoutCost', { n: r.totals.movesWithoutCost })}</p>}
        </>
      )}
    </Card>
  );
}
