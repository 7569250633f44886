/** The shell: login gate, navigation, live status, and the page for the current route. */
import { Fragment } from 'preact';
import { useEffect } from 'preact/hooks';
import { messages, pick, useLanguage } from '../shared/i18n';
import { LanguagePicker } from '../shared/LanguagePicker';
import { Icon } from '../shared/Icon';
import { browserZone } from '../shared/days';
import { allowed, viewOf, VIEWS } from './lib/access';
import { Dialogs, Empty, LinkButton, Toasts } from './components/ui';
import { liveStatus, startLive, stopLive } from './lib/live';
import { linkHandler, loc, match, navigate, useLocation } from './lib/router';
import { logout, refreshSession, useCan, useSession } from './lib/session';
import { useStore } from '../shared/store';
import { rightsWords } from './lib/rights-words';
import { Catalog } from './pages/catalog/index';
import { Customers } from './pages/Customers';
import { Devices } from './pages/Devices';
import { FloorPlan } from './pages/FloorPlan';
import { EndOfDay } from './pages/EndOfDay';
import { Login } from './pages/Login';
import { Reports } from './pages/Reports';
import { Settings } from './pages/settings/index';
import { Tickets } from './pages/Tickets';
import { Today } from './pages/Today';

const t = messages({
  off: { en: 'Offline', sk: 'Offline', cs: 'Offline' },
  connecting: { en: 'Connecting…', sk: 'Pripája sa…', cs: 'Připojuje se…' },
  live: { en: 'Live', sk: 'Naživo', cs: 'Živě' },
  reconnecting: { en: 'Reconnecting…', sk: 'Znova sa pripája…', cs: 'Znovu se připojuje…' },
  liveHint: { en: 'Changes from the registers appear here as they happen', sk: 'Zmeny z pokladníc sa tu zobrazujú hneď, ako nastanú', cs: 'Změny z pokladen se zde zobrazují hned, jak nastanou' },
  notYours: { en: 'This page is not part of your work here', sk: 'Táto stránka nie je súčasťou vašej práce', cs: 'Tato stránka není součástí vaší práce' },
  askRights: { en: 'Ask a manager for the rights {rights} if you need it.', sk: 'Ak ju potrebujete, požiadajte vedúceho o práva {rights}.', cs: 'Pokud ji potřebujete, požádejte vedoucího o práva {rights}.' },
  noSuchPage: { en: 'There is no such page', sk: 'Taká stránka neexistuje', cs: 'Taková stránka neexistuje' },
  goToday: { en: 'Go to Today', sk: 'Prejsť na Dnes', cs: 'Přejít na Dnes' },
  logOut: { en: 'Log out', sk: 'Odhlásiť sa', cs: 'Odhlásit se' },
  mainMenu: { en: 'Main', sk: 'Hlavná ponuka', cs: 'Hlavní nabídka' },
  shopTime: { en: 'Shop time: {zone}', sk: 'Čas prevádzky: {zone}', cs: 'Čas provozovny: {zone}' },
  shopTimeHint: {
    en: 'Days and times on this page are the shop’s ({zone}), not this computer’s.',
    sk: 'Dni a časy na tejto stránke sú podľa prevádzky ({zone}), nie podľa tohto počítača.',
    cs: 'Dny a časy na této stránce jsou podle provozovny ({zone}), ne podle tohoto počítače.',
  },
});

function Page({ path }: { path: string }) {
  const can = useCan();
  if (path === '/' || path === '') return null;
  const view = viewOf(path);
  // A view the user may not read is not opened at all (no request that would be refused).
  if (view && !allowed(view, can)) {
    return (
      <Empty icon="alert" title={t('notYours')}>
        {t('askRights', { rights: rightsWords(view.needs ?? []) })}
      </Empty>
    );
  }
  if (path === '/today') return <Today />;
  const ticket = match('/tickets/:id', path);
  if (path === '/tickets' || ticket) return <Tickets openId={ticket?.id ?? null} />;
  if (path === '/devices') return <Devices />;
  if (path === '/floorplan') return <FloorPlan />;
  const taking = match('/catalog/stocktakings/:id', path);
  if (taking) return <Catalog tab="stocktakings" takingId={taking.id} />;
  const cat = match('/catalog/:tab', path);
  if (path === '/catalog' || cat) return <Catalog tab={cat?.tab ?? 'products'} takingId={null} />;
  if (path === '/customers') return <Customers />;
  if (path === '/reports') return <Reports />;
  if (path === '/endofday') return <EndOfDay />;
  const set = match('/settings/:tab', path);
  if (path === '/settings' || set) return <Settings tab={set?.tab ?? 'payments'} />;
  return (
    <Empty icon="alert" title={t('noSuchPage')}>
      <LinkButton href="/today" variant="primary">
        {t('goToday')}
      </LinkButton>
    </Empty>
  );
}

function Shell() {
  const s = useSession()!;
  const can = useCan();
  const { path } = useLocation();
  const live = useStore(liveStatus);
  useEffect(() => {
    // The address now, not this render's: an effect runs after the paint, and a navigation that came in
    // between (a click, a link followed at once) must not be replaced by Today.
    if (loc.value.path === '/' || loc.value.path === '') navigate('/today', { replace: true });
    // Rights may have changed since the last page: re-read them on every navigation.
    void refreshSession().catch(() => undefined);
  }, [path]);
  const section = '/' + (path.split('/')[1] ?? '');
  return (
    <div class="shell">
      <aside class="sidebar">
        <div class="brand">
          <span class="brand-mark" aria-hidden="true">
            P
          </span>
          <span class="brand-name">POS Hub</span>
        </div>
        <nav class="nav" aria-label={t('mainMenu')}>
          {VIEWS.filter((v) => allowed(v, can)).map((n) => (
            <a key={n.href} href={n.href} onClick={linkHandler(n.href)} class={`nav-item${section === n.href ? ' active' : ''}`} aria-current={section === n.href ? 'page' : undefined}>
              <Icon name={n.icon} />
              <span>{pick(n.label)}</span>
            </a>
          ))}
        </nav>
        <div class="sidebar-foot">
          <span class={`live live-${live}`} title={t('liveHint')} data-testid="live">
            <span class="dot" aria-hidden="true" />
            {t(live)}
          </span>
          {/* Opened from another zone (abroad, a laptop left on UTC): the page says whose clock it shows. */}
          {s.timeZone && s.timeZone !== browserZone() && (
            <span class="live zone-note" title={t('shopTimeHint', { zone: s.timeZone })} data-testid="shop-zone">
              <Icon name="clock" size={14} />
              {t('shopTime', { zone: s.timeZone })}
            </span>
          )}
          <LanguagePicker userLanguage={s.user.language ?? null} />
          <div class="user">
            <span class="avatar" aria-hidden="true">
              {(s.user.name || s.user.userName).trim().charAt(0).toUpperCase()}
            </span>
            <span class="user-name" title={s.user.userName}>
              {s.user.name || s.user.userName}
            </span>
            <button type="button" class="icon-btn" title={t('logOut')} aria-label={t('logOut')} onClick={() => void logout()}>
              <Icon name="logout" />
            </button>
          </div>
        </div>
      </aside>
      <main class="main" id="main">
        <Page path={path} />
      </main>
    </div>
  );
}

export function App() {
  // Every text is read in the current language at render: a switch renders the page again. So is
  // every day and time in the shop's zone (lib/session.ts takes it from the hub's session answer).
  const lang = useLanguage();
  const s = useSession();
  const zone = s?.timeZone ?? '';
  const loggedIn = !!s;
  useEffect(() => {
    if (loggedIn) startLive();
    else stopLive();
  }, [loggedIn]);
  return (
    <Fragment key={`${lang} ${zone}`}>
      {loggedIn ? <Shell /> : <Login />}
      <Toasts />
      <Dialogs />
    </Fragment>
  );
}
