/**
 * Customers: the seed's Search filter, the customer's details, loyalty cards, credit and
 * discount. Fields that need a right the user lacks (credit, discount) are locked; the buttons
 * for create, save and delete appear only with theirs.
 */
import { DataTable, type Column } from '../components/DataTable';
import { Editor } from '../components/Editor';
import { Field } from '../components/Field';
import { Rows } from '../components/Rows';
import { Badge, Button, Card, PageHeader, Toolbar } from '../components/ui';
import { op } from '../lib/api';
import { dateTime, money, percent } from '../lib/format';
import { useQuery } from '../lib/router';
import { useCan } from '../lib/session';
import type { Customer } from '../../shared/types';
import { useEditParam } from './Catalog';

const STATUS_TONE: Record<string, 'good' | 'warn' | 'neutral'> = { Valid: 'good', Expired: 'warn', NotYetValid: 'neutral' };

const COLUMNS: Column<Customer>[] = [
  { id: 'name', title: 'Name', sort: 'fullName', render: (c) => <b>{c.fullName || c.company?.name || c.id}</b> },
  { id: 'company', title: 'Company', render: (c) => (c.company?.name && c.company.name !== c.fullName ? c.company.name : '—'), secondary: true },
  { id: 'contact', title: 'Contact', render: (c) => c.email || c.phone || '—', secondary: true },
  { id: 'cards', title: 'Cards', render: (c) => c.cards.map((k) => k.serialNumber).join(', ') || '—' },
  { id: 'discount', title: 'Discount', align: 'right', render: (c) => percent(c.discountRate) },
  { id: 'credit', title: 'Credit', align: 'right', render: (c) => <span class="num">{money(c.credit.amount, c.credit.currencyLabel)}</span> },
  { id: 'status', title: 'Status', sort: 'status', render: (c) => (c.isActive ? <Badge tone={STATUS_TONE[c.status]}>{c.status === 'NotYetValid' ? 'Not yet valid' : c.status}</Badge> : <Badge>Inactive</Badge>) },
];

const EMPTY: Partial<Customer> = {
  isActive: true,
  firstName: '',
  lastName: '',
  email: '',
  phone: null,
  isCompany: false,
  company: null,
  credit: { amount: 0, currencyLabel: null },
  cards: [],
  creditRate: 0,
  discountRate: 0,
  activationTime: null,
  expirationTime: null,
  note: null,
};

export function Customers() {
  const [q, setQuery] = useQuery();
  const [edit, setEdit] = useEditParam();
  const can = useCan();
  const search = q.get('q') ?? '';
  const set = (k: string, v: unknown) => setQuery({ [k]: v ? String(v) : null, page: null });
  return (
    <div class="page">
      <PageHeader
        title="Customers"
        subtitle="Regulars, companies and their loyalty cards."
        actions={
          can('CustomerCreate') && (
            <Button variant="primary" icon="plus" onClick={() => setEdit('new')} data-testid="new-customer">
              New customer
            </Button>
          )
        }
      />
      <Toolbar>
        <div class="filter-grid">
          <Field label="Search" kind="search" value={search} onChange={(v) => set('q', v)} placeholder="Name, company, VAT id or note" testId="customer-search" wide />
          <Field
            label="Status"
            kind="select"
            value={q.get('status') ?? ''}
            onChange={(v) => set('status', v)}
            options={[
              { value: '', label: 'Everyone' },
              { value: 'active', label: 'Active' },
              { value: 'inactive', label: 'Inactive' },
              { value: 'expired', label: 'Expired' },
            ]}
          />
        </div>
      </Toolbar>
      <Card>
        <DataTable<Customer>
          resource="customers"
          label="Customers"
          columns={COLUMNS}
          rowKey={(c) => c.id}
          defaultSort="fullName"
          filters={{
            Search: search.trim() ? op.contains(search.trim()) : null,
            IsActive: q.get('status') === 'active' ? op.eq(true) : q.get('status') === 'inactive' ? op.eq(false) : null,
            IsExpired: q.get('status') === 'expired' ? op.eq(true) : null,
          }}
          onOpen={(c) => setEdit(c.id)}
          selected={edit}
          empty={{ title: search ? `Nobody matches “${search}”` : 'No customers yet', text: search ? 'The search looks in names, company, VAT and tax ids and notes.' : 'Add regulars to give them cards, credit and discounts.' }}
        />
      </Card>
      {edit && <CustomerEditor editKey={edit === 'new' ? null : edit} onClose={() => setEdit(null)} />}
    </div>
  );
}

function CustomerEditor({ editKey, onClose }: { editKey: string | null; onClose: () => void }) {
  const can = useCan();
  return (
    <Editor<Customer>
      resource="customers"
      editKey={editKey}
      noun="Customer"
      wide
      title={(v, isNew) => (isNew ? 'New customer' : [v.firstName, v.lastName].filter(Boolean).join(' ') || v.company?.name || 'Customer')}
      subtitle={(v) => (v.status ? `${v.status === 'Valid' ? 'Valid' : v.status} · credit ${money(v.credit?.amount, v.credit?.currencyLabel)}` : undefined)}
      defaults={EMPTY}
      rights={{ create: 'CustomerCreate', update: 'CustomerUpdate', delete: 'CustomerDelete' }}
      toBody={(v, isNew) => {
        const { id, ...rest } = v;
        return isNew ? rest : { id, ...rest };
      }}
      onClose={onClose}
    >
      {(form, { isNew, stored }) => {
        const needName = (_: unknown, all: Record<string, unknown>) =>
          !all.firstName && !all.lastName && !(all.company as { name?: string } | null)?.name ? 'Give a first name, a last name or a company name.' : null;
        return (
          <>
            <div class="form-grid">
              <Field form={form} name="firstName" label="First name" autoFocus={isNew} />
              <Field form={form} name="lastName" label="Last name" validate={needName} />
              <Field form={form} name="email" label="E-mail" kind="email" />
              <Field form={form} name="phone" label="Phone" nullable />
              <Field form={form} name="isCompany" label="A company" kind="switch" />
              <Field form={form} name="isActive" label="Active" kind="switch" />
            </div>
            {form.values.isCompany && (
              <div class="form-grid">
                <Field form={form} name="company.name" label="Company name" nullable wide />
                <Field form={form} name="company.vatId" label="VAT id (IČ DPH)" nullable />
                <Field form={form} name="company.taxId" label="Tax id (DIČ)" nullable />
              </div>
            )}
            <h3>Benefits</h3>
            <div class="form-grid">
              <Field
                form={form}
                name="discountRate"
                label="Discount"
                kind="number"
                min={0}
                max={100}
                suffix="%"
                required
                disabled={!isNew && !can('CustomerSetDiscount')}
                hint={!isNew && !can('CustomerSetDiscount') ? 'Changing it needs the right CustomerSetDiscount.' : 'Applied to the whole ticket.'}
              />
              <Field
                form={form}
                name="credit.amount"
                label="Credit"
                kind="number"
                suffix="€"
                required
                disabled={!can('CustomerSetCredit')}
                hint={!can('CustomerSetCredit') ? 'Changing it needs the right CustomerSetCredit.' : 'Prepaid money the customer can spend.'}
              />
              <Field form={form} name="creditRate" label="Credit rate" kind="number" min={0} max={100} suffix="%" hint="Share of each purchase credited back." />
              <Field form={form} name="expirationTime" label="Valid until" kind="date" nullable />
            </div>
            <Rows form={form} name="cards" label="Cards" addLabel="Add card" empty="No cards: the customer is found by name." newRow={() => ({ serialNumber: '', isActive: true })}>
              {(p) => (
                <>
                  <Field form={form} name={`${p}.serialNumber`} label="Card number" required maxLength={4000} />
                  <Field form={form} name={`${p}.isActive`} label="Active" kind="switch" />
                  <Field form={form} name={`${p}.note`} label="Note" nullable />
                </>
              )}
            </Rows>
            <Field form={form} name="note" label="Note" kind="textarea" nullable />
            {stored && stored.creditTransactions?.length > 0 && (
              <>
                <h3>Credit history</h3>
                <ul class="simple-list">
                  {[...stored.creditTransactions].reverse().map((t, i) => (
                    <li key={i}>
                      <span class="muted">{dateTime(t.at)}</span>
                      <span class="grow">{t.userName}</span>
                      <b class={`num${t.amount < 0 ? ' negative' : ''}`}>
                        {t.amount > 0 ? '+' : ''}
                        {money(t.amount)}
                      </b>
                      <span class="num muted">= {money(t.balance)}</span>
                    </li>
                  ))}
                </ul>
              </>
            )}
          </>
        );
      }}
    </Editor>
  );
}
