/**
 * Returns: find a ticket closed today (by its receipt number or its table), choose what comes back,
 * and pay it out. The hub makes the return (POST /api/tickets/{id}/return: a new ticket of negative
 * items, never more than was sold), the refund is its close with the money going back (the fiscal
 * refund receipt where the device issues one).
 */
import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { messages } from '../shared/i18n';
import { money, quantity, time } from '../shared/format';
import { dayOf, dayStartsAt } from '../shared/days';
import type { Ticket } from '../shared/types';
import { call, hubNow } from './api';
import { go, say } from './hooks';
import { dec, num } from './money';
import { lineAmount, lineFrom } from './tickets';
import { till } from './till';
import { failure, ScreenHead, submitting, useAction } from './ui';

const t = messages({
  title: { en: 'Returns', sk: 'Vrátenie', cs: 'Vrácení' },
  find: { en: 'Receipt number or table', sk: 'Číslo dokladu alebo stôl', cs: 'Číslo dokladu nebo stůl' },
  search: { en: 'Find', sk: 'Hľadať', cs: 'Hledat' },
  today: { en: 'Closed today', sk: 'Uzavreté dnes', cs: 'Uzavřené dnes' },
  none: { en: 'No closed ticket found today.', sk: 'Dnes sa nenašiel žiadny uzavretý účet.', cs: 'Dnes nenalezen žádný uzavřený účet.' },
  receipt: { en: 'Receipt {number} · {fiscal}', sk: 'Doklad {number} · {fiscal}', cs: 'Doklad {number} · {fiscal}' },
  choose: { en: 'Tap what comes back (each tap one more).', sk: 'Ťuknite na to, čo sa vracia (každé ťuknutie o jedno viac).', cs: 'Klepněte na to, co se vrací (každé klepnutí o jedno víc).' },
  returned: { en: '{n} returned before', sk: 'už vrátené: {n}', cs: 'už vráceno: {n}' },
  start: { en: 'Return {amount}', sk: 'Vrátiť {amount}', cs: 'Vrátit {amount}' },
  needs: { en: 'A return needs the rights Storno and TicketCreate (and TicketClose to pay it out).', sk: 'Vrátenie potrebuje práva Storno a TicketCreate (a TicketClose na vyplatenie).', cs: 'Vrácení potřebuje práva Storno a TicketCreate (a TicketClose k vyplacení).' },
  other: { en: 'Another ticket', sk: 'Iný účet', cs: 'Jiný účet' },
});

type Closed = Ticket & { returnOf?: string };

/** When the shop's today began (its zone, not the tablet's). */
function startOfToday(): string {
  return dayStartsAt(dayOf(hubNow())).toISOString();
}

export function Returns(): JSX.Element {
  const [query, setQuery] = useState('');
  const [list, setList] = useState<Closed[] | null>(null);
  const [chosen, setChosen] = useState<Closed | null>(null);
  const [earlier, setEarlier] = useState<Map<number, number>>(new Map());
  const [back, setBack] = useState<Record<number, number>>({});
  const [running, act] = useAction();
  const busy = running !== null;
  const allowed = till.can('Storno') && till.can('TicketCreate');

  const find = async (q: string) => {
    const terms = [`IsClosed=true`, `CloseDate=${encodeURIComponent('ge:' + startOfToday())}`, `$sort=closeDate:desc`, `$take=50`];
    const v = q.trim();
    if (/^\d+$/.test(v)) terms.push(`CloseInfoNumber=${v}`);
    else if (v) terms.push(`LocationTableName=${encodeURIComponent(v)}`);
    try {
      let r = await call<{ items: Closed[] }>('GET', `/api/tickets?${terms.join('&')}`);
      // A number that is no receipt number may be a table's.
      if (!r.items.length && /^\d+$/.test(v)) r = await call<{ items: Closed[] }>('GET', `/api/tickets?${terms.slice(0, 4).join('&')}&LocationTableName=${v}`);
      setList(r.items.filter((x) => !x.returnOf));
    } catch (e) {
      say(failure(e), 'error');
    }
  };

  useEffect(() => {
    void find('');
  }, []);

  const open = async (ticket: Closed) => {
    setChosen(ticket);
    setBack({});
    try {
      const r = await call<{ items: Ticket[] }>('GET', `/api/tickets?ReturnOf=${encodeURIComponent(ticket.id)}&$take=100`);
      const m = new Map<number, number>();
      for (const ret of r.items) for (const i of ret.items) if (i.type === 'Negative') m.set(i.id, num(dec(m.get(i.id) ?? 0).plus(i.quantity)));
      setEarlier(m);
    } catch {
      setEarlier(new Map());
    }
  };

  const start = async () => {
    if (!chosen) return;
    await act(true, async () => {
      const items = Object.entries(back)
        .filter(([, q]) => q > 0)
        .map(([id, quantity]) => ({ id: Number(id), quantity }));
      const ret = await till.startReturn(chosen.id, items);
      go({ kind: 'pay', id: ret.id });
    });
  };

  const sold = chosen ? chosen.items.filter((i) => i.type === 'Positive').map(lineFrom) : [];
  const amount = sold.reduce((s, l) => s + lineAmount({ ...l, quantity: back[l.id] ?? 0 }), 0);

  return (
    <section class="returns" data-testid="returns">
      <ScreenHead title={t('title')} back="tables" onBack={() => go({ kind: 'tables' })} />
      {!allowed && <p class="warning">{t('needs')}</p>}
      {!chosen && (
        <>
          <form class="row" onSubmit={submitting(() => find(query))}>
            <label class="field grow">
              <span>{t('find')}</span>
              <input value={query} onInput={(e) => setQuery(e.currentTarget.value)} data-testid="return-search" />
            </label>
            <button type="submit" class="big">
              {t('search')}
            </button>
          </form>
          <h3>{t('today')}</h3>
          {list && list.length === 0 && <p class="muted">{t('none')}</p>}
          <div class="stack">
            {(list ?? []).map((x) => (
              <button type="button" key={x.id} class="list-button big" onClick={() => void open(x)} data-testid={`closed-${x.id}`}>
                <span>{x.closeInfo ? t('receipt', { number: x.closeInfo.number, fiscal: x.closeInfo.fiscalName }) : x.id}</span>
                <span>{x.name || x.location?.tableName || ''}</span>
                <span class="muted">{time(x.closeDate)}</span>
                <span class="num">{money(x.totalPrice.amount)}</span>
              </button>
            ))}
          </div>
        </>
      )}
      {chosen && (
        <>
          <p class="lead">
            {chosen.closeInfo ? t('receipt', { number: chosen.closeInfo.number, fiscal: chosen.closeInfo.fiscalName }) : chosen.id} · {chosen.name}
          </p>
          <p class="muted">{t('choose')}</p>
          <ul class="lines">
            {sold.map((l) => {
              const left = num(dec(l.quantity).minus(earlier.get(l.id) ?? 0));
              const q = back[l.id] ?? 0;
              return (
                <li key={l.id} class={`line${q > 0 ? ' moving' : ''}`}>
                  <button type="button" class="line-button" disabled={left <= 0} onClick={() => setBack({ ...back, [l.id]: q >= left ? 0 : q + Math.min(1, left - q) })} data-testid={`return-line-${l.id}`}>
                    <span class="line-qty num">
                      {quantity(q)} / {quantity(left)}
                    </span>
                    <span class="line-name">
                      {l.name}
                      {earlier.get(l.id) ? <small>{t('returned', { n: quantity(earlier.get(l.id)!) })}</small> : null}
                    </span>
                    <span class="line-amount num">{money(lineAmount({ ...l, quantity: q }))}</span>
                  </button>
                </li>
              );
            })}
          </ul>
          <div class="row">
            <button type="button" class="big ghost" onClick={() => setChosen(null)}>
              {t('other')}
            </button>
            <button type="button" class="big primary" disabled={!allowed || busy || amount === 0} onClick={() => void start()} data-testid="start-return">
              {t('start', { amount: money(amount) })}
            </button>
          </div>
        </>
      )}
    </section>
  );
}
