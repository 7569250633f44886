/**
 * Customers: the seed's Search filter, the customer's details, loyalty cards, credit and
 * discount, and their purchase history (tickets with CustomerId, whichever card they paid with).
 * Fields that need a right the user lacks (credit, discount) are locked; the buttons for create,
 * save and delete appear only with theirs.
 */
import { DataTable, type Column } from '../components/DataTable';
import { Editor } from '../components/Editor';
import { Field } from '../components/Field';
import { Rows } from '../components/Rows';
import { Empty, PageHeader, Toolbar } from '../components/ui';
import { Badge, Button, Card, Spinner } from '../../shared/ui';
import { op } from '../lib/api';
import { useAll } from '../lib/data';
import { dateTime, money, percent } from '../lib/format';
import { linkHandler, useEditParam, useQuery } from '../lib/router';
import { useCan } from '../lib/session';
import { messages } from '../../shared/i18n';
import type { Customer, Ticket } from '../../shared/types';

const t = messages({
  name: { en: 'Name', sk: 'Meno', cs: 'Jméno' },
  company: { en: 'Company', sk: 'Firma', cs: 'Firma' },
  contact: { en: 'Contact', sk: 'Kontakt', cs: 'Kontakt' },
  cards: { en: 'Cards', sk: 'Karty', cs: 'Karty' },
  discount: { en: 'Discount', sk: 'Zľava', cs: 'Sleva' },
  credit: { en: 'Credit', sk: 'Kredit', cs: 'Kredit' },
  status: { en: 'Status', sk: 'Stav', cs: 'Stav' },
  Valid: { en: 'Valid', sk: 'Platný', cs: 'Platný' },
  Expired: { en: 'Expired', sk: 'Expirovaný', cs: 'Expirovaný' },
  NotYetValid: { en: 'Not yet valid', sk: 'Ešte neplatný', cs: 'Ještě neplatný' },
  inactive: { en: 'Inactive', sk: 'Neaktívny', cs: 'Neaktivní' },
  title: { en: 'Customers', sk: 'Zákazníci', cs: 'Zákazníci' },
  subtitle: { en: 'Regulars, companies and their loyalty cards.', sk: 'Stáli zákazníci, firmy a ich vernostné karty.', cs: 'Stálí zákazníci, firmy a jejich věrnostní karty.' },
  newCustomer: { en: 'New customer', sk: 'Nový zákazník', cs: 'Nový zákazník' },
  search: { en: 'Search', sk: 'Hľadať', cs: 'Hledat' },
  searchHint: { en: 'Name, company, VAT id or note', sk: 'Meno, firma, IČ DPH alebo poznámka', cs: 'Jméno, firma, DIČ nebo poznámka' },
  everyone: { en: 'Everyone', sk: 'Všetci', cs: 'Všichni' },
  active: { en: 'Active', sk: 'Aktívni', cs: 'Aktivní' },
  inactivePl: { en: 'Inactive', sk: 'Neaktívni', cs: 'Neaktivní' },
  expiredPl: { en: 'Expired', sk: 'Expirovaní', cs: 'Expirovaní' },
  nobody: { en: 'Nobody matches “{q}”', sk: 'Hľadaniu „{q}“ nezodpovedá nikto', cs: 'Hledání „{q}“ neodpovídá nikdo' },
  noCustomers: { en: 'No customers yet', sk: 'Zatiaľ žiadni zákazníci', cs: 'Zatím žádní zákazníci' },
  searchText: { en: 'The search looks in names, company, VAT and tax ids and notes.', sk: 'Hľadá sa v menách, firme, IČ DPH, DIČ a poznámkach.', cs: 'Hledá se ve jménech, firmě, DIČ a poznámkách.' },
  addText: { en: 'Add regulars to give them cards, credit and discounts.', sk: 'Pridajte stálych zákazníkov a dajte im karty, kredit a zľavy.', cs: 'Přidejte stálé zákazníky a dejte jim karty, kredit a slevy.' },
  noun: { en: 'Customer', sk: 'Zákazník', cs: 'Zákazník' },
  creditOf: { en: 'credit {amount}', sk: 'kredit {amount}', cs: 'kredit {amount}' },
  needName: { en: 'Give a first name, a last name or a company name.', sk: 'Zadajte meno, priezvisko alebo názov firmy.', cs: 'Zadejte jméno, příjmení nebo název firmy.' },
  firstName: { en: 'First name', sk: 'Meno', cs: 'Jméno' },
  lastName: { en: 'Last name', sk: 'Priezvisko', cs: 'Příjmení' },
  email: { en: 'E-mail', sk: 'E-mail', cs: 'E-mail' },
  phone: { en: 'Phone', sk: 'Telefón', cs: 'Telefon' },
  isCompany: { en: 'A company', sk: 'Firma', cs: 'Firma' },
  isActive: { en: 'Active', sk: 'Aktívny', cs: 'Aktivní' },
  companyName: { en: 'Company name', sk: 'Názov firmy', cs: 'Název firmy' },
  vatId: { en: 'VAT id (IČ DPH)', sk: 'IČ DPH', cs: 'DIČ' },
  taxId: { en: 'Tax id (DIČ)', sk: 'DIČ', cs: 'DIČ pro DPH (IČ DPH)' },
  benefits: { en: 'Benefits', sk: 'Výhody', cs: 'Výhody' },
  discountRight: { en: 'Changing it needs the right CustomerSetDiscount.', sk: 'Zmena vyžaduje právo CustomerSetDiscount.', cs: 'Změna vyžaduje právo CustomerSetDiscount.' },
  discountHint: { en: 'Applied to the whole ticket.', sk: 'Platí na celý účet.', cs: 'Platí na celý účet.' },
  creditRight: { en: 'Changing it needs the right CustomerSetCredit.', sk: 'Zmena vyžaduje právo CustomerSetCredit.', cs: 'Změna vyžaduje právo CustomerSetCredit.' },
  creditHint: { en: 'Prepaid money the customer can spend.', sk: 'Predplatené peniaze, ktoré môže zákazník minúť.', cs: 'Předplacené peníze, které může zákazník utratit.' },
  creditRate: { en: 'Credit rate', sk: 'Podiel do kreditu', cs: 'Podíl do kreditu' },
  creditRateHint: { en: 'Share of each purchase credited back.', sk: 'Časť každého nákupu vrátená do kreditu.', cs: 'Část každého nákupu vrácená do kreditu.' },
  validUntil: { en: 'Valid until', sk: 'Platný do', cs: 'Platný do' },
  addCard: { en: 'Add card', sk: 'Pridať kartu', cs: 'Přidat kartu' },
  noCards: { en: 'No cards: the customer is found by name.', sk: 'Žiadne karty: zákazník sa vyhľadá podľa mena.', cs: 'Žádné karty: zákazník se vyhledá podle jména.' },
  cardNumber: { en: 'Card number', sk: 'Číslo karty', cs: 'Číslo karty' },
  note: { en: 'Note', sk: 'Poznámka', cs: 'Poznámka' },
  creditHistory: { en: 'Credit history', sk: 'História kreditu', cs: 'Historie kreditu' },
  purchases: { en: 'Purchase history', sk: 'História nákupov', cs: 'Historie nákupů' },
  noPurchases: { en: 'No tickets with this customer yet', sk: 'Zatiaľ žiadne účty s týmto zákazníkom', cs: 'Zatím žádné účty s tímto zákazníkem' },
  purchasesTotal: { en: '{n} paid tickets, {amount} in all', sk: 'Zaplatené účty: {n}, spolu {amount}', cs: 'Zaplacené účty: {n}, celkem {amount}' },
  openTickets: { en: '{n} still open', sk: 'otvorené: {n}', cs: 'otevřené: {n}' },
  table: { en: 'Table {name}', sk: 'Stôl {name}', cs: 'Stůl {name}' },
  open: { en: 'Open', sk: 'Otvorený', cs: 'Otevřený' },
  receipt: { en: 'receipt {n}', sk: 'doklad {n}', cs: 'doklad {n}' },
});

const STATUS_TONE: Record<string, 'good' | 'warn' | 'neutral'> = { Valid: 'good', Expired: 'warn', NotYetValid: 'neutral' };
const statusWord = (s: string) => (s === 'Valid' || s === 'Expired' || s === 'NotYetValid' ? t(s) : s);

const columns = (): Column<Customer>[] => [
  { id: 'name', title: t('name'), sort: 'fullName', render: (c) => <b>{c.fullName || c.company?.name || c.id}</b> },
  { id: 'company', title: t('company'), render: (c) => (c.company?.name && c.company.name !== c.fullName ? c.company.name : '—'), secondary: true },
  { id: 'contact', title: t('contact'), render: (c) => c.email || c.phone || '—', secondary: true },
  { id: 'cards', title: t('cards'), render: (c) => c.cards.map((k) => k.serialNumber).join(', ') || '—' },
  { id: 'discount', title: t('discount'), align: 'right', render: (c) => percent(c.discountRate) },
  { id: 'credit', title: t('credit'), align: 'right', render: (c) => <span class="num">{money(c.credit.amount, c.credit.currencyLabel)}</span> },
  { id: 'status', title: t('status'), sort: 'status', render: (c) => (c.isActive ? <Badge tone={STATUS_TONE[c.status]}>{statusWord(c.status)}</Badge> : <Badge>{t('inactive')}</Badge>) },
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
        title={t('title')}
        subtitle={t('subtitle')}
        actions={
          can('CustomerCreate') && (
            <Button variant="primary" icon="plus" onClick={() => setEdit('new')} data-testid="new-customer">
              {t('newCustomer')}
            </Button>
          )
        }
      />
      <Toolbar>
        <div class="filter-grid">
          <Field label={t('search')} kind="search" value={search} onChange={(v) => set('q', v)} placeholder={t('searchHint')} testId="customer-search" wide />
          <Field
            label={t('status')}
            kind="select"
            value={q.get('status') ?? ''}
            onChange={(v) => set('status', v)}
            options={[
              { value: '', label: t('everyone') },
              { value: 'active', label: t('active') },
              { value: 'inactive', label: t('inactivePl') },
              { value: 'expired', label: t('expiredPl') },
            ]}
          />
        </div>
      </Toolbar>
      <Card>
        <DataTable<Customer>
          resource="customers"
          label={t('title')}
          columns={columns()}
          rowKey={(c) => c.id}
          defaultSort="fullName"
          filters={{
            Search: search.trim() ? op.contains(search.trim()) : null,
            IsActive: q.get('status') === 'active' ? op.eq(true) : q.get('status') === 'inactive' ? op.eq(false) : null,
            IsExpired: q.get('status') === 'expired' ? op.eq(true) : null,
          }}
          onOpen={(c) => setEdit(c.id)}
          selected={edit}
          empty={{ title: search ? t('nobody', { q: search }) : t('noCustomers'), text: search ? t('searchText') : t('addText') }}
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
      noun={t('noun')}
      wide
      title={(v, isNew) => (isNew ? t('newCustomer') : [v.firstName, v.lastName].filter(Boolean).join(' ') || v.company?.name || t('noun'))}
      subtitle={(v) => (v.status ? `${statusWord(v.status)} · ${t('creditOf', { amount: money(v.credit?.amount, v.credit?.currencyLabel) })}` : undefined)}
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
          !all.firstName && !all.lastName && !(all.company as { name?: string } | null)?.name ? t('needName') : null;
        return (
          <>
            <div class="form-grid">
              <Field form={form} name="firstName" label={t('firstName')} autoFocus={isNew} />
              <Field form={form} name="lastName" label={t('lastName')} validate={needName} />
              <Field form={form} name="email" label={t('email')} kind="email" />
              <Field form={form} name="phone" label={t('phone')} nullable />
              <Field form={form} name="isCompany" label={t('isCompany')} kind="switch" />
              <Field form={form} name="isActive" label={t('isActive')} kind="switch" />
            </div>
            {form.values.isCompany && (
              <div class="form-grid">
                <Field form={form} name="company.name" label={t('companyName')} nullable wide />
                <Field form={form} name="company.vatId" label={t('vatId')} nullable />
                <Field form={form} name="company.taxId" label={t('taxId')} nullable />
              </div>
            )}
            <h3>{t('benefits')}</h3>
            <div class="form-grid">
              <Field
                form={form}
                name="discountRate"
                label={t('discount')}
                kind="number"
                min={0}
                max={100}
                suffix="%"
                required
                disabled={!isNew && !can('CustomerSetDiscount')}
                hint={!isNew && !can('CustomerSetDiscount') ? t('discountRight') : t('discountHint')}
              />
              <Field
                form={form}
                name="credit.amount"
                label={t('credit')}
                kind="number"
                suffix="€"
                required
                disabled={!can('CustomerSetCredit')}
                hint={!can('CustomerSetCredit') ? t('creditRight') : t('creditHint')}
              />
              <Field form={form} name="creditRate" label={t('creditRate')} kind="number" min={0} max={100} suffix="%" hint={t('creditRateHint')} />
              <Field form={form} name="expirationTime" label={t('validUntil')} kind="date" nullable />
            </div>
            <Rows form={form} name="cards" label={t('cards')} addLabel={t('addCard')} empty={t('noCards')} newRow={() => ({ serialNumber: '', isActive: true })}>
              {(p) => (
                <>
                  <Field form={form} name={`${p}.serialNumber`} label={t('cardNumber')} required maxLength={4000} />
                  <Field form={form} name={`${p}.isActive`} label={t('isActive')} kind="switch" />
                  <Field form={form} name={`${p}.note`} label={t('note')} nullable />
                </>
              )}
            </Rows>
            <Field form={form} name="note" label={t('note')} kind="textarea" nullable />
            {stored && stored.creditTransactions?.length > 0 && (
              <>
                <h3>{t('creditHistory')}</h3>
                <ul class="simple-list">
                  {[...stored.creditTransactions].reverse().map((tr, i) => (
                    <li key={i}>
                      <span class="muted">{dateTime(tr.at)}</span>
                      <span class="grow">{tr.name || tr.userName}</span>
                      <b class={`num${tr.amount < 0 ? ' negative' : ''}`}>
                        {tr.amount > 0 ? '+' : ''}
                        {money(tr.amount)}
                      </b>
                      <span class="num muted">= {money(tr.balance)}</span>
                    </li>
                  ))}
                </ul>
              </>
            )}
            {stored && <Purchases customerId={stored.id} />}
          </>
        );
      }}
    </Editor>
  );
}

/** The customer's tickets, newest first, with what they paid in all (GET /api/tickets?CustomerId=…). */
function Purchases({ customerId }: { customerId: string }) {
  const { data, loading, error } = useAll<Ticket>('tickets', { filters: { CustomerId: op.eq(customerId) }, sort: '-openDate' }, ['tickets']);
  const closed = (data ?? []).filter((tk) => tk.state === 'Closed');
  const openCount = (data ?? []).length - closed.length;
  const cur = data?.[0]?.totalPrice.currencyLabel;
  const total = closed.reduce((s, tk) => s + Math.round(tk.totalPrice.amount * 100), 0) / 100;
  return (
    <section data-testid="purchases">
      <h3>{t('purchases')}</h3>
      {error && !data ? (
        <p class="field-error">{error}</p>
      ) : loading && !data ? (
        <Spinner />
      ) : !data?.length ? (
        <Empty icon="tickets" title={t('noPurchases')} />
      ) : (
        <>
          <p data-testid="purchases-total">
            <b>{t('purchasesTotal', { n: closed.length, amount: money(total, cur) })}</b>
            {openCount > 0 && <span class="muted"> · {t('openTickets', { n: openCount })}</span>}
          </p>
          <ul class="simple-list" data-testid="purchase-list">
            {data.map((tk) => {
              const href = `/tickets/${encodeURIComponent(tk.id)}`;
              return (
                <li key={tk.id}>
                  <span class="muted">{dateTime(tk.closeDate ?? tk.openDate)}</span>
                  <a class="grow" href={href} onClick={linkHandler(href)}>
                    {tk.location?.tableName ? t('table', { name: tk.location.tableName }) : tk.name || tk.id}
                    {tk.closeInfo ? <span class="muted small"> · {t('receipt', { n: tk.closeInfo.number })}</span> : null}
                  </a>
                  {tk.state !== 'Closed' && <Badge tone="info">{t('open')}</Badge>}
                  <b class="num">{money(tk.totalPrice.amount, tk.totalPrice.currencyLabel)}</b>
                </li>
              );
            })}
          </ul>
        </>
      )}
    </section>
  );
}
