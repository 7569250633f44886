/**
 * Today: what the shop has sold so far and what is open at the tables. The day's tickets are
 * loaded once; after that every ticket change from the stream is fetched by its key and put in
 * place, so the numbers move as the registers close tickets, without reloading the lot.
 * Another day shows the tickets closed that day only: what is open now belongs to today.
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import { BarChart, type Bar } from '../components/BarChart';
import { Field } from '../components/Field';
import { Empty, PageHeader, Stat } from '../components/ui';
import { Badge, Card, Notice, Spinner } from '../../shared/ui';
import { api, ApiError, describeError, op, path } from '../lib/api';
import { useAll } from '../lib/data';
import { byText, collator, dayStart, dayTitle, minutesSince, money, time } from '../lib/format';
import { dayOf, isDay, shopClock } from '../../shared/days';
import { useLive } from '../lib/live';
import { linkHandler, useQuery } from '../lib/router';
import { useCan } from '../lib/session';
import { rightWord } from '../lib/rights-words';
import { messages, plural } from '../../shared/i18n';
import type { PaymentType, Ticket } from '../../shared/types';

const t = messages({
  today: { en: 'Today', sk: 'Dnes', cs: 'Dnes' },
  pastDay: { en: 'Another day: totals of the tickets closed that day.', sk: 'Iný deň: súčty účtov uzavretých v ten deň.', cs: 'Jiný den: součty účtů uzavřených v ten den.' },
  day: { en: 'Day', sk: 'Deň', cs: 'Den' },
  salesSoFar: { en: 'Sales so far', sk: 'Doterajšia tržba', cs: 'Dosavadní tržba' },
  sales: { en: 'Sales', sk: 'Tržba', cs: 'Tržba' },
  ticketsClosed: { en: 'Tickets closed', sk: 'Uzavreté účty', cs: 'Uzavřené účty' },
  // A user who reads only their own closed tickets (no TicketReadAll) sees their own takings, said as such.
  mySalesSoFar: { en: 'Your takings so far', sk: 'Vaša doterajšia tržba', cs: 'Vaše dosavadní tržba' },
  mySales: { en: 'Your takings', sk: 'Vaša tržba', cs: 'Vaše tržba' },
  myTicketsClosed: { en: 'Your tickets closed', sk: 'Vaše uzavreté účty', cs: 'Vaše uzavřené účty' },
  myByHour: { en: 'Your takings by hour', sk: 'Vaša tržba po hodinách', cs: 'Vaše tržba po hodinách' },
  myByPayment: { en: 'Your payments by type', sk: 'Vaše platby podľa typu', cs: 'Vaše platby podle typu' },
  onlyYours: { en: 'These are the tickets you closed; the whole shop’s takings need the right “{right}”.', sk: 'Toto sú účty, ktoré ste uzavreli vy; tržba celej prevádzky vyžaduje právo „{right}“.', cs: 'Toto jsou účty, které jste uzavřeli vy; tržba celé provozovny vyžaduje právo „{right}“.' },
  average: { en: 'average {amount}', sk: 'priemer {amount}', cs: 'průměr {amount}' },
  noneYet: { en: 'none yet', sk: 'zatiaľ žiadne', cs: 'zatím žádné' },
  openTickets: { en: 'Open tickets', sk: 'Otvorené účty', cs: 'Otevřené účty' },
  notPaid: { en: '{amount} not yet paid', sk: 'nezaplatené {amount}', cs: 'nezaplaceno {amount}' },
  settled: { en: 'every table is settled', sk: 'všetky stoly sú vyrovnané', cs: 'všechny stoly jsou vyrovnané' },
  byHour: { en: 'Sales by hour', sk: 'Tržba po hodinách', cs: 'Tržba po hodinách' },
  noSalesToday: { en: 'No sales yet today', sk: 'Dnes zatiaľ žiadna tržba', cs: 'Dnes zatím žádná tržba' },
  noSalesDay: { en: 'No sales that day', sk: 'V ten deň žiadna tržba', cs: 'V ten den žádná tržba' },
  chartFills: { en: 'The chart fills in as the registers close tickets.', sk: 'Graf sa plní, ako pokladne uzatvárajú účty.', cs: 'Graf se plní, jak pokladny uzavírají účty.' },
  byPayment: { en: 'Payments by type', sk: 'Platby podľa typu', cs: 'Platby podle typu' },
  paymentType: { en: 'Payment type {n}', sk: 'Typ platby {n}', cs: 'Typ platby {n}' },
  noPayments: { en: 'No payments yet', sk: 'Zatiaľ žiadne platby', cs: 'Zatím žádné platby' },
  byWaiter: { en: 'Open tickets by waiter', sk: 'Otvorené účty podľa čašníka', cs: 'Otevřené účty podle číšníka' },
  nobodyOpen: { en: 'Nobody has an open ticket', sk: 'Nikto nemá otvorený účet', cs: 'Nikdo nemá otevřený účet' },
  byTable: { en: 'Open tickets by table ({n})', sk: 'Otvorené účty podľa stolov ({n})', cs: 'Otevřené účty podle stolů ({n})' },
  table: { en: 'Table {name}', sk: 'Stôl {name}', cs: 'Stůl {name}' },
  noTable: { en: 'No table', sk: 'Bez stola', cs: 'Bez stolu' },
  openedAt: { en: 'Opened at {time}', sk: 'Otvorený o {time}', cs: 'Otevřen v {time}' },
  noOpen: { en: 'No open tickets', sk: 'Žiadne otvorené účty', cs: 'Žádné otevřené účty' },
  appearAtOnce: { en: 'Tickets the waiters open appear here at once.', sk: 'Účty, ktoré čašníci otvoria, sa tu objavia hneď.', cs: 'Účty, které číšníci otevřou, se zde objeví hned.' },
  salesByHourLabel: { en: 'Sales by hour: {list}', sk: 'Tržba po hodinách: {list}', cs: 'Tržba po hodinách: {list}' },
});

const closedCount = (n: number) =>
  plural(n, {
    one: { en: '{n} ticket closed', sk: '{n} uzavretý účet', cs: '{n} uzavřený účet' },
    few: { en: '{n} tickets closed', sk: '{n} uzavreté účty', cs: '{n} uzavřené účty' },
    other: { en: '{n} tickets closed', sk: '{n} uzavretých účtov', cs: '{n} uzavřených účtů' },
  });

const cents = (n: number) => Math.round(n * 100);
const fromCents = (c: number) => c / 100;

/** Payments net of change: change is handed out of the changeable (cash) payments. */
function netPayments(tk: Ticket, types: Map<number, PaymentType>): Array<{ number: number; cents: number }> {
  const out = tk.payments.map((p) => ({ number: p.paymentTypeNumber, cents: cents(p.amount) }));
  let change = out.reduce((s, p) => s + p.cents, 0) - cents(tk.totalPrice.amount);
  for (let i = out.length - 1; i >= 0 && change > 0; i--) {
    if (!types.get(out[i].number)?.isChangeable) continue;
    const taken = Math.min(change, out[i].cents);
    out[i].cents -= taken;
    change -= taken;
  }
  return out;
}

interface DayState {
  closed: Map<string, Ticket>;
  open: Map<string, Ticket>;
}

export function Today() {
  const [query, setQuery] = useQuery();
  const [now, setNow] = useState(() => new Date());
  // The shop's today, not the browser's: the hub's days are the shop's (POS_HUB_TIMEZONE).
  const today = dayOf(now);
  const asked = query.get('day');
  const day = asked && isDay(asked) ? asked : today;
  const isToday = day === today;
  const from = dayStart(day);
  const to = dayStart(day, 1);
  const [state, setState] = useState<DayState | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [generation, setGeneration] = useState(0);
  const types = useAll<PaymentType>('paymenttypes');
  // Without TicketReadAll the hub answers only the caller's own closed tickets (CONTRACT §12).
  const everyone = useCan()('TicketReadAll');
  const typeMap = useMemo(() => new Map((types.data ?? []).map((tk) => [tk.number, tk])), [types.data]);

  // The clock on the page: open-ticket ages and the current hour move on by themselves.
  useEffect(() => {
    const tk = setInterval(() => setNow(new Date()), 30_000);
    return () => clearInterval(tk);
  }, []);

  useEffect(() => {
    const ctrl = new AbortController();
    setState(null);
    setError(null);
    Promise.all([
      api.all<Ticket>('tickets', { filters: { IsClosed: op.eq(true), CloseDate: [op.ge(from), op.lt(to)] }, sort: 'closeDate' }, ctrl.signal),
      // The tickets open now belong to today, not to a day that is over.
      isToday ? api.all<Ticket>('tickets', { filters: { IsClosed: op.eq(false) }, sort: 'openDate' }, ctrl.signal) : Promise.resolve([] as Ticket[]),
    ]).then(
      ([closed, open]) => setState({ closed: new Map(closed.map((tk) => [tk.id, tk])), open: new Map(open.map((tk) => [tk.id, tk])) }),
      (e: unknown) => !ctrl.signal.aborted && setError(describeError(e)),
    );
    return () => ctrl.abort();
  }, [from, to, isToday, generation]);

  useLive(['tickets'], (change) => {
    if (!change) return setGeneration((g) => g + 1);
    const place = (tk: Ticket | null) =>
      setState((s) => {
        if (!s) return s;
        const closed = new Map(s.closed);
        const open = new Map(s.open);
        closed.delete(change.key);
        open.delete(change.key);
        if (tk && tk.state === 'Opened' && isToday) open.set(tk.id, tk);
        if (tk && tk.state === 'Closed' && tk.closeDate && tk.closeDate >= from && tk.closeDate < to) closed.set(tk.id, tk);
        return { closed, open };
      });
    if (change.op === 'delete') return place(null);
    api.get<Ticket>(path('tickets', change.key)).then(place, (e: unknown) => e instanceof ApiError && e.status === 404 && place(null));
  });

  const closed = useMemo(() => [...(state?.closed.values() ?? [])], [state]);
  const open = useMemo(() => [...(state?.open.values() ?? [])].sort(byText((tk) => tk.location?.tableName ?? tk.name ?? '')), [state]);
  const currency = closed[0]?.totalPrice.currencyLabel ?? open[0]?.totalPrice.currencyLabel ?? null;
  const fmt = (n: number) => money(n, currency);

  const totalCents = closed.reduce((s, tk) => s + cents(tk.totalPrice.amount), 0);
  const openCents = open.reduce((s, tk) => s + cents(tk.totalPrice.amount), 0);

  const bars = useMemo<Bar[]>(() => {
    const byHour = Array.from({ length: 24 }, () => ({ cents: 0, count: 0 }));
    for (const tk of closed) {
      const h = shopClock(tk.closeDate!).hour;
      byHour[h].cents += cents(tk.totalPrice.amount);
      byHour[h].count++;
    }
    const used = byHour.map((b, h) => (b.count ? h : -1)).filter((h) => h >= 0);
    // Opening hours at least 10-22, widened to any hour that had sales (and to now).
    const first = Math.min(10, ...used);
    const last = Math.max(21, ...used, isToday ? shopClock(now).hour : 0);
    return byHour.slice(first, last + 1).map((b, i) => {
      const h = first + i;
      return { label: String(h), title: `${String(h).padStart(2, '0')}:00–${String(h + 1).padStart(2, '0')}:00`, value: fromCents(b.cents), count: b.count };
    });
  }, [closed, isToday, now]);
  const firstHour = Number(bars[0]?.label ?? 0);

  const payments = useMemo(() => {
    const sums = new Map<number, number>();
    for (const tk of closed) for (const p of netPayments(tk, typeMap)) sums.set(p.number, (sums.get(p.number) ?? 0) + p.cents);
    return [...sums.entries()].map(([number, c]) => ({ number, name: typeMap.get(number)?.name || t('paymentType', { n: number }), cents: c })).sort((a, b) => b.cents - a.cents);
  }, [closed, typeMap]);

  const waiters = useMemo(() => {
    const m = new Map<string, { name: string; count: number; cents: number }>();
    for (const tk of open) {
      const key = tk.employee?.userName ?? '—';
      const w = m.get(key) ?? { name: tk.employee?.name || key, count: 0, cents: 0 };
      w.count++;
      w.cents += cents(tk.totalPrice.amount);
      m.set(key, w);
    }
    return [...m.values()].sort((a, b) => collator.compare(a.name, b.name));
  }, [open]);

  return (
    <div class="page page-today">
      <PageHeader
        title={isToday ? t('today') : dayTitle(day)}
        subtitle={isToday ? dayTitle(day) : t('pastDay')}
        actions={<Field label={t('day')} kind="day" value={day} onChange={(v) => setQuery({ day: v && v !== today ? String(v) : null })} testId="day" />}
      />
      {error && <Notice tone="bad">{error}</Notice>}
      {!state && !error ? (
        <Spinner />
      ) : state ? (
        <>
          {!everyone && (
            <Notice tone="info">
              <span data-testid="only-yours">{t('onlyYours', { right: rightWord('TicketReadAll') })}</span>
            </Notice>
          )}
          <div class="stats">
            <Stat label={everyone ? (isToday ? t('salesSoFar') : t('sales')) : isToday ? t('mySalesSoFar') : t('mySales')} value={<span data-testid="sales-total">{fmt(fromCents(totalCents))}</span>} note={closedCount(closed.length)} tone="good" />
            <Stat label={everyone ? t('ticketsClosed') : t('myTicketsClosed')} value={<span data-testid="sales-count">{closed.length}</span>} note={closed.length ? t('average', { amount: fmt(fromCents(Math.round(totalCents / closed.length))) }) : t('noneYet')} />
            {isToday && <Stat label={t('openTickets')} value={<span data-testid="open-count">{open.length}</span>} note={open.length ? t('notPaid', { amount: fmt(fromCents(openCents)) }) : t('settled')} />}
          </div>
          <div class="grid-2">
            <Card title={everyone ? t('byHour') : t('myByHour')} class="span-2">
              {closed.length ? (
                <BarChart bars={bars} format={fmt} current={isToday ? shopClock(now).hour - firstHour : undefined} label={t('salesByHourLabel', { list: bars.filter((b) => b.count).map((b) => `${b.title} ${fmt(b.value)}`).join(', ') })} />
              ) : (
                <Empty icon="today" title={isToday ? t('noSalesToday') : t('noSalesDay')}>
                  {isToday ? t('chartFills') : null}
                </Empty>
              )}
            </Card>
            <Card title={everyone ? t('byPayment') : t('myByPayment')}>
              {payments.length ? (
                <ul class="bars-list">
                  {payments.map((p) => (
                    <li key={p.number}>
                      <div class="bars-row">
                        <span>{p.name}</span>
                        <b>{fmt(fromCents(p.cents))}</b>
                      </div>
                      <div class="meter" aria-hidden="true">
                        <span style={{ width: `${totalCents ? Math.round((p.cents / totalCents) * 100) : 0}%` }} />
                      </div>
                    </li>
                  ))}
                </ul>
              ) : (
                <Empty icon="card" title={t('noPayments')} />
              )}
            </Card>
            {isToday && (
              <Card title={t('byWaiter')}>
                {waiters.length ? (
                  <ul class="simple-list">
                    {waiters.map((w) => (
                      <li key={w.name}>
                        <span class="avatar small" aria-hidden="true">
                          {w.name.charAt(0)}
                        </span>
                        <span class="grow">{w.name}</span>
                        <Badge>{w.count}</Badge>
                        <b class="num">{fmt(fromCents(w.cents))}</b>
                      </li>
                    ))}
                  </ul>
                ) : (
                  <Empty icon="customers" title={t('nobodyOpen')} />
                )}
              </Card>
            )}
          </div>
          {isToday && (
            <Card title={t('byTable', { n: open.length })}>
              {open.length ? (
                <div class="table-cards" data-testid="open-tickets">
                  {open.map((tk) => (
                    <a key={tk.id} href={`/tickets/${encodeURIComponent(tk.id)}`} onClick={linkHandler(`/tickets/${encodeURIComponent(tk.id)}`)} class="table-card">
                      <div class="table-card-head">
                        <span class="table-name">{tk.location?.tableName ? t('table', { name: tk.location.tableName }) : tk.name || t('noTable')}</span>
                        {tk.location?.zoneName && <span class="muted">{tk.location.zoneName}</span>}
                      </div>
                      <div class="table-card-amount">{fmt(tk.totalPrice.amount)}</div>
                      <div class="table-card-meta">
                        <span>{tk.employee?.name || tk.employee?.userName}</span>
                        <span title={t('openedAt', { time: time(tk.openDate) })}>{minutesSince(tk.openDate, now.getTime())}</span>
                      </div>
                    </a>
                  ))}
                </div>
              ) : (
                <Empty icon="table" title={t('noOpen')}>
                  {t('appearAtOnce')}
                </Empty>
              )}
            </Card>
          )}
        </>
      ) : null}
    </div>
  );
}
