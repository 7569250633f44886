/**
 * Today: what the shop has sold so far and what is open at the tables. The day's tickets are
 * loaded once; after that every ticket change from the stream is fetched by its key and put in
 * place, so the numbers move as the registers close tickets, without reloading the lot.
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import { BarChart, type Bar } from '../components/BarChart';
import { Field } from '../components/Field';
import { Badge, Card, Empty, Notice, PageHeader, Spinner, Stat } from '../components/ui';
import { api, ApiError, describeError, op, path } from '../lib/api';
import { useAll } from '../lib/data';
import { byText, collator, dayStart, dayTitle, isoDay, minutesSince, money, time } from '../lib/format';
import { useLive } from '../lib/live';
import { linkHandler, useQuery } from '../lib/router';
import type { PaymentType, Ticket } from '../../shared/types';

const cents = (n: number) => Math.round(n * 100);
const fromCents = (c: number) => c / 100;

/** Payments net of change: change is handed out of the changeable (cash) payments. */
function netPayments(t: Ticket, types: Map<number, PaymentType>): Array<{ number: number; cents: number }> {
  const out = t.payments.map((p) => ({ number: p.paymentTypeNumber, cents: cents(p.amount) }));
  let change = out.reduce((s, p) => s + p.cents, 0) - cents(t.totalPrice.amount);
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
  const today = isoDay(now);
  const day = query.get('day') ?? today;
  const isToday = day === today;
  const from = dayStart(day);
  const to = dayStart(day, 1);
  const [state, setState] = useState<DayState | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [generation, setGeneration] = useState(0);
  const types = useAll<PaymentType>('paymenttypes');
  const typeMap = useMemo(() => new Map((types.data ?? []).map((t) => [t.number, t])), [types.data]);

  // The clock on the page: open-ticket ages and the current hour move on by themselves.
  useEffect(() => {
    const t = setInterval(() => setNow(new Date()), 30_000);
    return () => clearInterval(t);
  }, []);

  useEffect(() => {
    const ctrl = new AbortController();
    setState(null);
    setError(null);
    Promise.all([
      api.all<Ticket>('tickets', { filters: { IsClosed: op.eq(true), CloseDate: [op.ge(from), op.lt(to)] }, sort: 'closeDate' }, ctrl.signal),
      api.all<Ticket>('tickets', { filters: { IsClosed: op.eq(false) }, sort: 'openDate' }, ctrl.signal),
    ]).then(
      ([closed, open]) => setState({ closed: new Map(closed.map((t) => [t.id, t])), open: new Map(open.map((t) => [t.id, t])) }),
      (e: unknown) => !ctrl.signal.aborted && setError(describeError(e)),
    );
    return () => ctrl.abort();
  }, [from, to, generation]);

  useLive(['tickets'], (change) => {
    if (!change) return setGeneration((g) => g + 1);
    const place = (t: Ticket | null) =>
      setState((s) => {
        if (!s) return s;
        const closed = new Map(s.closed);
        const open = new Map(s.open);
        closed.delete(change.key);
        open.delete(change.key);
        if (t && t.state === 'Opened') open.set(t.id, t);
        if (t && t.state === 'Closed' && t.closeDate && t.closeDate >= from && t.closeDate < to) closed.set(t.id, t);
        return { closed, open };
      });
    if (change.op === 'delete') return place(null);
    api.get<Ticket>(path('tickets', change.key)).then(place, (e: unknown) => e instanceof ApiError && e.status === 404 && place(null));
  });

  const closed = useMemo(() => [...(state?.closed.values() ?? [])], [state]);
  const open = useMemo(() => [...(state?.open.values() ?? [])].sort(byText((t) => t.location?.tableName ?? t.name ?? '')), [state]);
  const currency = closed[0]?.totalPrice.currencyLabel ?? open[0]?.totalPrice.currencyLabel ?? null;
  const fmt = (n: number) => money(n, currency);

  const totalCents = closed.reduce((s, t) => s + cents(t.totalPrice.amount), 0);
  const openCents = open.reduce((s, t) => s + cents(t.totalPrice.amount), 0);

  const bars = useMemo<Bar[]>(() => {
    const byHour = Array.from({ length: 24 }, () => ({ cents: 0, count: 0 }));
    for (const t of closed) {
      const h = new Date(t.closeDate!).getHours();
      byHour[h].cents += cents(t.totalPrice.amount);
      byHour[h].count++;
    }
    const used = byHour.map((b, h) => (b.count ? h : -1)).filter((h) => h >= 0);
    // Opening hours at least 10-22, widened to any hour that had sales (and to now).
    const first = Math.min(10, ...used);
    const last = Math.max(21, ...used, isToday ? now.getHours() : 0);
    return byHour.slice(first, last + 1).map((b, i) => {
      const h = first + i;
      return { label: String(h), title: `${String(h).padStart(2, '0')}:00–${String(h + 1).padStart(2, '0')}:00`, value: fromCents(b.cents), count: b.count };
    });
  }, [closed, isToday, now]);
  const firstHour = Number(bars[0]?.label ?? 0);

  const payments = useMemo(() => {
    const sums = new Map<number, number>();
    for (const t of closed) for (const p of netPayments(t, typeMap)) sums.set(p.number, (sums.get(p.number) ?? 0) + p.cents);
    return [...sums.entries()].map(([number, c]) => ({ number, name: typeMap.get(number)?.name || `Payment type ${number}`, cents: c })).sort((a, b) => b.cents - a.cents);
  }, [closed, typeMap]);

  const waiters = useMemo(() => {
    const m = new Map<string, { name: string; count: number; cents: number }>();
    for (const t of open) {
      const key = t.employee?.userName ?? '—';
      const w = m.get(key) ?? { name: t.employee?.name || key, count: 0, cents: 0 };
      w.count++;
      w.cents += cents(t.totalPrice.amount);
      m.set(key, w);
    }
    return [...m.values()].sort((a, b) => collator.compare(a.name, b.name));
  }, [open]);

  const dayDate = new Date(from);
  return (
    <div class="page page-today">
      <PageHeader
        title={isToday ? 'Today' : dayTitle(dayDate)}
        subtitle={isToday ? dayTitle(dayDate) : 'A past day: totals of the tickets closed that day.'}
        actions={<Field label="Day" kind="day" value={day} onChange={(v) => setQuery({ day: v && v !== today ? String(v) : null })} testId="day" />}
      />
      {error && <Notice tone="bad">{error}</Notice>}
      {!state && !error ? (
        <Spinner />
      ) : state ? (
        <>
          <div class="stats">
            <Stat label={isToday ? 'Sales so far' : 'Sales'} value={<span data-testid="sales-total">{fmt(fromCents(totalCents))}</span>} note={`${closed.length} ${closed.length === 1 ? 'ticket' : 'tickets'} closed`} tone="good" />
            <Stat label="Tickets closed" value={<span data-testid="sales-count">{closed.length}</span>} note={closed.length ? `average ${fmt(fromCents(Math.round(totalCents / closed.length)))}` : 'none yet'} />
            <Stat label="Open tickets" value={<span data-testid="open-count">{open.length}</span>} note={open.length ? `${fmt(fromCents(openCents))} not yet paid` : 'every table is settled'} />
          </div>
          <div class="grid-2">
            <Card title="Sales by hour" class="span-2">
              {closed.length ? (
                <BarChart bars={bars} format={fmt} current={isToday ? now.getHours() - firstHour : undefined} label={`Sales by hour: ${bars.filter((b) => b.count).map((b) => `${b.title} ${fmt(b.value)}`).join(', ')}`} />
              ) : (
                <Empty icon="today" title={isToday ? 'No sales yet today' : 'No sales that day'}>
                  {isToday ? 'The chart fills in as the registers close tickets.' : null}
                </Empty>
              )}
            </Card>
            <Card title="Payments by type">
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
                <Empty icon="card" title="No payments yet" />
              )}
            </Card>
            <Card title="Open tickets by waiter">
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
                <Empty icon="customers" title="Nobody has an open ticket" />
              )}
            </Card>
          </div>
          <Card title={`Open tickets by table (${open.length})`}>
            {open.length ? (
              <div class="table-cards" data-testid="open-tickets">
                {open.map((t) => (
                  <a key={t.id} href={`/tickets/${encodeURIComponent(t.id)}`} onClick={linkHandler(`/tickets/${encodeURIComponent(t.id)}`)} class="table-card">
                    <div class="table-card-head">
                      <span class="table-name">{t.location?.tableName ? `Table ${t.location.tableName}` : t.name || 'No table'}</span>
                      {t.location?.zoneName && <span class="muted">{t.location.zoneName}</span>}
                    </div>
                    <div class="table-card-amount">{fmt(t.totalPrice.amount)}</div>
                    <div class="table-card-meta">
                      <span>{t.employee?.name || t.employee?.userName}</span>
                      <span title={`Opened at ${time(t.openDate)}`}>{minutesSince(t.openDate, now.getTime())}</span>
                    </div>
                  </a>
                ))}
              </div>
            ) : (
              <Empty icon="table" title="No open tickets">
                Tickets the waiters open appear here at once.
              </Empty>
            )}
          </Card>
        </>
      ) : null}
    </div>
  );
}
