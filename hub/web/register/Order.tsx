/**
 * Taking an order: the menu as big tiles by category (the shop's colours), a search that ignores
 * accents ("kava" finds Káva), a box a barcode scanner types into, the quantity for the next tap,
 * modifiers with their rules, a comment per line. Lines show at once; "Send" sends them to the hub,
 * which makes the kitchen orders. Sent lines are marked; taking one off is a storno (the right
 * Storno; the kitchen gets a cancel order), shown struck through until it is sent.
 */
import type { JSX } from 'preact';
import { memo } from 'preact/compat';
import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { language, messages, parseDecimal, plural } from '../shared/i18n';
import { DEFAULT_CURRENCY, money, quantity } from '../shared/format';
import type { Modifier, Plu } from '../shared/types';
import { opensPrices } from '../../core/rules';
import { newTicketId, NetworkError, session } from './api';
import { byCode, modifiersOf, orderedCategories, searchPlus, sellable, type Catalog, type Category } from './catalog';
import { go, say } from './hooks';
import { dec, num } from './money';
import { isMine, MoreDialog, ownerName } from './More';
import { hasChanges, hasStorno, lineAmount, shownLines, totalOf, waitingCount, type Line, type LineModifier, type LocalTicket, type ShownLine } from './tickets';
import { ConflictError, till } from './till';
import { Dialog, failure, NumPad, ScreenHead } from './ui';

const t = messages({
  send: { en: 'Send', sk: 'Odoslať', cs: 'Odeslat' },
  sendCount: { en: 'Send ({n})', sk: 'Odoslať ({n})', cs: 'Odeslat ({n})' },
  pay: { en: 'Pay', sk: 'Platiť', cs: 'Platit' },
  more: { en: 'More', sk: 'Viac', cs: 'Více' },
  search: { en: 'Search or scan', sk: 'Hľadať alebo skenovať', cs: 'Hledat nebo skenovat' },
  other: { en: 'Other', sk: 'Ostatné', cs: 'Ostatní' },
  empty: { en: 'Tap a product to add it.', sk: 'Ťuknite na produkt a pridá sa.', cs: 'Klepněte na produkt a přidá se.' },
  total: { en: 'Total', sk: 'Spolu', cs: 'Celkem' },
  discount: { en: 'Discount {rate} %', sk: 'Zľava {rate} %', cs: 'Sleva {rate} %' },
  customer: { en: 'Customer: {name}', sk: 'Zákazník: {name}', cs: 'Zákazník: {name}' },
  new: { en: 'new', sk: 'nové', cs: 'nové' },
  changed: { en: 'changed', sk: 'zmenené', cs: 'změněno' },
  sent: { en: 'sent', sk: 'odoslané', cs: 'odesláno' },
  storno: { en: 'storno', sk: 'storno', cs: 'storno' },
  waiting: { en: 'Waiting for the hub: sent as soon as it answers.', sk: 'Čaká na hub: odošle sa, len čo odpovie.', cs: 'Čeká na hub: odešle se, jakmile odpoví.' },
  notSent: { en: 'Not sent: {why}', sk: 'Neodoslané: {why}', cs: 'Neodesláno: {why}' },
  undoMine: { en: 'Undo my changes', sk: 'Zrušiť moje zmeny', cs: 'Zrušit mé změny' },
  conflictChanged: { en: 'Another register changed this ticket while you were typing. Your unsent lines are kept.', sk: 'Iná pokladňa tento účet medzitým zmenila. Vaše neodoslané položky zostali.', cs: 'Jiná pokladna tento účet mezitím změnila. Vaše neodeslané položky zůstaly.' },
  notYours: {
    en: '{name} serves this ticket: the hub will not take what you add. Ask {name} or a cashier to hand it over to you.',
    sk: 'Tento účet obsluhuje {name}: čo pridáte, hub neprijme. Nech vám ho {name} alebo pokladník odovzdá.',
    cs: 'Tento účet obsluhuje {name}: co přidáte, hub nepřijme. Ať vám ho {name} nebo pokladní předá.',
  },
  conflictClosed: { en: 'This ticket was paid or deleted on another register. Your unsent lines are kept.', sk: 'Tento účet bol medzitým zaplatený alebo zmazaný na inej pokladni. Vaše neodoslané položky zostali.', cs: 'Tento účet byl mezitím zaplacen nebo smazán na jiné pokladně. Vaše neodeslané položky zůstaly.' },
  addToTheirs: { en: 'Add mine to theirs', sk: 'Pridať moje k ich zmenám', cs: 'Přidat moje k jejich změnám' },
  toNewTicket: { en: 'Put mine on a new ticket', sk: 'Dať moje na nový účet', cs: 'Dát moje na nový účet' },
  dropMine: { en: 'Drop mine', sk: 'Zahodiť moje', cs: 'Zahodit moje' },
  leaveTitle: { en: 'Not sent yet', sk: 'Ešte neodoslané', cs: 'Ještě neodesláno' },
  leaveText: { en: 'This ticket has lines that are not sent. Send them now?', sk: 'Na účte sú neodoslané položky. Odoslať ich teraz?', cs: 'Na účtu jsou neodeslané položky. Odeslat je teď?' },
  keep: { en: 'Keep them here, unsent', sk: 'Nechať tu neodoslané', cs: 'Nechat tu neodeslané' },
  discard: { en: 'Discard them', sk: 'Zahodiť ich', cs: 'Zahodit je' },
  payNeedsHub: { en: 'Paying needs the hub: the fiscal printer is there. Your order is kept and goes out when the connection is back; pay then.', sk: 'Platba potrebuje hub: je pri ňom fiškálna tlačiareň. Objednávka zostáva a odošle sa, keď bude spojenie späť; potom zaplaťte.', cs: 'Platba potřebuje hub: je u něj fiskální tiskárna. Objednávka zůstává a odešle se, až bude spojení zpět; pak zaplaťte.' },
  gone: { en: 'This ticket is closed.', sk: 'Tento účet je uzavretý.', cs: 'Tento účet je uzavřen.' },
  qty: { en: 'Quantity for the next product', sk: 'Množstvo pre ďalší produkt', cs: 'Množství pro další produkt' },
  qtyChip: { en: '× {n}', sk: '× {n}', cs: '× {n}' },
  set: { en: 'Set', sk: 'Nastaviť', cs: 'Nastavit' },
  add: { en: 'Add', sk: 'Pridať', cs: 'Přidat' },
  chooseMin: { en: 'choose at least {n}', sk: 'vyberte aspoň {n}', cs: 'vyberte aspoň {n}' },
  chooseMax: { en: 'at most {n}', sk: 'najviac {n}', cs: 'nejvýše {n}' },
  comment: { en: 'Comment for the kitchen', sk: 'Poznámka pre kuchyňu', cs: 'Poznámka pro kuchyni' },
  remove: { en: 'Remove', sk: 'Odstrániť', cs: 'Odstranit' },
  stornoLine: { en: 'Storno (the kitchen gets a cancel)', sk: 'Storno (kuchyňa dostane zrušenie)', cs: 'Storno (kuchyně dostane zrušení)' },
  noStorno: { en: 'Taking off a sent line is a storno: it needs the right Storno.', sk: 'Odobrať odoslanú položku je storno: treba právo Storno.', cs: 'Odebrat odeslanou položku je storno: je třeba právo Storno.' },
  putBack: { en: 'Put it back', sk: 'Vrátiť späť', cs: 'Vrátit zpět' },
  lineDiscount: { en: 'Discount on this line (%)', sk: 'Zľava na položku (%)', cs: 'Sleva na položku (%)' },
  done: { en: 'Done', sk: 'Hotovo', cs: 'Hotovo' },
  notFound: { en: 'No product with code {code}.', sk: 'Žiadny produkt s kódom {code}.', cs: 'Žádný produkt s kódem {code}.' },
  decrease: { en: 'One less', sk: 'O jeden menej', cs: 'O jeden méně' },
  increase: { en: 'One more', sk: 'O jeden viac', cs: 'O jeden více' },
  sentOk: { en: 'Sent: {name}', sk: 'Odoslané: {name}', cs: 'Odesláno: {name}' },
  queued: { en: 'Kept: {name} goes out when the hub is back.', sk: 'Uložené: {name} sa odošle, keď bude hub späť.', cs: 'Uloženo: {name} se odešle, až bude hub zpět.' },
  ticketLines: { en: 'Ticket', sk: 'Účet', cs: 'Účet' },
  categories: { en: 'Categories', sk: 'Kategórie', cs: 'Kategorie' },
  unitPrice: { en: 'Unit price', sk: 'Jednotková cena', cs: 'Jednotková cena' },
  priceOf: { en: 'Price: {name}', sk: 'Cena: {name}', cs: 'Cena: {name}' },
  changePrice: { en: 'Change the price', sk: 'Zmeniť cenu', cs: 'Změnit cenu' },
  badPrice: { en: 'Type a price from 0 to 1 000 000 000.', sk: 'Zadajte cenu od 0 do 1 000 000 000.', cs: 'Zadejte cenu od 0 do 1 000 000 000.' },
});

/**
 * Whether the waiter types prices here (CONTRACT §12): the register's device sells at opened prices
 * (setting OpenedPrices "true", the hub's own rule), or the waiter holds TicketSetPrice.
 */
function typesPrices(): boolean {
  return opensPrices(session()?.user.device.settings) || till.can('TicketSetPrice');
}

/** A unit price typed on the number pad (Slovak 4,50), to the cent. */
function PriceDialog({ title, initial, onSet, onClose }: { title: string; initial: number | null; onSet: (price: number) => void; onClose: () => void }): JSX.Element {
  const [value, setValue] = useState(initial === null ? '' : String(initial).replace('.', language() === 'en' ? '.' : ','));
  const [bad, setBad] = useState(false);
  const set = () => {
    // A price is to the cent: the pad takes no third decimal.
    const price = parseDecimal(value || '0');
    // Within the hub's bound on every amount (CONTRACT §12).
    if (!(price >= 0 && price <= 1_000_000_000)) return setBad(true);
    onSet(num(dec(price)));
  };
  return (
    <Dialog
      title={title}
      onClose={onClose}
      testId="price"
      actions={
        <button type="button" class="primary big" onClick={set} data-testid="price-set">
          {t('set')}
        </button>
      }
    >
      <p class="big-number num" data-testid="price-value">
        {value || '0'} {DEFAULT_CURRENCY}
      </p>
      <NumPad
        value={value}
        onChange={(v) => {
          if (/[.,]\d{3}/.test(v)) return;
          setBad(false);
          setValue(v);
        }}
        decimal
        maxLength={13}
        testId="price-pad"
      />
      {bad && (
        <p class="error" role="alert">
          {t('badPrice')}
        </p>
      )}
    </Dialog>
  );
}

const lineCount = (n: number) => plural(n, { one: { en: '1 line', sk: '1 položka', cs: '1 položka' }, few: { en: '{n} lines', sk: '{n} položky', cs: '{n} položky' }, other: { en: '{n} lines', sk: '{n} položiek', cs: '{n} položek' } });

/** A colour for a category without one of its own: the same category always gets the same. */
const PALETTE = ['#3b6fb6', '#2f8f6b', '#b5542f', '#7d4fb0', '#a8872a', '#2c8a9c', '#b23f6a', '#5b7a2e'];
function colorOf(category: Category | undefined, index: number): string {
  return category?.color || PALETTE[index % PALETTE.length];
}

function lineText(l: Line): string {
  const mods = l.modifiers.map((m) => (m.quantity > 1 ? `${m.quantity}× ${m.name}` : m.name)).join(', ');
  return [mods, l.comment].filter(Boolean).join(' · ');
}

function TicketLines({ ticket, onLine }: { ticket: LocalTicket; onLine: (s: ShownLine) => void }): JSX.Element {
  const lines = shownLines(ticket);
  if (!lines.length) return <p class="muted empty">{t('empty')}</p>;
  return (
    <ul class="lines" data-testid="lines">
      {lines.map((s) => (
        <li key={`${s.state}-${s.line.id}`} class={`line ${s.state}`} data-line-id={s.line.id} data-state={s.state}>
          <button type="button" class="line-button" onClick={() => onLine(s)}>
            <span class="line-qty num">{quantity(s.state === 'removed' ? s.sentQuantity : s.line.quantity)}×</span>
            <span class="line-name">
              {s.line.name}
              {lineText(s.line) && <small>{lineText(s.line)}</small>}
            </span>
            <span class="line-amount num">{money(lineAmount(s.line))}</span>
            <span class={`line-state ${s.state}`}>{s.state === 'removed' ? t('storno') : t(s.state)}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}

function Banners({ ticket }: { ticket: LocalTicket }): JSX.Element | null {
  if (ticket.conflict) {
    const closed = ticket.conflict === 'closed';
    return (
      <div class="banner warn" role="alert" data-testid="conflict">
        <p>{closed ? t('conflictClosed') : t('conflictChanged')}</p>
        <div class="row">
          <button
            type="button"
            class="primary"
            onClick={() => {
              const next = till.keepMine(ticket.id, newTicketId());
              if (next && next.id !== ticket.id) go({ kind: 'ticket', id: next.id });
            }}
          >
            {closed ? t('toNewTicket') : t('addToTheirs')}
          </button>
          <button
            type="button"
            onClick={() => {
              till.discard(ticket.id);
              if (closed) go({ kind: 'tables' });
            }}
          >
            {t('dropMine')}
          </button>
        </div>
      </div>
    );
  }
  if (ticket.refusal) {
    return (
      <div class="banner error" role="alert" data-testid="refusal">
        <p>{t('notSent', { why: ticket.refusal })}</p>
        <button type="button" onClick={() => till.discard(ticket.id)}>
          {t('undoMine')}
        </button>
      </div>
    );
  }
  if (till.isWaiting(ticket.id)) {
    return (
      <div class="banner info" data-testid="waiting">
        <p>{t('waiting')}</p>
      </div>
    );
  }
  // A colleague's ticket without TicketUpdateAny: said before anything is added, not at Send (CONTRACT §6).
  if (!isMine(ticket) && !till.can('TicketUpdateAny')) {
    return (
      <div class="banner info" data-testid="not-yours">
        <p>{t('notYours', { name: ownerName(ticket) })}</p>
      </div>
    );
  }
  return null;
}

/** The options of a product's modifiers, with their rules: the Add button waits until each minimum is met. */
function ModifierDialog({ plu, mods, onDone, onClose }: { plu: Plu; mods: Modifier[]; onDone: (chosen: LineModifier[], comment: string | null) => void; onClose: () => void }): JSX.Element {
  const [chosen, setChosen] = useState<Record<string, Record<string, number>>>(() =>
    Object.fromEntries(mods.map((m) => [m.id, Object.fromEntries(m.options.filter((o) => o.defaultSelectedQuantity > 0).map((o) => [o.id, o.defaultSelectedQuantity]))])),
  );
  const [comment, setComment] = useState('');
  const count = (m: Modifier) => Object.values(chosen[m.id] ?? {}).filter((q) => q > 0).length;
  const totalQty = (m: Modifier) => Object.values(chosen[m.id] ?? {}).reduce((a, b) => a + b, 0);
  const ok = mods.every((m) => count(m) >= m.minimumSelectedOptionsCount);
  const toggle = (m: Modifier, optionId: string) => {
    const cur = { ...(chosen[m.id] ?? {}) };
    if (cur[optionId]) delete cur[optionId];
    else {
      // One of one: a tap on another option replaces the choice.
      if (m.maximumSelectedOptionsCount === 1) for (const k of Object.keys(cur)) delete cur[k];
      else if (m.maximumSelectedOptionsCount > 0 && count(m) >= m.maximumSelectedOptionsCount) return;
      if (m.maximumSelectedOptionsTotalQuantity > 0 && totalQty(m) >= m.maximumSelectedOptionsTotalQuantity) return;
      cur[optionId] = 1;
    }
    setChosen({ ...chosen, [m.id]: cur });
  };
  const add = () => {
    const out: LineModifier[] = [];
    for (const m of mods) {
      for (const [optionId, q] of Object.entries(chosen[m.id] ?? {})) {
        const o = m.options.find((x) => x.id === optionId);
        if (o && q > 0) out.push({ modifierId: m.id, optionId, name: o.name || o.id, quantity: q, unitPrice: o.unitPrice?.amount ?? 0 });
      }
    }
    onDone(out, comment.trim() || null);
  };
  return (
    <Dialog
      title={plu.name}
      onClose={onClose}
      testId="modifiers"
      actions={
        <button type="button" class="primary big" disabled={!ok} onClick={add}>
          {t('add')}
        </button>
      }
    >
      {mods.map((m) => (
        <fieldset key={m.id} class="modifier">
          <legend>
            {m.displayName || m.name || m.id}
            <small>
              {m.minimumSelectedOptionsCount > 0 && ` · ${t('chooseMin', { n: m.minimumSelectedOptionsCount })}`}
              {m.maximumSelectedOptionsCount > 0 && ` · ${t('chooseMax', { n: m.maximumSelectedOptionsCount })}`}
            </small>
          </legend>
          <div class="options">
            {m.options.map((o) => {
              const on = (chosen[m.id]?.[o.id] ?? 0) > 0;
              return (
                <button type="button" key={o.id} class={`option${on ? ' on' : ''}`} aria-pressed={on} onClick={() => toggle(m, o.id)}>
                  <span>{o.name || o.id}</span>
                  {o.unitPrice && o.unitPrice.amount !== 0 && <small class="num">+{money(o.unitPrice.amount)}</small>}
                </button>
              );
            })}
          </div>
        </fieldset>
      ))}
      <label class="field">
        <span>{t('comment')}</span>
        <input value={comment} onInput={(e) => setComment(e.currentTarget.value)} maxLength={200} />
      </label>
    </Dialog>
  );
}

/** One line: its quantity, comment and discount; taking it off (a storno once it was sent). */
function LineDialog({ ticket, shown, onClose }: { ticket: LocalTicket; shown: ShownLine; onClose: () => void }): JSX.Element {
  const { line, state } = shown;
  const canStorno = till.can('Storno');
  const sentQty = shown.sentQuantity;
  const set = (fn: (l: Line) => Line | null) => till.setLine(ticket.id, line.id, fn);
  const cur = ticket.draft.lines.find((l) => l.id === line.id);
  const [comment, setComment] = useState(cur?.comment ?? '');
  const [pricing, setPricing] = useState(false);
  const lowering = (q: number) => sentQty !== null && q < sentQty;
  const setQty = (q: number) => {
    if (q <= 0) return remove();
    if (lowering(q) && !canStorno) return say(t('noStorno'), 'error');
    set((l) => ({ ...l, quantity: q }));
  };
  const remove = () => {
    if (sentQty !== null && !canStorno) return say(t('noStorno'), 'error');
    set(() => null);
    onClose();
  };
  if (state === 'removed' || !cur) {
    return (
      <Dialog title={line.name} onClose={onClose}>
        <button
          type="button"
          class="big"
          onClick={() => {
            set((l) => l);
            onClose();
          }}
        >
          {t('putBack')}
        </button>
      </Dialog>
    );
  }
  if (pricing) {
    return (
      <PriceDialog
        title={t('priceOf', { name: line.name })}
        initial={cur.unitPrice}
        onClose={() => setPricing(false)}
        onSet={(price) => {
          set((l) => ({ ...l, unitPrice: price, ownPrice: true }));
          setPricing(false);
        }}
      />
    );
  }
  return (
    <Dialog
      title={line.name}
      onClose={() => {
        if ((comment.trim() || null) !== (cur.comment ?? null)) set((l) => ({ ...l, comment: comment.trim() || null }));
        onClose();
      }}
      testId="line"
    >
      <div class="stepper">
        <button type="button" class="key" aria-label={t('decrease')} onClick={() => setQty(num(dec(cur.quantity).minus(1)))}>
          −
        </button>
        <span class="num big-number" data-testid="line-qty">
          {quantity(cur.quantity)}
        </span>
        <button type="button" class="key" aria-label={t('increase')} onClick={() => setQty(num(dec(cur.quantity).plus(1)))}>
          +
        </button>
      </div>
      {typesPrices() && cur.type === 'Positive' && (
        <div class="row wrap">
          <span class="grow">
            {t('unitPrice')}: <strong class="num" data-testid="line-price">{money(cur.unitPrice)}</strong>
          </span>
          <button type="button" onClick={() => setPricing(true)}>
            {t('changePrice')}
          </button>
        </div>
      )}
      <label class="field">
        <span>{t('comment')}</span>
        <input value={comment} onInput={(e) => setComment(e.currentTarget.value)} maxLength={200} />
      </label>
      {till.can('TicketSetDiscount') && (
        <label class="field">
          <span>{t('lineDiscount')}</span>
          <input
            inputMode="decimal"
            value={cur.discountRate ? String(cur.discountRate) : ''}
            onChange={(e) => {
              const rate = parseDecimal(e.currentTarget.value || '0');
              if (rate >= 0 && rate <= 100) set((l) => ({ ...l, discountRate: rate }));
            }}
          />
        </label>
      )}
      <div class="row">
        <button type="button" class={sentQty !== null ? 'danger big' : 'big'} onClick={remove} disabled={sentQty !== null && !canStorno}>
          {sentQty !== null ? t('stornoLine') : t('remove')}
        </button>
        <button
          type="button"
          class="primary big"
          onClick={() => {
            set((l) => ({ ...l, comment: comment.trim() || null }));
            onClose();
          }}
        >
          {t('done')}
        </button>
      </div>
      {sentQty !== null && !canStorno && <p class="muted">{t('noStorno')}</p>}
    </Dialog>
  );
}

/**
 * The menu renders again only when the catalog changes or the waiter searches or picks a category,
 * not on every line added: a tap must be answered at once, also with hundreds of products.
 */
const Menu = memo(function Menu({ catalog, typedPrices, onPick }: { catalog: Catalog; typedPrices: boolean; onPick: (plu: Plu) => void }): JSX.Element {
  const plus = useMemo(() => sellable(catalog.plus, typedPrices), [catalog, typedPrices]);
  const categories = useMemo(() => orderedCategories(catalog.categories), [catalog]);
  const used = categories.filter((c) => plus.some((p) => p.category === c.name));
  const uncategorized = plus.some((p) => !p.category || !used.some((c) => c.name === p.category));
  const [category, setCategory] = useState<string | null>(null);
  const [query, setQuery] = useState('');
  const shown = query.trim()
    ? searchPlus(plus, query)
    : category === null && used.length
      ? plus.filter((p) => p.category === used[0].name)
      : plus.filter((p) => (category === '' || !used.length ? !p.category || !used.some((c) => c.name === p.category) : p.category === category));
  const active = category ?? used[0]?.name ?? '';
  const colorFor = (p: Plu) => {
    const i = used.findIndex((c) => c.name === p.category);
    return i < 0 ? '#4a5563' : colorOf(used[i], i);
  };
  const input = useRef<HTMLInputElement>(null);

  // A barcode scanner types digits and Enter wherever the focus is: catch them when no field has it.
  useEffect(() => {
    let buffer = '';
    let last = 0;
    const key = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement | null;
      if (target && (target.tagName === 'INPUT' || target.tagName === 'TEXTAREA') && target !== input.current) return;
      if (target === input.current) return;
      const now = Date.now();
      if (now - last > 80) buffer = '';
      last = now;
      if (/^\d$/.test(e.key)) buffer += e.key;
      else if (e.key === 'Enter' && buffer.length >= 6) {
        const plu = byCode(plus, buffer);
        if (plu) onPick(plu);
        else say(t('notFound', { code: buffer }), 'error');
        buffer = '';
      }
    };
    addEventListener('keydown', key);
    return () => removeEventListener('keydown', key);
  }, [plus, onPick]);

  return (
    <div class="menu">
      <form
        class="menu-search"
        onSubmit={(e) => {
          e.preventDefault();
          const q = query.trim();
          if (!q) return;
          const exact = byCode(plus, q);
          const found = exact ?? (shown.length === 1 ? shown[0] : null);
          if (found) {
            onPick(found);
            setQuery('');
          } else if (/^\d+$/.test(q)) say(t('notFound', { code: q }), 'error');
        }}
      >
        <input ref={input} type="search" placeholder={t('search')} aria-label={t('search')} value={query} onInput={(e) => setQuery(e.currentTarget.value)} data-testid="search" enterKeyHint="go" />
      </form>
      {!query.trim() && (used.length > 0 || uncategorized) && (
        <nav class="tabs categories" aria-label={t('categories')}>
          {used.map((c, i) => (
            <button type="button" key={c.name} class={`tab${active === c.name ? ' on' : ''}`} style={{ '--cat': colorOf(c, i) }} aria-pressed={active === c.name} onClick={() => setCategory(c.name)}>
              {c.name}
            </button>
          ))}
          {uncategorized && used.length > 0 && (
            <button type="button" class={`tab${active === '' ? ' on' : ''}`} aria-pressed={active === ''} onClick={() => setCategory('')}>
              {t('other')}
            </button>
          )}
        </nav>
      )}
      <div class="products" data-testid="products">
        {shown.map((p) => (
          <button type="button" key={p.id} class="product" style={{ '--cat': colorFor(p) }} onClick={() => onPick(p)} data-testid={`plu-${p.code}`}>
            <span class="product-name">{p.name}</span>
            <span class="product-price num">{money(p.unitPrice.amount, p.unitPrice.currencyLabel)}</span>
          </button>
        ))}
      </div>
    </div>
  );
});

export function Order({ id }: { id: string }): JSX.Element {
  const ticket = till.ticket(id);
  const [factor, setFactor] = useState(1);
  const [askingQty, setAskingQty] = useState<string | null>(null);
  const [picking, setPicking] = useState<Plu | null>(null);
  const [line, setLine] = useState<ShownLine | null>(null);
  const [leaving, setLeaving] = useState(false);
  const [more, setMore] = useState(false);
  const [showLines, setShowLines] = useState(false);

  const [pricing, setPricing] = useState<{ plu: Plu; modifiers: LineModifier[]; comment: string | null } | null>(null);
  const typedPrices = typesPrices();
  const addLine = (plu: Plu, modifiers: LineModifier[], comment: string | null, price: number | null) => {
    till.addLine(id, {
      plu: { code: plu.code, stockName: plu.stockName },
      name: plu.name,
      type: 'Positive',
      quantity: factor,
      unitPrice: price ?? plu.unitPrice.amount,
      discountRate: 0,
      modifiers,
      comment,
      ...(price === null ? {} : { ownPrice: true }),
    });
    setFactor(1);
  };
  const add = (plu: Plu, modifiers: LineModifier[] = [], comment: string | null = null) => {
    // A product priced 0 where prices are typed is priced at the till: its price first.
    if (typedPrices && plu.unitPrice.amount === 0) setPricing({ plu, modifiers, comment });
    else addLine(plu, modifiers, comment, null);
  };
  const pick = (plu: Plu) => {
    const mods = modifiersOf(plu, till.catalog.modifiers);
    if (mods.length) setPicking(plu);
    else add(plu);
  };
  // One function for the menu's whole life (it calls the latest `pick`), so the memoized menu stays put.
  const latestPick = useRef(pick);
  latestPick.current = pick;
  const onPick = useCallback((plu: Plu) => latestPick.current(plu), []);

  useEffect(() => {
    if (!ticket) {
      say(t('gone'));
      go({ kind: 'tables' });
    }
  }, [!!ticket]);
  if (!ticket) return <section />;

  const send = () => {
    till.send(id);
    say(till.conn === 'online' ? t('sentOk', { name: ticket.draft.name }) : t('queued', { name: ticket.draft.name }));
    go({ kind: 'tables' });
  };
  const pay = async () => {
    if (till.conn !== 'online') return say(t('payNeedsHub'), 'error');
    try {
      await till.flush(id);
      go({ kind: 'pay', id });
    } catch (e) {
      if (e instanceof NetworkError) say(t('payNeedsHub'), 'error');
      else if (!(e instanceof ConflictError)) say(failure(e), 'error');
    }
  };
  const back = () => {
    if (hasChanges(ticket) && !till.isWaiting(id) && !ticket.conflict) setLeaving(true);
    else go({ kind: 'tables' });
  };
  const changes = hasChanges(ticket);
  const count = waitingCount(ticket);
  const total = totalOf(ticket);
  const draft = ticket.draft;

  return (
    <section class={`order${showLines ? ' show-lines' : ''}`} data-testid="order">
      <div class="ticket-panel">
        <ScreenHead title={draft.name || draft.location?.tableName || '—'} titleTestId="ticket-name" back="tables" onBack={back} />
        <Banners ticket={ticket} />
        <TicketLines ticket={ticket} onLine={setLine} />
        <div class="ticket-foot">
          {draft.customer && <p class="muted">{t('customer', { name: draft.customer.fullName })}</p>}
          {draft.discountRate > 0 && <p class="muted">{t('discount', { rate: quantity(draft.discountRate) })}</p>}
          <p class="total">
            <span>{t('total')}</span>
            <span class="num" data-testid="total">
              {money(total)}
            </span>
          </p>
          <div class="ticket-actions">
            <button type="button" class="big" onClick={() => setMore(true)}>
              {t('more')}
            </button>
            <button type="button" class={`big ${changes ? 'primary' : ''}`} disabled={!changes || !!ticket.conflict} onClick={send} data-testid="send">
              {count ? t('sendCount', { n: count }) : t('send')}
            </button>
            <button type="button" class="big accent" onClick={() => void pay()} disabled={!!ticket.conflict || (!ticket.base && !draft.lines.length) || (hasStorno(ticket) && !till.can('Storno'))} data-testid="pay">
              {t('pay')}
            </button>
          </div>
        </div>
      </div>
      <div class="menu-panel">
        <div class="menu-top">
          <button type="button" class="chip" onClick={() => setAskingQty('')} aria-label={t('qty')} data-testid="factor">
            {t('qtyChip', { n: quantity(factor) })}
          </button>
        </div>
        <Menu catalog={till.catalog} typedPrices={typedPrices} onPick={onPick} />
      </div>
      <button type="button" class="lines-toggle" onClick={() => setShowLines(!showLines)} data-testid="lines-toggle">
        <span>
          {t('ticketLines')} · {lineCount(draft.lines.length)}
        </span>
        <span class="num">{money(total)}</span>
      </button>
      {askingQty !== null && (
        <Dialog
          title={t('qty')}
          onClose={() => setAskingQty(null)}
          actions={
            <button
              type="button"
              class="primary big"
              onClick={() => {
                const n = parseDecimal(askingQty || '1');
                if (n > 0) setFactor(num(dec(n)));
                setAskingQty(null);
              }}
            >
              {t('set')}
            </button>
          }
        >
          <p class="big-number num" data-testid="factor-value">
            {askingQty || '1'}
          </p>
          <NumPad value={askingQty} onChange={setAskingQty} decimal maxLength={7} />
        </Dialog>
      )}
      {picking && (
        <ModifierDialog
          plu={picking}
          mods={modifiersOf(picking, till.catalog.modifiers)}
          onClose={() => setPicking(null)}
          onDone={(chosen, comment) => {
            add(picking, chosen, comment);
            setPicking(null);
          }}
        />
      )}
      {pricing && (
        <PriceDialog
          title={t('priceOf', { name: pricing.plu.name })}
          initial={null}
          onClose={() => setPricing(null)}
          onSet={(price) => {
            addLine(pricing.plu, pricing.modifiers, pricing.comment, price);
            setPricing(null);
          }}
        />
      )}
      {line && <LineDialog ticket={ticket} shown={line} onClose={() => setLine(null)} />}
      {more && <MoreDialog ticket={ticket} onClose={() => setMore(false)} />}
      {leaving && (
        <Dialog title={t('leaveTitle')} onClose={() => setLeaving(false)}>
          <p>{t('leaveText')}</p>
          <div class="stack">
            <button type="button" class="primary big" onClick={send}>
              {t('send')}
            </button>
            <button type="button" class="big" onClick={() => go({ kind: 'tables' })}>
              {t('keep')}
            </button>
            <button
              type="button"
              class="big danger"
              onClick={() => {
                till.discard(id);
                go({ kind: 'tables' });
              }}
            >
              {t('discard')}
            </button>
          </div>
        </Dialog>
      )}
    </section>
  );
}
