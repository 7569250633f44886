/**
 * Head office's page: the stores (online, backlog, catalog, dead letters), sales of the last 7
 * days by store and by day, the events put aside as dead letters, HQ's users (for a user who
 * manages them) and one's own password. Everything a store sent is rendered as text by Preact,
 * never as HTML (CONTRACT §12 Pages): a store's name, a refusal's detail, a dead letter's payload.
 */
import { useEffect, useState } from 'preact/hooks';
import type { JSX } from 'preact';
import { chosenLanguage, intlLocale, messages, setLanguage, useLanguage } from '../shared/i18n';
import { LanguagePicker } from '../shared/LanguagePicker';
import { Badge, Button, Card, Notice } from '../shared/ui';
import { lastSevenDays } from './span';
import { ApiError, api, currentUser, logIn, logOut, loggedIn, whenLoggedOut, type DeadLetter, type HqUser, type SalesRow, type StoreRow } from './api';
import { browserZone, shopZone } from '../shared/days';

const t = messages({
  title: { en: 'POS Hub · Head office', sk: 'POS Hub · Centrála', cs: 'POS Hub · Centrála' },
  logIn: { en: 'Log in', sk: 'Prihlásiť sa', cs: 'Přihlásit se' },
  logOut: { en: 'Log out', sk: 'Odhlásiť sa', cs: 'Odhlásit se' },
  userName: { en: 'User name', sk: 'Používateľské meno', cs: 'Uživatelské jméno' },
  password: { en: 'Password', sk: 'Heslo', cs: 'Heslo' },
  stores: { en: 'Stores', sk: 'Predajne', cs: 'Prodejny' },
  sales: { en: 'Sales', sk: 'Predaj', cs: 'Prodej' },
  deadLetters: { en: 'Dead letters', sk: 'Odložené udalosti', cs: 'Odložené události' },
  users: { en: 'Users', sk: 'Používatelia', cs: 'Uživatelé' },
  myPassword: { en: 'My password', sk: 'Moje heslo', cs: 'Moje heslo' },
  store: { en: 'Store', sk: 'Predajňa', cs: 'Prodejna' },
  state: { en: 'State', sk: 'Stav', cs: 'Stav' },
  online: { en: 'online', sk: 'online', cs: 'online' },
  offline: { en: 'offline', sk: 'offline', cs: 'offline' },
  lastSeen: { en: 'Last seen', sk: 'Naposledy', cs: 'Naposledy' },
  published: { en: 'Published', sk: 'Odoslané', cs: 'Odesláno' },
  atHq: { en: 'At HQ', sk: 'V centrále', cs: 'V centrále' },
  backlog: { en: 'Backlog', sk: 'Čaká', cs: 'Čeká' },
  catalog: { en: 'Catalog', sk: 'Katalóg', cs: 'Katalog' },
  catalogOf: { en: '{applied} of {version}', sk: '{applied} z {version}', cs: '{applied} z {version}' },
  refused: { en: 'v{version} refused: {detail}', sk: 'v{version} odmietnutá: {detail}', cs: 'v{version} odmítnuta: {detail}' },
  nothing: { en: 'Nothing yet', sk: 'Zatiaľ nič', cs: 'Zatím nic' },
  byStore: { en: 'Sales by store, last 7 days', sk: 'Predaj podľa predajní, posledných 7 dní', cs: 'Prodej podle prodejen, posledních 7 dní' },
  byDay: { en: 'Sales by day, last 7 days', sk: 'Predaj podľa dní, posledných 7 dní', cs: 'Prodej podle dní, posledních 7 dní' },
  day: { en: 'Day', sk: 'Deň', cs: 'Den' },
  tickets: { en: 'Tickets', sk: 'Účty', cs: 'Účty' },
  total: { en: 'Total', sk: 'Spolu', cs: 'Celkem' },
  seq: { en: 'Seq', sk: 'Poradie', cs: 'Pořadí' },
  reason: { en: 'Reason', sk: 'Dôvod', cs: 'Důvod' },
  payload: { en: 'What came', sk: 'Čo prišlo', cs: 'Co přišlo' },
  received: { en: 'Received', sk: 'Prijaté', cs: 'Přijato' },
  rights: { en: 'Rights', sk: 'Práva', cs: 'Práva' },
  ReportRead: { en: 'Reports (read)', sk: 'Prehľady (čítanie)', cs: 'Přehledy (čtení)' },
  CatalogPush: { en: 'Catalog changes', sk: 'Zmeny katalógu', cs: 'Změny katalogu' },
  UserManage: { en: 'Users', sk: 'Používatelia', cs: 'Uživatelé' },
  newPasswordOptional: { en: 'New password (blank: unchanged)', sk: 'Nové heslo (prázdne: bez zmeny)', cs: 'Nové heslo (prázdné: beze změny)' },
  save: { en: 'Save', sk: 'Uložiť', cs: 'Uložit' },
  remove: { en: 'Delete', sk: 'Zmazať', cs: 'Smazat' },
  addUser: { en: 'Add or change a user', sk: 'Pridať alebo zmeniť používateľa', cs: 'Přidat nebo změnit uživatele' },
  currentPassword: { en: 'Current password', sk: 'Súčasné heslo', cs: 'Současné heslo' },
  newPassword: { en: 'New password', sk: 'Nové heslo', cs: 'Nové heslo' },
  changePassword: { en: 'Change password', sk: 'Zmeniť heslo', cs: 'Změnit heslo' },
  passwordChanged: { en: 'Password changed. Your other sessions have ended.', sk: 'Heslo je zmenené. Vaše ostatné prihlásenia skončili.', cs: 'Heslo je změněno. Vaše ostatní přihlášení skončila.' },
  saved: { en: 'Saved.', sk: 'Uložené.', cs: 'Uloženo.' },
  failed: { en: 'Could not load: {detail}', sk: 'Nepodarilo sa načítať: {detail}', cs: 'Nepodařilo se načíst: {detail}' },
  hqTime: { en: 'Head office time: {zone}', sk: 'Čas centrály: {zone}', cs: 'Čas centrály: {zone}' },
  hqTimeHint: {
    en: 'Days and times on this page are head office’s ({zone}), not this computer’s.',
    sk: 'Dni a časy na tejto stránke sú podľa centrály ({zone}), nie podľa tohto počítača.',
    cs: 'Dny a časy na této stránce jsou podle centrály ({zone}), ne podle tohoto počítače.',
  },
  noAnswer: { en: 'Head office does not answer (the network, or the service is restarting). Try again.', sk: 'Centrála neodpovedá (sieť, alebo sa služba reštartuje). Skúste to znova.', cs: 'Centrála neodpovídá (síť, nebo se služba restartuje). Zkuste to znovu.' },
});

type View = 'stores' | 'sales' | 'dead' | 'users' | 'password';

// On HQ's clock (POS_HQ_TIMEZONE, named by its session answer), as its days are.
const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString(intlLocale(), { timeZone: shopZone() }) : '—');
const money = (n: number) => new Intl.NumberFormat(intlLocale(), { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(n);
// Anything but the API's answer is a call that did not get one: cut off, refused, or past its deadline.
const describe = (e: unknown) => (e instanceof ApiError ? [e.message, ...e.members.map((m) => `${m.memberName}: ${m.message}`)].join(' ') : t('noAnswer'));

function Table(props: { head: string[]; rows: JSX.Element[]; testId?: string }) {
  return (
    <table data-testid={props.testId}>
      <thead>
        <tr>{props.head.map((h) => <th key={h}>{h}</th>)}</tr>
      </thead>
      <tbody>{props.rows.length ? props.rows : <tr><td class="muted" colSpan={props.head.length}>{t('nothing')}</td></tr>}</tbody>
    </table>
  );
}

/** Loads `load` now and every 10 s; the latest answer, or the error. */
function usePolled<T>(load: () => Promise<T>, deps: unknown[] = []): { data?: T; error?: string; reload: () => void } {
  const [state, setState] = useState<{ data?: T; error?: string }>({});
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    const run = () => load().then((data) => live && setState({ data }), (e: unknown) => live && setState((s) => ({ ...s, error: describe(e) })));
    run();
    const timer = setInterval(run, 10_000);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [tick, ...deps]);
  return { ...state, reload: () => setTick((n) => n + 1) };
}

function Stores() {
  const { data, error } = usePolled(() => api<{ items: StoreRow[] }>('GET', '/stores?$take=1000'));
  return (
    <Card title={t('stores')}>
      {error && <Notice tone="bad">{t('failed', { detail: error })}</Notice>}
      <Table
        testId="stores"
        head={[t('store'), t('state'), t('lastSeen'), t('published'), t('atHq'), t('backlog'), t('catalog'), t('deadLetters')]}
        rows={(data?.items ?? []).map((s) => (
          <tr key={s.storeId}>
            <td>
              {s.name || s.storeId} <span class="muted">{s.storeId}</span>
            </td>
            <td>{s.online ? <Badge tone="good">{t('online')}</Badge> : <Badge tone="bad">{t('offline')}</Badge>}</td>
            <td>{when(s.lastSeenAt)}</td>
            <td class="n">{s.publishedSeq}</td>
            <td class="n">{s.ingestedSeq}</td>
            <td class="n">{s.backlog ? <Badge tone="warn">{s.backlog}</Badge> : 0}</td>
            <td>
              {s.appliedCatalogVersion === s.catalogVersion ? (
                <Badge tone="good">v{s.catalogVersion}</Badge>
              ) : (
                <Badge tone="warn">{t('catalogOf', { applied: s.appliedCatalogVersion, version: s.catalogVersion })}</Badge>
              )}
              {s.catalogError && <div class="refusal">{t('refused', { version: s.catalogError.version, detail: s.catalogError.detail })}</div>}
            </td>
            <td class="n">{s.deadLetters ? <Badge tone="bad">{s.deadLetters}</Badge> : 0}</td>
          </tr>
        ))}
      />
    </Card>
  );
}

function Sales() {
  const span = () => new URLSearchParams(lastSevenDays(new Date(), shopZone())).toString();
  const byStore = usePolled(() => api<{ rows: SalesRow[] }>('GET', `/reports/sales?groupBy=store&${span()}`));
  const byDay = usePolled(() => api<{ rows: SalesRow[] }>('GET', `/reports/sales?groupBy=day&${span()}`));
  const row = (key: string, r: SalesRow) => (
    <tr key={key}>
      <td>{key}</td>
      <td class="n">{r.tickets}</td>
      <td class="n">{money(r.total)}</td>
    </tr>
  );
  return (
    <>
      <Card title={t('byStore')}>
        {byStore.error && <Notice tone="bad">{t('failed', { detail: byStore.error })}</Notice>}
        <Table testId="sales-by-store" head={[t('store'), t('tickets'), t('total')]} rows={(byStore.data?.rows ?? []).map((r) => row(r.storeId ?? '', r))} />
      </Card>
      <Card title={t('byDay')}>
        {byDay.error && <Notice tone="bad">{t('failed', { detail: byDay.error })}</Notice>}
        <Table testId="sales-by-day" head={[t('day'), t('tickets'), t('total')]} rows={(byDay.data?.rows ?? []).map((r) => row(r.day ?? '', r))} />
      </Card>
    </>
  );
}

function DeadLetters() {
  const { data, error } = usePolled(() => api<{ items: DeadLetter[] }>('GET', '/deadletters?$take=200'));
  return (
    <Card title={t('deadLetters')}>
      {error && <Notice tone="bad">{t('failed', { detail: error })}</Notice>}
      <Table
        testId="dead-letters"
        head={[t('received'), t('store'), t('seq'), t('reason'), t('payload')]}
        rows={(data?.items ?? []).map((d) => (
          <tr key={d.id}>
            <td>{when(d.receivedAt)}</td>
            <td>{d.storeId}</td>
            <td class="n">{d.seq ?? '—'}</td>
            <td class="wrap">{d.reason}</td>
            <td class="wrap">
              <code>{d.payload.length > 300 ? `${d.payload.slice(0, 300)}…` : d.payload}</code>
            </td>
          </tr>
        ))}
      />
    </Card>
  );
}

const RIGHTS = ['ReportRead', 'CatalogPush', 'UserManage'] as const;

function Users() {
  const { data, error, reload } = usePolled(() => api<{ items: HqUser[] }>('GET', '/users'));
  const [form, setForm] = useState({ userName: '', password: '', rights: ['ReportRead'] as string[] });
  const [said, setSaid] = useState('');
  const save = async (e: Event) => {
    e.preventDefault();
    try {
      await api('PUT', `/users/${encodeURIComponent(form.userName)}`, { rights: form.rights, ...(form.password ? { password: form.password } : {}) });
      setSaid(t('saved'));
      setForm({ ...form, password: '' });
      reload();
    } catch (err) {
      setSaid(describe(err));
    }
  };
  const remove = async (userName: string) => {
    try {
      await api('DELETE', `/users/${encodeURIComponent(userName)}`);
      reload();
    } catch (err) {
      setSaid(describe(err));
    }
  };
  return (
    <Card title={t('users')}>
      {error && <Notice tone="bad">{t('failed', { detail: error })}</Notice>}
      <Table
        head={[t('userName'), t('rights'), '']}
        rows={(data?.items ?? []).map((u) => (
          <tr key={u.userName}>
            <td>
              <button type="button" class="link" onClick={() => setForm({ userName: u.userName, password: '', rights: u.rights })}>
                {u.userName}
              </button>
            </td>
            <td>{u.rights.map((r) => (RIGHTS as readonly string[]).includes(r) ? t(r as (typeof RIGHTS)[number]) : r).join(', ')}</td>
            <td>
              <Button small variant="danger" onClick={() => void remove(u.userName)}>
                {t('remove')}
              </Button>
            </td>
          </tr>
        ))}
      />
      <h3>{t('addUser')}</h3>
      <form onSubmit={save}>
        <label>
          {t('userName')}
          <input value={form.userName} onInput={(e) => setForm({ ...form, userName: e.currentTarget.value })} autocomplete="off" />
        </label>
        <label>
          {t('newPasswordOptional')}
          <input type="password" value={form.password} onInput={(e) => setForm({ ...form, password: e.currentTarget.value })} autocomplete="new-password" />
        </label>
        <fieldset>
          <legend>{t('rights')}</legend>
          {RIGHTS.map((r) => (
            <label key={r} class="check">
              <input
                type="checkbox"
                checked={form.rights.includes(r)}
                onChange={(e) => setForm({ ...form, rights: e.currentTarget.checked ? [...form.rights, r] : form.rights.filter((x) => x !== r) })}
              />
              {t(r)}
            </label>
          ))}
        </fieldset>
        <Button type="submit" variant="primary">
          {t('save')}
        </Button>
        {said && <p class="said">{said}</p>}
      </form>
    </Card>
  );
}

function Password() {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [said, setSaid] = useState('');
  const change = async (e: Event) => {
    e.preventDefault();
    try {
      await api('POST', '/auth/password', { currentPassword: current, newPassword: next });
      setSaid(t('passwordChanged'));
      setCurrent('');
      setNext('');
    } catch (err) {
      setSaid(describe(err));
    }
  };
  return (
    <Card title={t('myPassword')}>
      <form onSubmit={change}>
        <label>
          {t('currentPassword')}
          <input type="password" value={current} onInput={(e) => setCurrent(e.currentTarget.value)} autocomplete="current-password" />
        </label>
        <label>
          {t('newPassword')}
          <input type="password" value={next} onInput={(e) => setNext(e.currentTarget.value)} autocomplete="new-password" />
        </label>
        <Button type="submit" variant="primary">
          {t('changePassword')}
        </Button>
        {said && <p class="said">{said}</p>}
      </form>
    </Card>
  );
}

function Login(props: { onIn: (u: HqUser) => void }) {
  const [userName, setUserName] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  const submit = async (e: Event) => {
    e.preventDefault();
    try {
      props.onIn(await logIn(userName, password));
    } catch (err) {
      setError(describe(err));
    }
  };
  return (
    <Card class="login" title={t('logIn')}>
      <form onSubmit={submit}>
        <label>
          {t('userName')}
          <input value={userName} onInput={(e) => setUserName(e.currentTarget.value)} autocomplete="username" />
        </label>
        <label>
          {t('password')}
          <input type="password" value={password} onInput={(e) => setPassword(e.currentTarget.value)} autocomplete="current-password" />
        </label>
        <Button type="submit" variant="primary">
          {t('logIn')}
        </Button>
        {error && <Notice tone="bad">{error}</Notice>}
      </form>
    </Card>
  );
}

export function App() {
  const lang = useLanguage();
  const [user, setUser] = useState<HqUser | null>(null);
  const [view, setView] = useState<View>('stores');
  useEffect(() => {
    setLanguage(chosenLanguage());
    whenLoggedOut(() => setUser(null));
    if (loggedIn()) currentUser().then(setUser, () => setUser(null));
  }, []);
  useEffect(() => {
    document.title = t('title');
  }, [lang]);
  const can = (right: string) => !!user?.rights.includes(right);
  const views: Array<[View, string, boolean]> = [
    ['stores', t('stores'), can('ReportRead')],
    ['sales', t('sales'), can('ReportRead')],
    ['dead', t('deadLetters'), can('ReportRead')],
    ['users', t('users'), can('UserManage')],
    ['password', t('myPassword'), true],
  ];
  const shown = views.filter(([, , ok]) => ok);
  const current = shown.some(([v]) => v === view) ? view : 'password';
  return (
    <>
      <header class="hq-head">
        <h1>{t('title')}</h1>
        <LanguagePicker />
        {user && (
          <>
            <span class="who">{user.userName}</span>
            {shopZone() !== browserZone() && (
              <span class="muted" title={t('hqTimeHint', { zone: shopZone() })} data-testid="hq-zone">
                {t('hqTime', { zone: shopZone() })}
              </span>
            )}
            <Button small onClick={logOut}>
              {t('logOut')}
            </Button>
          </>
        )}
      </header>
      {user && (
        <nav>
          {shown.map(([v, label]) => (
            <button key={v} type="button" class={v === current ? 'tab active' : 'tab'} onClick={() => setView(v)}>
              {label}
            </button>
          ))}
        </nav>
      )}
      <main>
        {!user ? (
          <Login onIn={setUser} />
        ) : current === 'stores' ? (
          <Stores />
        ) : current === 'sales' ? (
          <Sales />
        ) : current === 'dead' ? (
          <DeadLetters />
        ) : current === 'users' ? (
          <Users />
        ) : (
          <Password />
        )}
      </main>
    </>
  );
}
