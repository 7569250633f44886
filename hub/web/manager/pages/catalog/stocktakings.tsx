/**
 * Catalog › Stock takings: a count made on a tablet, row by row with big inputs, closed into the
 * Correction document that sets each stock to what was counted.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { DataTable, type Column } from '../../components/DataTable';
import { Field } from '../../components/Field';
import { confirm, Drawer, Empty, LinkButton, toast, useAction } from '../../components/ui';
import { Badge, Button, Card, Notice, Spinner } from '../../../shared/ui';
import { api, ApiError, CONFLICT, op, path } from '../../lib/api';
import { useOne, useOptions } from '../../lib/data';
import { useForm } from '../../lib/form';
import { collator, date, dateTime, money, stockQuantity } from '../../lib/format';
import { guardLeaving, navigate, useEditParam } from '../../lib/router';
import { readStored, removeStored, writeStored } from '../../../shared/storage';
import { rightWord } from '../../lib/rights-words';
import { refreshSession, session, useCan } from '../../lib/session';
import type { Plu, Stock, StockTaking, StockTransfer } from '../../../shared/types';
import { messages, plural } from '../../../shared/i18n';
import { pluKey, TransferItems, usePluNames, who } from './transfer-items';

const t = messages({
  stock: { en: 'Stock', sk: 'Sklad', cs: 'Sklad' },
  by: { en: 'By', sk: 'Kto', cs: 'Kdo' },
  note: { en: 'Note', sk: 'Poznámka', cs: 'Poznámka' },
  counted: { en: 'Counted', sk: 'Spočítané', cs: 'Spočítané' },
  choose: { en: 'Choose…', sk: 'Vyberte…', cs: 'Vyberte…' },
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
