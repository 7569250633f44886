/**
 * Paying: cash (what the guest hands over, and the change), card, voucher, several at once, or the
 * bill in equal parts, exact to the cent; on an eKasa register cash is rounded to 5 cents. Then the
 * fiscal close, with the receipt printed or e-mailed. When the fiscal printer refuses (out of paper,
 * switched off) the screen says what to do, and "Try again" repeats the very same request (its
 * Idempotency-Key kept, even across a reload): the hub never issues a second receipt for a ticket.
 */
import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { language, messages, parseDecimal } from '../shared/i18n';
import { money } from '../shared/format';
import type { PaymentType, Ticket } from '../shared/types';
import { ApiError, call, deviceSetting, newKey, NetworkError } from './api';
import { roundsCash } from './catalog';
import { go, say } from './hooks';
import { cashRounded, D, dec, equalParts, num, sum, type Dec } from './money';
import { till, type PendingClose } from './till';
import { failure, NumPad, ScreenHead } from './ui';

const t = messages({
  title: { en: 'Pay: {name}', sk: 'Platba: {name}', cs: 'Platba: {name}' },
  refundTitle: { en: 'Refund: {name}', sk: 'Vrátenie peňazí: {name}', cs: 'Vrácení peněz: {name}' },
  total: { en: 'To pay', sk: 'Na úhradu', cs: 'K úhradě' },
  refund: { en: 'To pay back', sk: 'Vrátiť', cs: 'Vrátit' },
  inCash: { en: 'In cash (rounded to 5 cents): {amount}', sk: 'V hotovosti (zaokrúhlené na 5 centov): {amount}', cs: 'V hotovosti (zaokrouhleno na 5 centů): {amount}' },
  paid: { en: 'Paid', sk: 'Zaplatené', cs: 'Zaplaceno' },
  remaining: { en: 'Still to pay', sk: 'Zostáva zaplatiť', cs: 'Zbývá zaplatit' },
  change: { en: 'Change', sk: 'Vydať', cs: 'Vrátit' },
  amount: { en: 'Amount handed over', sk: 'Prijatá suma', cs: 'Přijatá částka' },
  rest: { en: 'the rest', sk: 'zvyšok', cs: 'zbytek' },
  exact: { en: 'Exact', sk: 'Presne', cs: 'Přesně' },
  removePayment: { en: 'Remove {name} {amount}', sk: 'Odstrániť {name} {amount}', cs: 'Odstranit {name} {amount}' },
  parts: { en: 'Split evenly', sk: 'Rozdeliť rovnako', cs: 'Rozdělit rovnoměrně' },
  part: { en: 'Part {n}: {amount}', sk: 'Časť {n}: {amount}', cs: 'Část {n}: {amount}' },
  partsHint: { en: 'Tap a part, then how it is paid. One receipt for the table.', sk: 'Ťuknite na časť a potom na spôsob platby. Jeden doklad za stôl.', cs: 'Klepněte na část a pak na způsob platby. Jeden doklad za stůl.' },
  noParts: { en: 'Whole bill', sk: 'Celý účet', cs: 'Celý účet' },
  print: { en: 'Print the receipt', sk: 'Vytlačiť doklad', cs: 'Vytisknout doklad' },
  email: { en: 'E-mail the receipt to', sk: 'Poslať doklad e-mailom na', cs: 'Poslat doklad e-mailem na' },
  close: { en: 'Pay and issue the receipt', sk: 'Zaplatiť a vydať doklad', cs: 'Zaplatit a vydat doklad' },
  closeRefund: { en: 'Pay back and issue the refund receipt', sk: 'Vrátiť peniaze a vydať doklad', cs: 'Vrátit peníze a vydat doklad' },
  closing: { en: 'Issuing the receipt…', sk: 'Vydávam doklad…', cs: 'Vydávám doklad…' },
  cardMax: { en: 'A card or voucher pays at most what is left: {amount}.', sk: 'Kartou alebo poukážkou sa platí najviac zvyšok: {amount}.', cs: 'Kartou nebo poukázkou se platí nejvýše zbytek: {amount}.' },
  noTypes: { en: 'No payment types. The manager sets them up under Settings → Payment types.', sk: 'Žiadne spôsoby platby. Vedúci ich nastaví v Nastavenia → Spôsoby platby.', cs: 'Žádné způsoby platby. Vedoucí je nastaví v Nastavení → Způsoby platby.' },
  // The fiscal device refused: what to do.
  failTitle: { en: 'The receipt was not issued', sk: 'Doklad nebol vydaný', cs: 'Doklad nebyl vydán' },
  paperOut: { en: 'The fiscal printer is out of paper. Put in a new roll, close the cover, then tap Try again.', sk: 'Vo fiškálnej tlačiarni došiel papier. Vložte novú rolku, zatvorte kryt a ťuknite na Skúsiť znova.', cs: 'Ve fiskální tiskárně došel papír. Vložte novou roli, zavřete kryt a klepněte na Zkusit znovu.' },
  offline: { en: 'The fiscal printer does not answer. Check that it is switched on and its cable (or network) is plugged in, then tap Try again.', sk: 'Fiškálna tlačiareň neodpovedá. Skontrolujte, či je zapnutá a má zapojený kábel (alebo sieť), a ťuknite na Skúsiť znova.', cs: 'Fiskální tiskárna neodpovídá. Zkontrolujte, zda je zapnutá a má zapojený kabel (nebo síť), a klepněte na Zkusit znovu.' },
  deviceSays: { en: 'The fiscal device says: {detail}', sk: 'Fiškálne zariadenie hlási: {detail}', cs: 'Fiskální zařízení hlásí: {detail}' },
  noAnswer: { en: 'The hub did not answer, so this register cannot tell whether the receipt went out. Tap Try again: the hub finishes the payment and never issues a second receipt.', sk: 'Hub neodpovedal, takže pokladňa nevie, či doklad vyšiel. Ťuknite na Skúsiť znova: hub platbu dokončí a druhý doklad nikdy nevydá.', cs: 'Hub neodpověděl, takže pokladna neví, zda doklad vyšel. Klepněte na Zkusit znovu: hub platbu dokončí a druhý doklad nikdy nevydá.' },
  busy: { en: 'The hub is still finishing this ticket’s receipt. Wait a moment, then tap Try again.', sk: 'Hub ešte dokončuje doklad tohto účtu. Chvíľu počkajte a ťuknite na Skúsiť znova.', cs: 'Hub ještě dokončuje doklad tohoto účtu. Chvíli počkejte a klepněte na Zkusit znovu.' },
  nothingTwice: { en: 'Nothing is charged twice: Try again repeats the same payment.', sk: 'Nič sa nezaúčtuje dvakrát: Skúsiť znova zopakuje tú istú platbu.', cs: 'Nic se nezaúčtuje dvakrát: Zkusit znovu zopakuje tutéž platbu.' },
  retry: { en: 'Try again', sk: 'Skúsiť znova', cs: 'Zkusit znovu' },
  started: { en: 'A payment of this ticket was started and not finished. Tap Try again to finish it (it never makes a second receipt).', sk: 'Platba tohto účtu sa začala a nedokončila. Ťuknite na Skúsiť znova (druhý doklad nikdy nevznikne).', cs: 'Platba tohoto účtu byla zahájena a nedokončena. Klepněte na Zkusit znovu (druhý doklad nikdy nevznikne).' },
  changePayment: { en: 'Change the payment', sk: 'Zmeniť platbu', cs: 'Změnit platbu' },
  // Done.
  doneTitle: { en: 'Paid', sk: 'Zaplatené', cs: 'Zaplaceno' },
  receiptNo: { en: 'Receipt {number} · {fiscal}', sk: 'Doklad {number} · {fiscal}', cs: 'Doklad {number} · {fiscal}' },
  giveBack: { en: 'Give back', sk: 'Vydajte', cs: 'Vydejte' },
  ekasaOffline: { en: 'eKasa registered it offline: the receipt carries the OKP and is sent to the tax office later.', sk: 'eKasa ho zaevidovala offline: doklad nesie OKP a na finančnú správu sa odošle neskôr.', cs: 'eKasa jej zaevidovala offline: doklad nese OKP a odešle se později.' },
  emailed: { en: 'The receipt goes to {email}.', sk: 'Doklad príde na {email}.', cs: 'Doklad přijde na {email}.' },
  copy: { en: 'Print a copy', sk: 'Vytlačiť kópiu', cs: 'Vytisknout kopii' },
  copyQueued: { en: 'The copy is printing.', sk: 'Kópia sa tlačí.', cs: 'Kopie se tiskne.' },
  next: { en: 'Done', sk: 'Hotovo', cs: 'Hotovo' },
  closedElsewhere: { en: 'This ticket was paid or deleted on another register.', sk: 'Tento účet zaplatili alebo zmazali na inej pokladni.', cs: 'Tento účet zaplatili nebo smazali na jiné pokladně.' },
  needsHub: { en: 'Paying needs the hub: the fiscal printer is there. Pay when the connection is back.', sk: 'Platba potrebuje hub: je pri ňom fiškálna tlačiareň. Zaplaťte, keď bude spojenie späť.', cs: 'Platba potřebuje hub: je u něj fiskální tiskárna. Zaplaťte, až bude spojení zpět.' },
});

interface Payment {
  type: PaymentType;
  amount: number;
}

type Failure = { kind: 'device'; detail: string; paper: string | null; online: boolean | null } | { kind: 'noAnswer' } | { kind: 'busy' } | { kind: 'started' };

const typeName = (p: PaymentType) => p.name || p.category;

export function Pay({ id }: { id: string }): JSX.Element {
  // The ticket as it was when paying began: the till drops it the moment the close succeeds.
  const [atStart] = useState(() => till.ticket(id) ?? null);
  const live = till.ticket(id);
  const ticket = live ?? atStart;
  const server: Ticket | null = ticket?.base ?? null;
  const [payments, setPayments] = useState<Payment[]>([]);
  const [typed, setTyped] = useState('');
  const [parts, setParts] = useState<number | null>(null);
  // The part of the bill last tapped, and the text it put in the amount (a part is paid as a part while the text is unchanged).
  const [chosenPart, setChosenPart] = useState<{ text: string; amount: Dec } | null>(null);
  const [print, setPrint] = useState(true);
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [failed, setFailed] = useState<Failure | null>(null);
  const [pending, setPending] = useState<PendingClose | null>(null);
  const [closed, setClosed] = useState<{ ticket: Ticket; email: string | null } | null>(null);

  useEffect(() => {
    void till.pendingClose(id).then((p) => {
      if (p) {
        setPending(p);
        setFailed({ kind: 'started' });
      }
    });
    void till.fiscalNow().catch(() => undefined);
  }, [id]);

  // Closed (or deleted) on another register meanwhile: nothing left to pay here.
  useEffect(() => {
    if (!live && !busy && !closed && !failed) {
      if (atStart) say(t('closedElsewhere'));
      go({ kind: 'tables' });
    }
  }, [!!live, busy, !!closed, !!failed]);

  if (closed) return <Done ticket={closed.ticket} email={closed.email} />;
  if (!ticket || !server) return <section />;

  const types = [...till.catalog.paymentTypes].filter((p) => p.isActive).sort((a, b) => a.number - b.number);
  const total = dec(server.totalPrice.amount);
  const refund = total.isNegative();
  const rounding = roundsCash(till.catalog) && !refund;
  const cash = (p: Payment) => p.type.category === 'Cash';
  const nonCash = sum(payments.filter((p) => !cash(p)).map((p) => p.amount));
  const cashPaid = sum(payments.filter(cash).map((p) => p.amount));
  // What cash must bring: the rest after other payments, rounded to 5 cents on eKasa.
  const restAfterNonCash = total.minus(nonCash);
  const cashDue = rounding && payments.some(cash) ? cashRounded(restAfterNonCash) : restAfterNonCash;
  const remaining: Dec = payments.some(cash) ? cashDue.minus(cashPaid) : total.minus(nonCash);
  // What a card or voucher still pays: the exact rest. Only cash is rounded: 5,00 € in cash of 8,98 €
  // leaves 3,98 € for the card (the hub then rounds nothing), not the 4,00 € that cash would bring.
  const exactRest = restAfterNonCash.minus(cashPaid);
  const covered = refund ? remaining.gte(0) && sum(payments.map((p) => p.amount)).eq(total) : remaining.lte(0);
  const change = !refund && remaining.isNegative() ? remaining.negated() : dec(0);
  const partAmounts = parts ? equalParts(total, parts) : [];

  const add = (type: PaymentType) => {
    setError(null);
    const inCash = type.category === 'Cash';
    const left = inCash ? remaining : exactRest;
    const rest = left.gt(0) || refund ? left : dec(0);
    if (typed && !Number.isFinite(parseDecimal(typed))) return;
    // What cash still brings to finish: once cash pays something, `remaining` is already counted from the
    // rounded cash part (rounding it again made 0,01 € left after 4,49 € in cash into 0,00 €: nothing could
    // finish the payment); before that, the rest rounded.
    const cashToFinish = rounding && !payments.some(cash) ? cashRounded(rest) : rest;
    const part = !refund && chosenPart && typed === chosenPart.text ? chosenPart.amount : null;
    let amount: Dec;
    if (part) {
      // A part of the bill: in cash on eKasa the guest pays it rounded (4,49 € → 4,50 €), but never past what
      // finishes the cash part (three cash parts of 10,00 € are 3,35 + 3,35 + 3,30); by card the exact part.
      amount = inCash && rounding && cashToFinish.gt(0) ? D.min(cashRounded(part), cashToFinish) : inCash && rounding ? cashRounded(part) : part;
    } else amount = typed ? dec(parseDecimal(typed)) : inCash ? cashToFinish : rest;
    if (refund) amount = amount.isPositive() ? amount.negated() : amount;
    if (amount.isZero()) return;
    // Only a changeable type (cash) takes more than what is left: a card is never overpaid. A part by card
    // after cash parts paid rounded is simply the rest (4,48 € after 4,50 € in cash): nothing to tell.
    if (!type.isChangeable && !refund && amount.gt(rest)) {
      if (!part) say(t('cardMax', { amount: money(num(rest)) }), 'error');
      amount = rest;
      if (amount.lte(0)) return;
    }
    setPayments([...payments, { type, amount: num(amount) }]);
    setTyped('');
    setChosenPart(null);
  };

  const body = (): Record<string, unknown> => ({
    payments: payments.map((p) => ({ paymentTypeNumber: p.type.number, amount: p.amount })),
    receipt: { print, email: email.trim() || null },
  });

  const explain = async (e: unknown): Promise<Failure | null> => {
    if (e instanceof NetworkError) return { kind: 'noAnswer' };
    if (e instanceof ApiError && e.status === 423) return { kind: 'busy' };
    if (e instanceof ApiError && e.status === 503) {
      const fiscal = await till.fiscalNow().catch(() => null);
      return { kind: 'device', detail: e.message, paper: fiscal?.status.paper ?? null, online: fiscal?.status.online ?? null };
    }
    return null;
  };

  const closeNow = async (retry: PendingClose | null) => {
    if (till.conn === 'offline' && !retry) return say(t('needsHub'), 'error');
    setBusy(true);
    setError(null);
    try {
      const sent = retry?.body ?? body();
      const done = await till.close(id, sent, retry);
      setFailed(null);
      setClosed({ ticket: done, email: (sent.receipt as { email?: string | null } | undefined)?.email ?? null });
    } catch (e) {
      const why = await explain(e);
      if (why) {
        // The same request is kept for Try again.
        setPending(retry ?? (await till.pendingClose(id)));
        setFailed(why);
      } else {
        // Refused outright (a 400: nothing happened): the payment can be changed and tried anew.
        await till.forgetClose(id);
        setPending(null);
        setFailed(null);
        setError(failure(e));
      }
    } finally {
      setBusy(false);
    }
  };

  const name = ticket.draft.name || ticket.draft.location?.tableName || '';
  if (failed) {
    return (
      <section class="pay center-page" data-testid="fiscal-failure">
        <h1>{failed.kind === 'started' ? t('title', { name }) : t('failTitle')}</h1>
        <p class="lead" data-testid="what-to-do">
          {failed.kind === 'device'
            ? failed.paper === 'out'
              ? t('paperOut')
              : failed.online === false
                ? t('offline')
                : t('deviceSays', { detail: failed.detail })
            : failed.kind === 'noAnswer'
              ? t('noAnswer')
              : failed.kind === 'busy'
                ? t('busy')
                : t('started')}
        </p>
        <p class="muted">{t('nothingTwice')}</p>
        <button type="button" class="primary big" disabled={busy} onClick={() => void closeNow(pending)} data-testid="retry">
          {busy ? t('closing') : t('retry')}
        </button>
        <button
          type="button"
          class="big ghost"
          disabled={busy}
          onClick={() => {
            setFailed(null);
            setPending(null);
            void till.forgetClose(id);
          }}
        >
          {t('changePayment')}
        </button>
      </section>
    );
  }

  return (
    <section class="pay" data-testid="pay">
      <ScreenHead title={refund ? t('refundTitle', { name }) : t('title', { name })} back="step" onBack={() => go({ kind: 'ticket', id })} disabled={busy} />
      <div class="pay-grid">
        <div class="pay-summary">
          <p class="due">
            <span>{refund ? t('refund') : t('total')}</span>
            <span class="num" data-testid="due">
              {money(num(refund ? total.negated() : total))}
            </span>
          </p>
          {rounding && (
            <p class="muted" data-testid="cash-rounded">
              {t('inCash', { amount: money(num(cashRounded(exactRest.gt(0) ? exactRest : restAfterNonCash.gt(0) ? restAfterNonCash : total))) })}
            </p>
          )}
          {payments.length > 0 && (
            <ul class="payments" data-testid="payments">
              {payments.map((p, i) => (
                <li key={i}>
                  <span>{typeName(p.type)}</span>
                  <span class="num">{money(Math.abs(p.amount))}</span>
                  <button type="button" class="chip" aria-label={t('removePayment', { name: typeName(p.type), amount: money(p.amount) })} onClick={() => setPayments(payments.filter((_, k) => k !== i))}>
                    ✕
                  </button>
                </li>
              ))}
            </ul>
          )}
          {!covered && (
            <p class="remaining">
              <span>{t('remaining')}</span>
              <span class="num" data-testid="remaining">
                {money(num((payments.some(cash) && exactRest.gt(0) ? exactRest : remaining).abs()))}
              </span>
            </p>
          )}
          {change.gt(0) && (
            <p class="change">
              <span>{t('change')}</span>
              <span class="num" data-testid="change">
                {money(num(change))}
              </span>
            </p>
          )}
          {!refund && (
            <div class="parts">
              <span class="muted">{t('parts')}</span>
              <div class="row wrap">
                <button type="button" class={`chip${parts === null ? ' on' : ''}`} onClick={() => setParts(null)}>
                  {t('noParts')}
                </button>
                {[2, 3, 4, 5, 6].map((n) => (
                  <button type="button" key={n} class={`chip${parts === n ? ' on' : ''}`} onClick={() => setParts(n)} data-testid={`parts-${n}`}>
                    {n}
                  </button>
                ))}
              </div>
              {parts && (
                <>
                  <p class="muted">{t('partsHint')}</p>
                  <div class="row wrap" data-testid="part-amounts">
                    {partAmounts.map((a, i) => (
                      <button
                        type="button"
                        key={i}
                        class="chip part"
                        onClick={() => {
                          const text = language() === 'en' ? a.toFixed(2) : a.toFixed(2).replace('.', ',');
                          setTyped(text);
                          setChosenPart({ text, amount: a });
                        }}
                      >
                        {t('part', { n: i + 1, amount: money(num(a)) })}
                      </button>
                    ))}
                  </div>
                </>
              )}
            </div>
          )}
        </div>
        <div class="pay-entry">
          <label class="field">
            <span>{t('amount')}</span>
            <input class="big-input num" inputMode="decimal" placeholder={t('rest')} value={typed} onInput={(e) => setTyped(e.currentTarget.value)} data-testid="tendered" />
          </label>
          {!refund && (
            <div class="row wrap quick">
              {[5, 10, 20, 50].map((n) => (
                <button type="button" key={n} class="chip" onClick={() => setTyped(String(n))}>
                  {money(n)}
                </button>
              ))}
            </div>
          )}
          <NumPad value={typed} onChange={setTyped} decimal maxLength={10} />
          <div class="pay-types">
            {types.map((p) => (
              <button type="button" key={p.number} class={`big pay-type ${p.category.toLowerCase()}`} onClick={() => add(p)} disabled={busy || (covered && !refund)} data-testid={`pay-${p.number}`}>
                {typeName(p)}
              </button>
            ))}
            {types.length === 0 && <p class="muted">{t('noTypes')}</p>}
          </div>
        </div>
      </div>
      <div class="pay-foot">
        <div class="pay-receipt">
          <label class="check">
            <input type="checkbox" checked={print} onChange={(e) => setPrint(e.currentTarget.checked)} />
            <span>{t('print')}</span>
          </label>
          <label class="field grow">
            <span>{t('email')}</span>
            <input type="email" value={email} onInput={(e) => setEmail(e.currentTarget.value)} autoComplete="off" />
          </label>
        </div>
        {/* Its own box: on a phone it stays at the foot of the screen while the payment types scroll. */}
        <div class="pay-go">
          <button type="button" class="primary big" disabled={!covered || busy || payments.length === 0} onClick={() => void closeNow(null)} data-testid="close">
            {busy ? t('closing') : refund ? t('closeRefund') : t('close')}
          </button>
        </div>
      </div>
      {error && (
        <p class="error" role="alert" data-testid="pay-error">
          {error}
        </p>
      )}
    </section>
  );
}

function Done({ ticket, email }: { ticket: Ticket; email: string | null }): JSX.Element {
  const info = ticket.closeInfo;
  const printCopy = async () => {
    try {
      await call('POST', `/api/tickets/${encodeURIComponent(ticket.id)}/print_receipt_copy`, {}, { idempotencyKey: newKey() });
      say(t('copyQueued'));
    } catch (e) {
      say(failure(e), 'error');
    }
  };
  return (
    <section class="pay center-page" data-testid="paid">
      <h1>{t('doneTitle')}</h1>
      {info && (
        <p class="lead" data-testid="receipt">
          {t('receiptNo', { number: info.number, fiscal: info.fiscalName })}
        </p>
      )}
      {(ticket.change ?? 0) > 0 && (
        <p class="change big-change">
          <span>{t('giveBack')}</span>
          <span class="num" data-testid="change">
            {money(ticket.change ?? 0)}
          </span>
        </p>
      )}
      {info?.ekasa?.offline && <p class="warning">{t('ekasaOffline')}</p>}
      {email && <p>{t('emailed', { email })}</p>}
      <div class="row">
        {deviceSetting('DefaultOrderEndpointName') && (
          <button type="button" class="big" onClick={() => void printCopy()}>
            {t('copy')}
          </button>
        )}
        <button type="button" class="primary big" onClick={() => go({ kind: 'tables' })} data-testid="done" autoFocus>
          {t('next')}
        </button>
      </div>
    </section>
  );
}
