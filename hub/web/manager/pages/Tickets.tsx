/**
 * Tickets: the seed's filters as controls (kept in the query string), a page of tickets sorted
 * by the hub, and a ticket's detail with its items, kitchen orders and their print state,
 * payments and fiscal close.
 */
import { useState } from 'preact/hooks';
import { DataTable, type Column } from '../components/DataTable';
import { Field } from '../components/Field';
import { Badge, Button, Card, Drawer, Empty, Facts, Notice, PageHeader, Segmented, Spinner, toast } from '../components/ui';
import { api, describeError, op, path, type Filters } from '../lib/api';
import { useAll, useOne, useOptions } from '../lib/data';
import { dateTime, dayStart, money, percent, quantity, time } from '../lib/format';
import { navigate, useQuery } from '../lib/router';
import type { Device, HubUser, Order, PaymentType, Ticket } from '../../shared/types';

const FILTER_KEYS = ['state', 'device', 'table', 'waiter', 'from', 'to', 'card', 'discount', 'returned'] as const;

const yesNo = (v: string | null) => (v === 'yes' ? op.eq(true) : v === 'no' ? op.eq(false) : null);

export function ticketFilters(q: URLSearchParams): Filters {
  const state = q.get('state');
  return {
    IsClosed: state === 'open' ? op.eq(false) : state === 'closed' ? op.eq(true) : null,
    DeviceName: q.get('device') ? op.in([q.get('device')!]) : null,
    LocationTableName: q.get('table') ? op.eq(q.get('table')!.trim()) : null,
    EmployeeUserName: q.get('waiter') ? op.eq(q.get('waiter')!) : null,
    OpenDate: op.range(q.get('from') ? dayStart(q.get('from')!) : null, q.get('to') ? dayStart(q.get('to')!, 1) : null),
    CustomerCardSerialNumber: q.get('card') ? op.eq(q.get('card')!.trim()) : null,
    HasDiscount: yesNo(q.get('discount')),
    HasReturnedItem: yesNo(q.get('returned')),
  };
}

const stateBadge = (t: Ticket) => (t.state === 'Closed' ? <Badge tone="neutral">Closed</Badge> : <Badge tone="info">Open</Badge>);
const where = (t: Ticket) => (t.location?.tableName ? `Table ${t.location.tableName}` : t.name || '—');

const COLUMNS: Column<Ticket>[] = [
  { id: 'table', title: 'Ticket', sort: 'location.tableName', render: (t) => <b>{where(t)}</b> },
  { id: 'opened', title: 'Opened', sort: 'openDate', render: (t) => dateTime(t.openDate) },
  { id: 'closed', title: 'Closed', sort: 'closeDate', render: (t) => (t.closeDate ? time(t.closeDate) : '—'), secondary: true },
  { id: 'waiter', title: 'Waiter', sort: 'employee.userName', render: (t) => t.employee?.name || t.employee?.userName || '—' },
  { id: 'device', title: 'Register', render: (t) => t.closeInfo?.deviceName ?? t.originDeviceName, secondary: true },
  { id: 'receipt', title: 'Receipt', sort: 'closeInfo.number', align: 'right', render: (t) => t.closeInfo?.number ?? '—', secondary: true },
  { id: 'total', title: 'Total', sort: 'totalPrice.amount', align: 'right', render: (t) => <b class="num">{money(t.totalPrice.amount, t.totalPrice.currencyLabel)}</b> },
  { id: 'state', title: 'State', render: stateBadge },
];

export function Tickets({ openId }: { openId: string | null }) {
  const [q, setQuery] = useQuery();
  const [showFilters, setShowFilters] = useState(false);
  const devices = useOptions<Device>('devices', (d) => d.name);
  const waiters = useOptions<HubUser>('users', (u) => u.userName, (u) => u.name || u.userName);
  const set = (key: string, value: unknown) => setQuery({ [key]: value === null || value === undefined ? null : String(value), page: null });
  const active = FILTER_KEYS.filter((k) => q.get(k)).length;
  const search = window.location.search;

  return (
    <div class="page">
      <PageHeader
        title="Tickets"
        subtitle="Every ticket of every register, open and closed."
        actions={
          <Button class="only-narrow" icon="filter" onClick={() => setShowFilters(!showFilters)} aria-expanded={showFilters}>
            Filters{active ? ` (${active})` : ''}
          </Button>
        }
      />
      <Card class={`filters${showFilters ? ' open' : ''}`}>
        <div class="filter-grid">
          <Segmented
            label="State"
            value={q.get('state') ?? ''}
            onChange={(v) => set('state', v || null)}
            options={[
              { value: '', label: 'All' },
              { value: 'open', label: 'Open' },
              { value: 'closed', label: 'Closed' },
            ]}
          />
          <Field label="Register" kind="select" emptyOption="Any register" value={q.get('device') ?? ''} onChange={(v) => set('device', v)} options={devices} testId="filter-device" />
          <Field label="Table" value={q.get('table') ?? ''} onChange={(v) => set('table', v)} placeholder="e.g. 5" testId="filter-table" />
          <Field label="Waiter" kind="select" emptyOption="Anyone" value={q.get('waiter') ?? ''} onChange={(v) => set('waiter', v)} options={waiters} testId="filter-waiter" />
          <Field label="Opened from" kind="day" value={q.get('from')} onChange={(v) => set('from', v)} testId="filter-from" />
          <Field label="Opened until" kind="day" value={q.get('to')} onChange={(v) => set('to', v)} testId="filter-to" />
          <Field label="Customer card" value={q.get('card') ?? ''} onChange={(v) => set('card', v)} placeholder="card number" testId="filter-card" />
          <Field
            label="Discount"
            kind="select"
            value={q.get('discount') ?? ''}
            onChange={(v) => set('discount', v)}
            options={[
              { value: '', label: 'Any' },
              { value: 'yes', label: 'With a discount' },
              { value: 'no', label: 'Without discount' },
            ]}
            testId="filter-discount"
          />
          <Field
            label="Returned items"
            kind="select"
            value={q.get('returned') ?? ''}
            onChange={(v) => set('returned', v)}
            options={[
              { value: '', label: 'Any' },
              { value: 'yes', label: 'With returns' },
              { value: 'no', label: 'Without returns' },
            ]}
            testId="filter-returned"
          />
        </div>
        {active > 0 && (
          <div class="filter-foot">
            <Button small variant="ghost" icon="close" onClick={() => setQuery(Object.fromEntries([...FILTER_KEYS, 'page'].map((k) => [k, null])))}>
              Clear filters
            </Button>
          </div>
        )}
      </Card>
      <Card>
        <DataTable<Ticket>
          resource="tickets"
          label="Tickets"
          columns={COLUMNS}
          filters={ticketFilters(q)}
          defaultSort="-openDate"
          rowKey={(t) => t.id}
          selected={openId}
          onOpen={(t) => navigate(`/tickets/${encodeURIComponent(t.id)}${search}`)}
          empty={{ title: active ? 'No ticket matches these filters' : 'No tickets yet', text: active ? 'Try fewer filters.' : 'Tickets appear here as soon as a register opens one.' }}
        />
      </Card>
      {openId && <TicketDetail id={openId} onClose={() => navigate(`/tickets${search}`)} />}
    </div>
  );
}

function TicketDetail({ id, onClose }: { id: string; onClose: () => void }) {
  const { data: t, error, notFound } = useOne<Ticket>(path('tickets', id), ['tickets']);
  const orders = useAll<Order>('orders', { filters: { ticketId: op.eq(id) }, sort: 'createdAt' });
  const types = useAll<PaymentType>('paymenttypes');
  const cur = t?.totalPrice.currencyLabel;
  return (
    <Drawer wide title={t ? where(t) : 'Ticket'} subtitle={t ? <>{stateBadge(t)} opened {dateTime(t.openDate)} by {t.employee?.name || t.employee?.userName}</> : undefined} onClose={onClose}>
      {notFound ? (
        <Notice tone="warn">This ticket no longer exists (it was deleted on a register).</Notice>
      ) : error && !t ? (
        <Notice tone="bad">{error}</Notice>
      ) : !t ? (
        <Spinner />
      ) : (
        <div class="detail" data-testid="ticket-detail">
          <div class="detail-total">
            <span>Total</span>
            <b>{money(t.totalPrice.amount, cur)}</b>
          </div>
          <Facts
            items={[
              ['Ticket', t.name || t.id],
              ['Table', t.location?.tableName ? `${t.location.tableName}${t.location.zoneName ? ` · ${t.location.zoneName}` : ''}` : '—'],
              ['Waiter', t.employee ? `${t.employee.name} (${t.employee.userName})` : '—'],
              ['Register', t.originDeviceName],
              ['Purchase', t.purchaseType],
              ['Customer', t.customer ? `${t.customer.fullName ?? t.customer.id ?? ''}${t.customer.cardSerialNumber ? ` · card ${t.customer.cardSerialNumber}` : ''}` : '—'],
              ['Discount', percent(t.discountRate)],
              ['Closed', t.closeDate ? dateTime(t.closeDate) : 'still open'],
            ]}
          />
          {t.note && <Notice>{t.note}</Notice>}

          <h3>Items</h3>
          {t.items.length ? (
            <div class="table-scroll">
              <table class="compact" aria-label="Items">
                <thead>
                  <tr>
                    <th class="al-right">Qty</th>
                    <th>Item</th>
                    <th class="al-right">Price</th>
                    <th class="al-right secondary">Discount</th>
                    <th class="al-right">Total</th>
                  </tr>
                </thead>
                <tbody>
                  {t.items.map((i) => (
                    <tr key={i.id} class={i.type === 'Negative' ? 'returned' : ''}>
                      <td class="al-right num">{quantity(i.quantity)}×</td>
                      <td>
                        {i.plu.name} {i.type === 'Negative' && <Badge tone="warn">Returned</Badge>}
                        {i.modifiers.length > 0 && <div class="muted small">{i.modifiers.map((m) => `${m.quantity > 1 ? `${m.quantity}× ` : ''}${m.name ?? m.optionId}`).join(', ')}</div>}
                        {i.comment && <div class="muted small">“{i.comment}”</div>}
                      </td>
                      <td class="al-right num">{money(i.unitPrice.amount, cur)}</td>
                      <td class="al-right secondary">{percent(i.discountRate)}</td>
                      <td class="al-right num">{money(i.totalPrice.amount, cur)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : (
            <Empty title="No items on this ticket" />
          )}

          <h3>Kitchen orders</h3>
          {orders.data?.length ? (
            <ul class="orders">
              {orders.data.map((o) => (
                <OrderRow key={o.id} order={o} />
              ))}
            </ul>
          ) : orders.loading ? (
            <Spinner />
          ) : (
            <Empty title="No kitchen orders" icon="printer">
              Items that go to no printer (drinks from the bar, say) make no order.
            </Empty>
          )}

          <h3>Payments</h3>
          {t.payments.length ? (
            <ul class="simple-list">
              {t.payments.map((p, i) => (
                <li key={i}>
                  <span class="grow">{types.data?.find((x) => x.number === p.paymentTypeNumber)?.name ?? p.name ?? `Payment type ${p.paymentTypeNumber}`}</span>
                  <b class="num">{money(p.amount, cur)}</b>
                </li>
              ))}
            </ul>
          ) : (
            <Empty icon="card" title="Not paid yet" />
          )}

          {t.closeInfo && (
            <>
              <h3>Fiscal receipt</h3>
              <Facts
                items={[
                  ['Receipt number', <b data-testid="receipt-number">{t.closeInfo.number}</b>],
                  ['Fiscal device', t.closeInfo.fiscalName],
                  ['Daily report (Z) no.', t.closeInfo.dailySalesReportNumber],
                  ['Fiscal memory', t.closeInfo.fiscalMemorySerialNumber],
                  ['Closed on', t.closeInfo.deviceName],
                ]}
              />
            </>
          )}
        </div>
      )}
    </Drawer>
  );
}

const PRINT_TONE: Record<string, 'good' | 'warn' | 'bad' | 'info' | 'neutral'> = { Printed: 'good', Queued: 'info', Printing: 'info', Waiting: 'warn', Unknown: 'warn', Failed: 'bad' };

function OrderRow({ order: o }: { order: Order }) {
  const [busy, setBusy] = useState(false);
  const reprint = async () => {
    setBusy(true);
    try {
      await api.post(`${path('orders', o.id)}/reprint`);
      toast(`A copy of the order goes to ${o.orderEndpointName}.`);
    } catch (e) {
      toast(describeError(e, 'This hub cannot reprint orders yet.'), 'bad');
    } finally {
      setBusy(false);
    }
  };
  return (
    <li class={`order${o.kind === 'Cancel' ? ' order-cancel' : ''}`}>
      <div class="order-head">
        <b>{o.orderEndpointName}</b>
        {o.kind === 'Cancel' && <Badge tone="bad">Cancel</Badge>}
        <span class="muted">{time(o.createdAt)}</span>
        <span class="spacer" />
        <Badge tone={PRINT_TONE[o.print.state] ?? 'neutral'}>{o.print.state}</Badge>
        <Badge>{o.state}</Badge>
      </div>
      <div class="order-items">{o.items.map((i) => `${quantity(i.quantity)}× ${i.name}`).join(', ')}</div>
      {o.print.lastError && <div class="field-error">{o.print.lastError}</div>}
      <div class="order-foot">
        <span class="muted small">{o.print.printedAt ? `printed ${time(o.print.printedAt)}` : o.print.attempts ? `${o.print.attempts} attempts` : 'not printed yet'}</span>
        {/* A copy of what was printed (or given up on); an order still on its way needs none. */}
        {['Printed', 'Failed', 'Unknown'].includes(o.print.state) && (
          <Button small variant="ghost" icon="printer" busy={busy} onClick={reprint}>
            Reprint
          </Button>
        )}
      </div>
    </li>
  );
}
