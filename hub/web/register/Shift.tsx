/**
 * The register's shift (issue 29 point 5, on the hub's /api/shifts): the cash drawer from the float
 * counted in at the start to the count at the end. The first cashier of the day is offered to open one
 * on the floor (or opens it under End of day); cash put in or taken out is recorded with its reason
 * (right CashMovement); the shift closes with the drawer counted — as a sum, or note by note and coin by
 * coin — against what it should hold, and the shift report prints on the register's receipt printer.
 * Every write keeps its Idempotency-Key until it is answered, so a retry after a lost reply is the same
 * write (a movement is never recorded twice).
 */
import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { messages, parseDecimal, plural } from '../shared/i18n';
import { money, time } from '../shared/format';
import { dayOf } from '../shared/days';
import type { Shift } from '../shared/types';
import { call, deviceSetting, hubNow, NetworkError, newKey } from './api';
import { say } from './hooks';
import { D, dec, num, sum } from './money';
import { till } from './till';
import { Dialog, failure, submitting } from './ui';

const t = messages({
  shift: { en: 'Shift', sk: 'Zmena', cs: 'Směna' },
  noShift: { en: 'No shift is open on this register.', sk: 'Na tejto pokladni nie je otvorená zmena.', cs: 'Na této pokladně není otevřená směna.' },
  openedBy: { en: 'Open since {time} · {name}', sk: 'Otvorená od {time} · {name}', cs: 'Otevřená od {time} · {name}' },
  open: { en: 'Open a shift', sk: 'Otvoriť zmenu', cs: 'Otevřít směnu' },
  openHint: { en: 'Count the cash in the drawer first: the shift starts with it.', sk: 'Najprv spočítajte hotovosť v zásuvke: zmena začína s ňou.', cs: 'Nejdřív spočítejte hotovost v zásuvce: směna začíná s ní.' },
  float: { en: 'Cash in the drawer now (float)', sk: 'Hotovosť v zásuvke teraz (počiatočný stav)', cs: 'Hotovost v zásuvce teď (počáteční stav)' },
  notNow: { en: 'Not today', sk: 'Dnes nie', cs: 'Dnes ne' },
  needsCount: { en: 'Opening and closing a shift needs the right CashCount.', sk: 'Otvorenie a uzavretie zmeny potrebuje právo CashCount.', cs: 'Otevření a uzavření směny potřebuje právo CashCount.' },
  needsMovement: { en: 'Cash in and out needs the right CashMovement.', sk: 'Vklad a výber potrebuje právo CashMovement.', cs: 'Vklad a výběr potřebuje právo CashMovement.' },
  needsHub: { en: 'This needs the hub; try again when the connection is back.', sk: 'Toto potrebuje hub; skúste to, keď bude spojenie späť.', cs: 'Tohle potřebuje hub; zkuste to, až bude spojení zpět.' },
  // The drawer's figures: the words of the printed shift report.
  openingFloat: { en: 'Opening float', sk: 'Počiatočný stav', cs: 'Počáteční stav' },
  cashSales: { en: 'Cash taken', sk: 'Prijatá hotovosť', cs: 'Přijatá hotovost' },
  cashIn: { en: 'Cash in', sk: 'Vklady', cs: 'Vklady' },
  cashOut: { en: 'Cash out', sk: 'Výbery', cs: 'Výběry' },
  expected: { en: 'Expected in the drawer', sk: 'Má byť v pokladni', cs: 'Má být v pokladně' },
  counted: { en: 'Counted', sk: 'Napočítané', cs: 'Napočítáno' },
  difference: { en: 'Difference', sk: 'Rozdiel', cs: 'Rozdíl' },
  short: { en: '{amount} is missing from the drawer.', sk: 'V pokladni chýba {amount}.', cs: 'V pokladně chybí {amount}.' },
  over: { en: 'The drawer holds {amount} more than it should.', sk: 'V pokladni je o {amount} viac, ako má byť.', cs: 'V pokladně je o {amount} víc, než má být.' },
  // Cash in and out.
  in: { en: 'Cash in', sk: 'Vklad', cs: 'Vklad' },
  out: { en: 'Cash out', sk: 'Výber', cs: 'Výběr' },
  inTitle: { en: 'Cash put into the drawer', sk: 'Vklad hotovosti do pokladne', cs: 'Vklad hotovosti do pokladny' },
  outTitle: { en: 'Cash taken out of the drawer', sk: 'Výber hotovosti z pokladne', cs: 'Výběr hotovosti z pokladny' },
  amount: { en: 'Amount', sk: 'Suma', cs: 'Částka' },
  reason: { en: 'Reason (the manager reads it)', sk: 'Dôvod (číta ho vedúci)', cs: 'Důvod (čte ho vedoucí)' },
  reasonChange: { en: 'Change from the bank', sk: 'Drobné z banky', cs: 'Drobné z banky' },
  reasonSupplier: { en: 'Supplier paid in cash', sk: 'Platba dodávateľovi', cs: 'Platba dodavateli' },
  reasonBank: { en: 'Taken to the bank', sk: 'Odvod do banky', cs: 'Odvod do banky' },
  putIn: { en: 'Put in', sk: 'Vložiť', cs: 'Vložit' },
  takeOut: { en: 'Take out', sk: 'Vybrať', cs: 'Vybrat' },
  recorded: { en: 'Recorded: {amount}', sk: 'Zaznamenané: {amount}', cs: 'Zaznamenáno: {amount}' },
  // The close.
  close: { en: 'Close the shift', sk: 'Uzavrieť zmenu', cs: 'Uzavřít směnu' },
  countHint: { en: 'Count the cash in the drawer: as one sum, or note by note and coin by coin.', sk: 'Spočítajte hotovosť v zásuvke: ako jednu sumu, alebo po bankovkách a minciach.', cs: 'Spočítejte hotovost v zásuvce: jako jednu částku, nebo po bankovkách a mincích.' },
  countedNow: { en: 'Cash counted in the drawer', sk: 'Spočítaná hotovosť v zásuvke', cs: 'Spočítaná hotovost v zásuvce' },
  byNotes: { en: 'Count note by note and coin by coin', sk: 'Počítať po bankovkách a minciach', cs: 'Počítat po bankovkách a mincích' },
  pieces: { en: 'How many of {value}', sk: 'Počet kusov {value}', cs: 'Počet kusů {value}' },
  total: { en: 'Together', sk: 'Spolu', cs: 'Celkem' },
  print: { en: 'Print the shift report', sk: 'Vytlačiť prehľad zmeny', cs: 'Vytisknout přehled směny' },
  closeIt: { en: 'Close the shift with this count', sk: 'Uzavrieť zmenu s týmto stavom', cs: 'Uzavřít směnu s tímto stavem' },
  closedAt: { en: 'Shift closed at {time} · {name}', sk: 'Zmena uzavretá o {time} · {name}', cs: 'Směna uzavřena v {time} · {name}' },
  printing: { en: 'The shift report is printing.', sk: 'Prehľad zmeny sa tlačí.', cs: 'Přehled směny se tiskne.' },
  nextShift: { en: 'The next shift', sk: 'Ďalšia zmena', cs: 'Další směna' },
});

const sales = (n: number) => plural(n, { one: { en: 'Sales (1 ticket)', sk: 'Tržba (1 účet)', cs: 'Tržba (1 účet)' }, few: { en: 'Sales ({n} tickets)', sk: 'Tržba ({n} účty)', cs: 'Tržba ({n} účty)' }, other: { en: 'Sales ({n} tickets)', sk: 'Tržba ({n} účtov)', cs: 'Tržba ({n} účtů)' } });

/** The euro's notes and coins, largest first (the register counts in euros, as it shows every amount). */
const DENOMINATIONS = [500, 200, 100, 50, 20, 10, 5, 2, 1, 0.5, 0.2, 0.1, 0.05, 0.02, 0.01];

/** An amount typed in the page's language ("12,50"), or NaN. */
const typedAmount = (text: string) => parseDecimal(text);
const validAmount = (n: number, positive: boolean) => Number.isFinite(n) && (positive ? n > 0 : n >= 0) && dec(n).decimalPlaces() <= 2;

/**
 * A write of the shift. Its Idempotency-Key is kept while the outcome is unknown (no answer came), so
 * a retry is the same write and the hub does it once; any answer ends it (after a refusal the form
 * may change, and a changed write under the same key would be refused as a reused key).
 */
function useWrite<B>(path: () => string): { busy: boolean; send: (body: B) => Promise<Shift | null> } {
  const [key, setKey] = useState(newKey);
  const [busy, setBusy] = useState(false);
  const send = async (body: B): Promise<Shift | null> => {
    if (till.conn === 'offline') {
      say(t('needsHub'), 'error');
      return null;
    }
    setBusy(true);
    try {
      const shift = await call<Shift>('POST', path(), body, { idempotencyKey: key });
      setKey(newKey());
      return shift;
    } catch (e) {
      if (!(e instanceof NetworkError)) setKey(newKey());
      say(failure(e), 'error');
      return null;
    } finally {
      setBusy(false);
    }
  };
  return { busy, send };
}

/** Opens this register's shift with the float counted into the drawer. */
function OpenShiftForm({ onOpened }: { onOpened?: () => void }): JSX.Element {
  const [float, setFloat] = useState('');
  const { busy, send } = useWrite<{ openingFloat: number }>(() => '/api/shifts');
  const amount = float.trim() ? typedAmount(float) : 0;
  return (
    <form
      class="stack"
      onSubmit={(e) => {
        e.preventDefault();
        if (!validAmount(amount, false)) return;
        void send({ openingFloat: amount }).then((shift) => {
          if (!shift) return;
          till.setShift(shift);
          onOpened?.();
        });
      }}
    >
      <p class="muted">{t('openHint')}</p>
      <label class="field">
        <span>{t('float')}</span>
        <input class="big-input num" inputMode="decimal" placeholder={money(0)} value={float} onInput={(e) => setFloat(e.currentTarget.value)} data-testid="opening-float" />
      </label>
      <button type="submit" class="big primary" disabled={busy || !validAmount(amount, false)} data-testid="open-shift">
        {t('open')}
      </button>
    </form>
  );
}

// ---- the floor's offer to open a shift --------------------------------------------------------------

const DECLINED_KEY = 'poshub.pos.noShiftToday';
/** Today on the hub's clock, in the shop's zone, as the day "Not today" was said on this register. */
const today = () => dayOf(hubNow());

function declinedToday(): boolean {
  try {
    return localStorage.getItem(DECLINED_KEY) === today();
  } catch {
    return false;
  }
}

/**
 * On the floor, for a cashier (CashCount) of a register without an open shift: the offer to open one.
 * Not a dialog in the way: a shop that counts the fiscal day instead taps "Not today", and the register
 * asks again tomorrow.
 */
export function ShiftOffer(): JSX.Element | null {
  const [declined, setDeclined] = useState(declinedToday);
  const [asking, setAsking] = useState(false);
  if (!till.shiftKnown || till.shift || declined || !till.can('CashCount') || till.conn !== 'online') return null;
  return (
    <div class="banner info shift-offer" data-testid="shift-offer">
      <p>{t('noShift')}</p>
      <div class="row">
        <button type="button" class="primary" onClick={() => setAsking(true)} data-testid="offer-open-shift">
          {t('open')}
        </button>
        <button
          type="button"
          class="ghost"
          onClick={() => {
            try {
              localStorage.setItem(DECLINED_KEY, today());
            } catch {
              /* private mode: asked again after a reload */
            }
            setDeclined(true);
          }}
        >
          {t('notNow')}
        </button>
      </div>
      {asking && (
        <Dialog title={t('open')} onClose={() => setAsking(false)} testId="open-shift-dialog">
          <OpenShiftForm onOpened={() => setAsking(false)} />
        </Dialog>
      )}
    </div>
  );
}

// ---- End of day: the shift's drawer -----------------------------------------------------------------

function Figure(props: { label: string; amount: number; sign?: '+' | '−'; strong?: boolean; testId?: string }): JSX.Element {
  const shown = props.sign ? `${props.sign} ${money(Math.abs(props.amount))}` : money(props.amount);
  return (
    <p class={`figure${props.strong ? ' strong' : ''}`}>
      <span>{props.label}</span>
      <span class="num" data-testid={props.testId}>
        {shown}
      </span>
    </p>
  );
}

/** What the drawer should hold, from its float: the figures of the printed shift report. */
function Drawer({ shift, fresh }: { shift: Shift; fresh: boolean }): JSX.Element {
  return (
    <div class="drawer" aria-busy={!fresh} data-testid="drawer">
      <Figure label={t('openingFloat')} amount={shift.openingFloat} testId="shift-float" />
      <Figure label={sales(shift.sales.tickets)} amount={shift.sales.total} testId="shift-sales" />
      {shift.sales.payments.map((p) => (
        <p class="figure sub" key={p.paymentTypeNumber}>
          <span>{p.name}</span>
          <span class="num">{money(p.amount)}</span>
        </p>
      ))}
      <Figure label={t('cashSales')} amount={shift.sales.cash} testId="shift-cash" />
      <Figure label={t('cashIn')} amount={shift.cashIn} sign="+" testId="shift-in" />
      <Figure label={t('cashOut')} amount={shift.cashOut} sign="−" testId="shift-out" />
      <Figure label={t('expected')} amount={shift.expected} strong testId="shift-expected" />
      {shift.movements.length > 0 && (
        <ul class="movements" data-testid="movements">
          {shift.movements.map((m) => (
            <li key={m.id}>
              <span class="muted">
                {time(m.at)} · {m.by.name || m.by.userName}
              </span>
              <span>{m.reason}</span>
              <span class="num">{`${m.kind === 'Out' ? '−' : '+'} ${money(m.amount)}`}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function MovementDialog({ shift, kind, onClose }: { shift: Shift; kind: 'In' | 'Out'; onClose: () => void }): JSX.Element {
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const { busy, send } = useWrite<{ kind: 'In' | 'Out'; amount: number; reason: string }>(() => `/api/shifts/${encodeURIComponent(shift.id)}/movements`);
  const value = typedAmount(amount);
  const ok = validAmount(value, true) && reason.trim().length > 0;
  const reasons = kind === 'In' ? [t('reasonChange')] : [t('reasonSupplier'), t('reasonBank')];
  return (
    <Dialog title={kind === 'In' ? t('inTitle') : t('outTitle')} onClose={onClose} testId="movement">
      <form
        class="stack"
        onSubmit={(e) => {
          e.preventDefault();
          if (!ok) return;
          void send({ kind, amount: value, reason: reason.trim() }).then((next) => {
            if (!next) return;
            till.setShift(next);
            say(t('recorded', { amount: `${kind === 'Out' ? '−' : '+'} ${money(value)}` }));
            onClose();
          });
        }}
      >
        <label class="field">
          <span>{t('amount')}</span>
          <input class="big-input num" inputMode="decimal" value={amount} onInput={(e) => setAmount(e.currentTarget.value)} data-testid="movement-amount" />
        </label>
        <label class="field">
          <span>{t('reason')}</span>
          <input value={reason} maxLength={200} onInput={(e) => setReason(e.currentTarget.value)} data-testid="movement-reason" />
        </label>
        <div class="row wrap">
          {reasons.map((r) => (
            <button type="button" class="chip" key={r} onClick={() => setReason(r)}>
              {r}
            </button>
          ))}
        </div>
        <button type="submit" class="big primary" disabled={busy || !ok} data-testid="movement-save">
          {kind === 'In' ? t('putIn') : t('takeOut')}
        </button>
      </form>
    </Dialog>
  );
}

/** The value of a note or coin as it is written ("50 €", "0,20 €"). */
const denomination = (value: number) => (value >= 1 ? `${value} €` : money(value));

function CloseDialog({ shift, onClose, onClosed }: { shift: Shift; onClose: () => void; onClosed: (closed: Shift) => void }): JSX.Element {
  const printer = deviceSetting('DefaultOrderEndpointName');
  const [typed, setTyped] = useState('');
  const [byNotes, setByNotes] = useState(false);
  const [pieces, setPieces] = useState<Record<string, string>>({});
  const [print, setPrint] = useState(!!printer);
  const { busy, send } = useWrite<Record<string, unknown>>(() => `/api/shifts/${encodeURIComponent(shift.id)}/close`);
  const denominations = DENOMINATIONS.map((value) => ({ value, count: Number(pieces[value] || '0') })).filter((d) => d.count !== 0);
  const piecesOk = denominations.every((d) => Number.isInteger(d.count) && d.count > 0);
  const counted = byNotes ? num(sum(denominations.map((d) => new D(d.value).times(d.count)))) : typedAmount(typed);
  const ok = byNotes ? piecesOk && denominations.length > 0 : validAmount(counted, false);
  const body = () => ({ ...(byNotes ? { denominations } : { counted }), ...(print && printer ? { print: {} } : {}) });
  const submit = () => {
    if (!ok) return;
    void send(body()).then((closed) => {
      if (!closed) return;
      till.setShift(null);
      onClosed(closed);
    });
  };
  return (
    <Dialog
      title={t('close')}
      onClose={onClose}
      testId="close-shift"
      wide
      actions={
        // Always in sight, however long the notes and coins scroll: the sum counted and the close.
        <div class="count-actions">
          {byNotes && <Figure label={t('total')} amount={counted} strong testId="counted-sum" />}
          <button type="submit" form="close-shift-form" class="big primary" disabled={busy || !ok} data-testid="close-shift-save">
            {t('closeIt')}
          </button>
        </div>
      }
    >
      <form id="close-shift-form" class="stack" onSubmit={submitting(submit)}>
        <p class="muted">{t('countHint')}</p>
        <label class="check">
          <input type="checkbox" checked={byNotes} onChange={(e) => setByNotes(e.currentTarget.checked)} data-testid="by-notes" />
          <span>{t('byNotes')}</span>
        </label>
        {byNotes ? (
          <div class="coins-grid" data-testid="denominations">
            {DENOMINATIONS.map((value) => (
              <label class="coin-count" key={value}>
                <span class="num">{denomination(value)}</span>
                <input
                  class="num"
                  inputMode="numeric"
                  aria-label={t('pieces', { value: denomination(value) })}
                  value={pieces[value] ?? ''}
                  onInput={(e) => setPieces({ ...pieces, [value]: e.currentTarget.value.replace(/\D/g, '') })}
                  data-testid={`pieces-${value}`}
                />
              </label>
            ))}
          </div>
        ) : (
          <label class="field">
            <span>{t('countedNow')}</span>
            <input class="big-input num" inputMode="decimal" value={typed} onInput={(e) => setTyped(e.currentTarget.value)} data-testid="counted-total" />
          </label>
        )}
        {printer && (
          <label class="check">
            <input type="checkbox" checked={print} onChange={(e) => setPrint(e.currentTarget.checked)} />
            <span>{t('print')}</span>
          </label>
        )}
      </form>
    </Dialog>
  );
}

/** A closed shift's count: expected against counted, and what it means for the drawer. */
function CountResult({ shift }: { shift: Shift }): JSX.Element {
  const difference = shift.difference ?? 0;
  return (
    <div class="count-result" data-testid="shift-result">
      <p class="lead">{t('closedAt', { time: time(shift.closedAt), name: shift.closedBy?.name || shift.closedBy?.userName || '' })}</p>
      <Figure label={t('expected')} amount={shift.expected} testId="result-expected" />
      <Figure label={t('counted')} amount={shift.counted ?? 0} testId="result-counted" />
      <p class={`figure strong${difference < 0 ? ' negative' : ''}`}>
        <span>{t('difference')}</span>
        <span class="num" data-testid="result-difference">
          {money(difference)}
        </span>
      </p>
      {difference !== 0 && <p class={difference < 0 ? 'negative' : 'warning'}>{t(difference < 0 ? 'short' : 'over', { amount: money(Math.abs(difference)) })}</p>}
      {shift.reportPrints.length > 0 && <p class="muted">{t('printing')}</p>}
    </div>
  );
}

/**
 * End of day's shift card: the open shift's drawer with cash in and out and the close, or the form that
 * opens one; after a close, its count.
 */
export function ShiftCard(): JSX.Element {
  const shift = till.shift;
  const online = till.conn === 'online';
  const [dialog, setDialog] = useState<'In' | 'Out' | 'close' | null>(null);
  const [closed, setClosed] = useState<Shift | null>(null);
  // The figures as of now (sales since the last look come as no event); the last ones known meanwhile.
  const [fresh, setFresh] = useState(false);
  useEffect(() => {
    void till
      .refreshShift()
      .catch(() => undefined)
      .finally(() => setFresh(true));
  }, []);
  return (
    <div class="card shift-card" data-testid="shift">
      <h3>{t('shift')}</h3>
      {closed && <CountResult shift={closed} />}
      {shift ? (
        <>
          <p class="muted" data-testid="shift-opened">
            {t('openedBy', { time: time(shift.openedAt), name: shift.openedBy.name || shift.openedBy.userName })}
          </p>
          <Drawer shift={shift} fresh={fresh} />
          {till.can('CashMovement') ? (
            <div class="row">
              <button type="button" class="big grow" disabled={!online} onClick={() => setDialog('In')} data-testid="cash-in">
                {t('in')}
              </button>
              <button type="button" class="big grow" disabled={!online} onClick={() => setDialog('Out')} data-testid="cash-out">
                {t('out')}
              </button>
            </div>
          ) : (
            <p class="muted">{t('needsMovement')}</p>
          )}
          {till.can('CashCount') ? (
            <button type="button" class="big primary" disabled={!online} onClick={() => setDialog('close')} data-testid="close-shift-start">
              {t('close')}
            </button>
          ) : (
            <p class="muted">{t('needsCount')}</p>
          )}
        </>
      ) : (
        <>
          {closed ? <h3>{t('nextShift')}</h3> : <p>{t('noShift')}</p>}
          {till.can('CashCount') ? <OpenShiftForm /> : <p class="muted">{t('needsCount')}</p>}
        </>
      )}
      {shift && (dialog === 'In' || dialog === 'Out') && <MovementDialog shift={shift} kind={dialog} onClose={() => setDialog(null)} />}
      {shift && dialog === 'close' && (
        <CloseDialog
          shift={shift}
          onClose={() => setDialog(null)}
          onClosed={(s) => {
            setDialog(null);
            setClosed(s);
          }}
        />
      )}
    </div>
  );
}
