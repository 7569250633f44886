/**
 * The register: set up (pairing) until this browser is a register, the login (or lock) screen until a
 * waiter works on it, then the floor, a ticket, payment, split, returns and the end of the day. The bar
 * on top says who works, whether the hub is reached and how many sends wait for it; the register locks
 * itself after the device's LockAfterSeconds without a touch.
 */
import type { JSX } from 'preact';
import { useEffect, useLayoutEffect, useState } from 'preact/hooks';
import { messages, useLanguage } from '../shared/i18n';
import { deviceSetting } from './api';
import { Day } from './Day';
import { isLocked, setLocked, useDevice, useLocked, useSession, useTill, useView } from './hooks';
import { Login } from './Login';
import { Order } from './Order';
import { Pay } from './Pay';
import { Returns } from './Returns';
import { pairingCodeInLink, Setup } from './Setup';
import { Split } from './Split';
import { Tables } from './Tables';
import { Notes } from './ui';

const t = messages({
  online: { en: 'Online', sk: 'Online', cs: 'Online' },
  offline: { en: 'Offline', sk: 'Offline', cs: 'Offline' },
  connecting: { en: 'Connecting…', sk: 'Pripájam…', cs: 'Připojuji…' },
  waiting: { en: '{n} waiting to send', sk: 'na odoslanie čaká {n}', cs: 'k odeslání čeká {n}' },
  switchUser: { en: 'Switch waiter or lock: {name}', sk: 'Zmeniť čašníka alebo zamknúť: {name}', cs: 'Změnit číšníka nebo zamknout: {name}' },
  switch: { en: 'Switch', sk: 'Zmeniť', cs: 'Změnit' },
  offlineHint: { en: 'The hub cannot be reached. Keep taking orders: they are kept here and sent when it is back. Paying waits for the hub.', sk: 'Hub je nedostupný. Objednávky prijímajte ďalej: ostávajú tu a odošlú sa, keď bude späť. Platba počká na hub.', cs: 'Hub je nedostupný. Objednávky přijímejte dál: zůstávají tady a odešlou se, až bude zpět. Platba počká na hub.' },
});

/** Locks after the device's LockAfterSeconds without a touch or a key (not while the hub is away: a PIN is checked there). */
function useIdleLock(enabled: boolean): void {
  const till = useTill();
  const seconds = Number(deviceSetting('LockAfterSeconds') ?? '0');
  useEffect(() => {
    if (!enabled || !(seconds > 0)) return;
    let timer: ReturnType<typeof setTimeout>;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        if (till.conn === 'offline') arm();
        else setLocked(true);
      }, seconds * 1000);
    };
    arm();
    const events = ['pointerdown', 'keydown'] as const;
    for (const e of events) addEventListener(e, arm, { passive: true });
    return () => {
      clearTimeout(timer);
      for (const e of events) removeEventListener(e, arm);
    };
  }, [enabled, seconds]);
}

function TopBar(): JSX.Element {
  const till = useTill();
  const s = useSession()!;
  const dev = useDevice()!;
  const waiting = till.waiting().length;
  const conn = till.conn;
  return (
    <header class="topbar">
      <span class="register-name">{dev.deviceName}</span>
      <span class={`conn ${conn}`} data-testid="conn" role="status" title={conn === 'offline' ? t('offlineHint') : undefined}>
        {t(conn)}
        {waiting > 0 && (
          <span class="pending" data-testid="pending">
            {' · '}
            {t('waiting', { n: waiting })}
          </span>
        )}
      </span>
      <button type="button" class="user-button" onClick={() => setLocked(true)} aria-label={t('switchUser', { name: s.user.name || s.user.userName })}>
        <span class="user-name" data-testid="user">
          {s.user.name || s.user.userName}
        </span>
        {/* Says what the tap does: the next waiter taps their name on the lock screen. */}
        <span class="switch-hint" aria-hidden="true">
          {t('switch')}
        </span>
      </button>
    </header>
  );
}

function Screen(): JSX.Element {
  const view = useView();
  useTill();
  switch (view.kind) {
    case 'ticket':
      return <Order key={view.id} id={view.id} />;
    case 'pay':
      return <Pay key={view.id} id={view.id} />;
    case 'split':
      return <Split key={view.id} id={view.id} />;
    case 'returns':
      return <Returns />;
    case 'day':
      return <Day />;
    default:
      return <Tables />;
  }
}

export function App(): JSX.Element {
  useLanguage();
  const dev = useDevice();
  const s = useSession();
  const locked = useLocked();
  const till = useTill();
  // The code of a pairing link (http://<hub>/pos/#pair=<code>), once: also one opened in a tab that
  // shows the register already (only its #hash changes). Set up is shown until it is used.
  const [code, setCode] = useState(pairingCodeInLink);
  // Listening from the first render on, and reading the link once more when the listener is in place:
  // a link opened right as the page loads may change the #hash before then, and would go unseen.
  useLayoutEffect(() => {
    const fn = () => setCode(pairingCodeInLink());
    addEventListener('hashchange', fn);
    fn();
    return () => removeEventListener('hashchange', fn);
  }, []);
  useIdleLock(!!dev && !!s && !locked);
  useEffect(() => {
    if (s && !isLocked()) till.start();
  }, [!!s]);

  let body: JSX.Element;
  if (!dev || code) body = <Setup code={code} onDone={() => setCode(null)} />;
  else if (!s || locked) body = <Login locked={!!s && locked} />;
  else
    body = (
      <div class={`shell${till.conn === 'offline' ? ' is-offline' : ''}`}>
        <TopBar />
        {till.conn === 'offline' && (
          <p class="offline-banner" role="alert" data-testid="offline-banner">
            {t('offlineHint')}
          </p>
        )}
        <main class="screen">
          <Screen />
        </main>
      </div>
    );
  return (
    <>
      {body}
      <Notes />
    </>
  );
}
