/** The shell: login gate, navigation, live status, and the page for the current route. */
import { useEffect } from 'preact/hooks';
import { Icon } from './components/Icon';
import { allowed, viewOf, VIEWS } from './lib/access';
import { Dialogs, Empty, LinkButton, Toasts } from './components/ui';
import { liveStatus, startLive, stopLive } from './lib/live';
import { linkHandler, match, navigate, useLocation } from './lib/router';
import { logout, refreshSession, useCan, useSession } from './lib/session';
import { useStore } from './lib/store';
import { Catalog } from './pages/Catalog';
import { Customers } from './pages/Customers';
import { Devices } from './pages/Devices';
import { Login } from './pages/Login';
import { Settings } from './pages/Settings';
import { Tickets } from './pages/Tickets';
import { Today } from './pages/Today';

const LIVE_TEXT = { off: 'Offline', connecting: 'Connecting…', live: 'Live', reconnecting: 'Reconnecting…' } as const;

function Page({ path }: { path: string }) {
  const can = useCan();
  if (path === '/' || path === '') return null;
  const view = viewOf(path);
  // A view the user may not read is not opened at all (no request that would be refused).
  if (view && !allowed(view, can)) {
    return (
      <Empty icon="alert" title="This page is not part of your work here">
        Ask a manager for the rights {(view.needs ?? []).join(', ')} if you need it.
      </Empty>
    );
  }
  if (path === '/today') return <Today />;
  const ticket = match('/tickets/:id', path);
  if (path === '/tickets' || ticket) return <Tickets openId={ticket?.id ?? null} />;
  if (path === '/devices') return <Devices />;
  const taking = match('/catalog/stocktakings/:id', path);
  if (taking) return <Catalog tab="stocktakings" takingId={taking.id} />;
  const cat = match('/catalog/:tab', path);
  if (path === '/catalog' || cat) return <Catalog tab={cat?.tab ?? 'products'} takingId={null} />;
  if (path === '/customers') return <Customers />;
  const set = match('/settings/:tab', path);
  if (path === '/settings' || set) return <Settings tab={set?.tab ?? 'payments'} />;
  return (
    <Empty icon="alert" title="There is no such page">
      <LinkButton href="/today" variant="primary">
        Go to Today
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
    if (path === '/' || path === '') navigate('/today', { replace: true });
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
        <nav class="nav" aria-label="Main">
          {VIEWS.filter((v) => allowed(v, can)).map((n) => (
            <a key={n.href} href={n.href} onClick={linkHandler(n.href)} class={`nav-item${section === n.href ? ' active' : ''}`} aria-current={section === n.href ? 'page' : undefined}>
              <Icon name={n.icon} />
              <span>{n.label}</span>
            </a>
          ))}
        </nav>
        <div class="sidebar-foot">
          <span class={`live live-${live}`} title="Changes from the registers appear here as they happen" data-testid="live">
            <span class="dot" aria-hidden="true" />
            {LIVE_TEXT[live]}
          </span>
          <div class="user">
            <span class="avatar" aria-hidden="true">
              {(s.user.name || s.user.userName).trim().charAt(0).toUpperCase()}
            </span>
            <span class="user-name" title={s.user.userName}>
              {s.user.name || s.user.userName}
            </span>
            <button type="button" class="icon-btn" title="Log out" aria-label="Log out" onClick={() => void logout()}>
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
  const s = useSession();
  const loggedIn = !!s;
  useEffect(() => {
    if (loggedIn) startLive();
    else stopLive();
  }, [loggedIn]);
  return (
    <>
      {loggedIn ? <Shell /> : <Login />}
      <Toasts />
      <Dialogs />
    </>
  );
}
