/**
 * A browser that is no register yet becomes one: with the pairing link or code a manager got on the
 * manager's page (Devices → Add a register), or, without one, by logging in with a password on a
 * register device the manager created (its waiters then log in with passwords, not PINs).
 */
import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { messages } from '../shared/i18n';
import { ApiError, loginWithPassword, logout, pair, saveDevice } from './api';
import { failure, submitting } from './ui';

const t = messages({
  title: { en: 'Set up this register', sk: 'Nastavenie pokladne', cs: 'Nastavení pokladny' },
  how: {
    en: 'On the manager’s page, Devices → Add a register shows a pairing code and a link. Open the link on this tablet, or type the code here.',
    sk: 'Na stránke vedúceho v časti Zariadenia → Pridať pokladňu sa zobrazí párovací kód a odkaz. Otvorte odkaz na tomto tablete alebo sem napíšte kód.',
    cs: 'Na stránce vedoucího v části Zařízení → Přidat pokladnu se zobrazí párovací kód a odkaz. Otevřete odkaz na tomto tabletu nebo sem napište kód.',
  },
  code: { en: 'Pairing code', sk: 'Párovací kód', cs: 'Párovací kód' },
  pair: { en: 'Pair', sk: 'Spárovať', cs: 'Spárovat' },
  pairing: { en: 'Pairing…', sk: 'Párujem…', cs: 'Páruji…' },
  badCode: { en: 'This code is wrong, expired or already used. Ask the manager for a new one.', sk: 'Kód je nesprávny, vypršal alebo už bol použitý. Požiadajte vedúceho o nový.', cs: 'Kód je chybný, vypršel nebo už byl použit. Požádejte vedoucího o nový.' },
  noCode: { en: 'No code? Log in with a password on a register the manager made', sk: 'Nemáte kód? Prihláste sa heslom na pokladni, ktorú vytvoril vedúci', cs: 'Nemáte kód? Přihlaste se heslem na pokladně, kterou vytvořil vedoucí' },
  register: { en: 'Register (device name)', sk: 'Pokladňa (názov zariadenia)', cs: 'Pokladna (název zařízení)' },
  user: { en: 'User name', sk: 'Používateľské meno', cs: 'Uživatelské jméno' },
  password: { en: 'Password', sk: 'Heslo', cs: 'Heslo' },
  useIt: { en: 'Use as this register', sk: 'Používať ako túto pokladňu', cs: 'Používat jako tuto pokladnu' },
  notSale: { en: '“{name}” is not a register (a device of type CashRegister or PDA). Ask the manager which register this is.', sk: '„{name}“ nie je pokladňa (zariadenie typu CashRegister alebo PDA). Opýtajte sa vedúceho, ktorá pokladňa to je.', cs: '„{name}“ není pokladna (zařízení typu CashRegister nebo PDA). Zeptejte se vedoucího, která pokladna to je.' },
});

/** The code in a pairing link: http://<hub>/pos/#pair=<code>. */
export function pairingCodeInLink(): string | null {
  const m = /(?:^#|&)pair=([^&]+)/.exec(location.hash);
  return m ? decodeURIComponent(m[1]) : null;
}

export function Setup(props: { code: string | null; onDone: () => void }): JSX.Element {
  const [code, setCode] = useState(props.code ?? '');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [deviceName, setDeviceName] = useState('');
  const [userName, setUserName] = useState('');
  const [password, setPassword] = useState('');

  /** `refused`: what to say when the hub turns the code or login down (else its own words). */
  const run = async (fn: () => Promise<void>, refused?: string) => {
    setBusy(true);
    setError(null);
    try {
      await fn();
      // The code is used: a reload must not try it again.
      history.replaceState(null, '', location.pathname + location.search);
      props.onDone();
    } catch (e) {
      setError(refused && e instanceof ApiError && (e.status === 400 || e.status === 401 || e.status === 404) ? refused : failure(e));
    } finally {
      setBusy(false);
    }
  };

  const pairNow = (c: string) =>
    run(async () => {
      await pair(c.trim());
    }, t('badCode'));

  // The link brought the code: pair at once.
  useEffect(() => {
    if (props.code) void pairNow(props.code);
  }, [props.code]);

  const withPassword = () =>
    run(async () => {
      const s = await loginWithPassword(userName.trim(), password, deviceName.trim());
      const env = s.user.device.envName;
      if (env !== 'CashRegister' && env !== 'PDA') {
        await logout();
        throw new Error(t('notSale', { name: deviceName.trim() }));
      }
      saveDevice({ deviceName: s.user.device.name, envName: env, deviceKey: null });
    });

  return (
    <main class="center-page" data-testid="setup">
      <h1>{t('title')}</h1>
      <p class="lead">{t('how')}</p>
      <form class="stack" onSubmit={submitting(() => pairNow(code))}>
        <label class="field">
          <span>{t('code')}</span>
          <input class="big-input" inputMode="numeric" autoComplete="one-time-code" value={code} onInput={(e) => setCode(e.currentTarget.value)} />
        </label>
        <button class="primary big" type="submit" disabled={busy || !code.trim()}>
          {busy ? t('pairing') : t('pair')}
        </button>
      </form>
      {error && (
        <p class="error" role="alert" data-testid="setup-error">
          {error}
        </p>
      )}
      <details class="alt">
        <summary>{t('noCode')}</summary>
        <form class="stack" onSubmit={submitting(withPassword)}>
          <label class="field">
            <span>{t('register')}</span>
            <input value={deviceName} onInput={(e) => setDeviceName(e.currentTarget.value)} autoComplete="off" />
          </label>
          <label class="field">
            <span>{t('user')}</span>
            <input value={userName} onInput={(e) => setUserName(e.currentTarget.value)} autoComplete="username" autoCapitalize="none" />
          </label>
          <label class="field">
            <span>{t('password')}</span>
            <input type="password" value={password} onInput={(e) => setPassword(e.currentTarget.value)} autoComplete="current-password" />
          </label>
          <button class="big" type="submit" disabled={busy || !deviceName.trim() || !userName.trim() || !password}>
            {t('useIt')}
          </button>
        </form>
      </details>
    </main>
  );
}
