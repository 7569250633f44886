/**
 * How a display gets its session: a pairing code from the manager (a keypad, for wet fingers),
 * a manager pairing the screen on the spot (the tablet keeps only the display's session), or a
 * user and device login (a Tool device and a user with OrderProcess).
 */
import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { messages } from '../shared/i18n';
import { Keypad } from '../shared/Keypad';
import { ApiError, endedBecause, loginWithPassword, NetworkError, pairAsManager, pairWithCode } from './api';
import { unlockAudio } from './beep';

type Tab = 'code' | 'manager' | 'user';

const t = messages({
  unreachable: { en: 'The hub cannot be reached. Check the Wi-Fi and try again.', sk: 'Hub je nedostupný. Skontrolujte Wi-Fi a skúste to znova.', cs: 'Hub je nedostupný. Zkontrolujte Wi-Fi a zkuste to znovu.' },
  tooMany: { en: 'Too many wrong attempts. Try again in {n} min.', sk: 'Príliš veľa nesprávnych pokusov. Skúste to znova o {n} min.', cs: 'Příliš mnoho chybných pokusů. Zkuste to znovu za {n} min.' },
  wrongCode: { en: 'That code is wrong, expired or already used. Ask the manager for a new one.', sk: 'Kód je nesprávny, vypršal alebo už bol použitý. Požiadajte vedúceho o nový.', cs: 'Kód je chybný, vypršel nebo už byl použit. Požádejte vedoucího o nový.' },
  wrongLogin: { en: 'The user name, password or device is not right.', sk: 'Používateľské meno, heslo alebo zariadenie nie je správne.', cs: 'Uživatelské jméno, heslo nebo zařízení není správné.' },
  title: { en: 'Kitchen display', sk: 'Kuchynský displej', cs: 'Kuchyňský displej' },
  tabCode: { en: 'Pairing code', sk: 'Párovací kód', cs: 'Párovací kód' },
  tabManager: { en: 'Manager pairs', sk: 'Spáruje vedúci', cs: 'Spáruje vedoucí' },
  tabUser: { en: 'User login', sk: 'Prihlásenie', cs: 'Přihlášení' },
  codeHint: { en: 'Enter the 6-digit code the manager made for this display. It works once, for 10 minutes.', sk: 'Zadajte 6-miestny kód, ktorý pre tento displej vytvoril vedúci. Platí raz, 10 minút.', cs: 'Zadejte 6místný kód, který pro tento displej vytvořil vedoucí. Platí jednou, 10 minut.' },
  codeLabel: { en: 'Pairing code', sk: 'Párovací kód', cs: 'Párovací kód' },
  pair: { en: 'Pair', sk: 'Spárovať', cs: 'Spárovat' },
  managerHint: {
    en: 'A manager (right OrderEndpointUpdate) pairs this screen here; the screen keeps only a kitchen session, never the manager’s. Use a back-office device: a login on a register would end the cashier’s session there.',
    sk: 'Vedúci (právo OrderEndpointUpdate) tu spáruje túto obrazovku; obrazovka si ponechá iba reláciu kuchyne, nikdy nie vedúceho. Použite zariadenie back office: prihlásenie na pokladni by tam ukončilo reláciu pokladníka.', cs: 'Vedoucí (právo OrderEndpointUpdate) zde spáruje tuto obrazovku; obrazovka si ponechá jen relaci kuchyně, nikdy ne vedoucího. Použijte zařízení back office: přihlášení na pokladně by tam ukončilo relaci pokladního.',
  },
  endpoint: { en: 'Order endpoint', sk: 'Výdajné miesto', cs: 'Výdejní místo' },
  managerUser: { en: 'Manager’s user name', sk: 'Používateľské meno vedúceho', cs: 'Uživatelské jméno vedoucího' },
  managerDevice: { en: 'Manager’s device (back office)', sk: 'Zariadenie vedúceho (back office)', cs: 'Zařízení vedoucího (back office)' },
  pairScreen: { en: 'Pair this screen', sk: 'Spárovať túto obrazovku', cs: 'Spárovat tuto obrazovku' },
  userHint: { en: 'A Tool device and a user with the right OrderProcess.', sk: 'Zariadenie typu Tool a používateľ s právom OrderProcess.', cs: 'Zařízení typu Tool a uživatel s právem OrderProcess.' },
  userName: { en: 'User name', sk: 'Používateľské meno', cs: 'Uživatelské jméno' },
  device: { en: 'Device', sk: 'Zariadenie', cs: 'Zařízení' },
  logIn: { en: 'Log in', sk: 'Prihlásiť sa', cs: 'Přihlásit se' },
  password: { en: 'Password', sk: 'Heslo', cs: 'Heslo' },
});

function explain(e: unknown, what: 'code' | 'login'): string {
  if (e instanceof NetworkError) return t('unreachable');
  if (e instanceof ApiError) {
    if (e.status === 429) return t('tooMany', { n: Math.ceil((e.retryAfterS ?? 60) / 60) });
    if (e.status === 401) return what === 'code' ? t('wrongCode') : t('wrongLogin');
    return e.message;
  }
  return String(e);
}

export function Login({ endpoint }: { endpoint: string | null }): JSX.Element {
  const [tab, setTab] = useState<Tab>('code');
  const [code, setCode] = useState('');
  const [userName, setUserName] = useState('');
  const [password, setPassword] = useState('');
  const [device, setDevice] = useState('');
  const [target, setTarget] = useState(endpoint ?? '');
  const [error, setError] = useState<string | null>(endedBecause());
  const [busy, setBusy] = useState(false);

  const run = async (what: 'code' | 'login', fn: () => Promise<unknown>) => {
    unlockAudio();
    setBusy(true);
    setError(null);
    try {
      await fn();
    } catch (e) {
      setError(explain(e, what));
      if (what === 'code') setCode('');
    } finally {
      setBusy(false);
    }
  };
  const submitCode = (c: string) => void run('code', () => pairWithCode(c));
  const press = (key: string) => {
    unlockAudio();
    if (busy) return;
    const next = key === '⌫' ? code.slice(0, -1) : key === 'C' ? '' : (code + key).slice(0, 6);
    setCode(next);
    if (next.length === 6 && key !== '⌫' && key !== 'C') submitCode(next);
  };

  return (
    <div class="login">
      <div class="login-card">
        <h1>{t('title') + (endpoint ? ` · ${endpoint}` : '')}</h1>
        <div class="tabs" role="tablist" data-testid="login-tabs">
          {(
            [
              ['code', t('tabCode')],
              ['manager', t('tabManager')],
              ['user', t('tabUser')],
            ] as const
          ).map(([id, label]) => (
            <button key={id} type="button" role="tab" aria-selected={tab === id} class={tab === id ? 'on' : ''} onClick={() => (setTab(id), setError(null))}>
              {label}
            </button>
          ))}
        </div>

        {tab === 'code' && (
          <form
            class="code-form"
            onSubmit={(e) => {
              e.preventDefault();
              if (code.length === 6) submitCode(code);
            }}
          >
            <p class="hint">{t('codeHint')}</p>
            <input
              class="code"
              aria-label={t('codeLabel')}
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={7}
              value={code}
              placeholder="••••••"
              onInput={(e) => setCode(e.currentTarget.value.replace(/\D/g, '').slice(0, 6))}
            />
            <Keypad class="keypad" onKey={press} />
            <button class="big primary" type="submit" disabled={busy || code.length !== 6}>
              {t('pair')}
            </button>
          </form>
        )}

        {tab === 'manager' && (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              void run('login', () => pairAsManager(userName, password, device || 'BackOffice', target));
            }}
          >
            <p class="hint">{t('managerHint')}</p>
            {!endpoint && (
              <label>
                {t('endpoint')}
                <input value={target} onInput={(e) => setTarget(e.currentTarget.value)} required />
              </label>
            )}
            <Credentials {...{ userName, setUserName, password, setPassword, device, setDevice }} userLabel={t('managerUser')} deviceLabel={t('managerDevice')} devicePlaceholder="BackOffice" />
            <button class="big primary" type="submit" disabled={busy}>
              {t('pairScreen')}
            </button>
          </form>
        )}

        {tab === 'user' && (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              void run('login', () => loginWithPassword(userName, password, device));
            }}
          >
            <p class="hint">{t('userHint')}</p>
            <Credentials {...{ userName, setUserName, password, setPassword, device, setDevice }} userLabel={t('userName')} deviceLabel={t('device')} deviceRequired />
            <button class="big primary" type="submit" disabled={busy}>
              {t('logIn')}
            </button>
          </form>
        )}
        {error && (
          <p class="error" role="alert" data-testid="login-error">
            {error}
          </p>
        )}
      </div>
    </div>
  );
}

/** The user, password and device fields both password forms share. */
function Credentials(p: {
  userName: string;
  setUserName: (v: string) => void;
  password: string;
  setPassword: (v: string) => void;
  device: string;
  setDevice: (v: string) => void;
  userLabel: string;
  deviceLabel: string;
  devicePlaceholder?: string;
  deviceRequired?: boolean;
}) {
  return (
    <>
      <label>
        {p.userLabel}
        <input value={p.userName} autoComplete="username" onInput={(e) => p.setUserName(e.currentTarget.value)} required />
      </label>
      <label>
        {t('password')}
        <input type="password" value={p.password} autoComplete="current-password" onInput={(e) => p.setPassword(e.currentTarget.value)} required />
      </label>
      <label>
        {p.deviceLabel}
        <input value={p.device} placeholder={p.devicePlaceholder} onInput={(e) => p.setDevice(e.currentTarget.value)} required={p.deviceRequired} />
      </label>
    </>
  );
}
