/**
 * Who works on the register now: a paired register lists its waiters — tap your name, type your PIN
 * (two taps and the digits to switch waiter); a waiter without a PIN, or one who prefers it, types
 * the password. A register set up with a password asks for user name and password. The same screen
 * locks the register when it was left idle.
 */
import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { messages } from '../shared/i18n';
import { ApiError, device, endedBecause, loginWithPassword, loginWithPin, registerUsers, saveDevice, session, type RegisterUser } from './api';
import { setLocked } from './hooks';
import { till } from './till';
import { failure, NumPad, submitting } from './ui';

const t = messages({
  who: { en: 'Who is working?', sk: 'Kto pracuje?', cs: 'Kdo pracuje?' },
  locked: { en: 'Locked — tap your name', sk: 'Zamknuté — ťuknite na svoje meno', cs: 'Zamčeno — klepněte na své jméno' },
  lockedPassword: { en: 'Locked — log in to go on', sk: 'Zamknuté — prihláste sa a pokračujte', cs: 'Zamčeno — přihlaste se a pokračujte' },
  // The name stays as it is (Slovak and Czech would decline it after "pre"/"pro").
  pinFor: { en: '{name}: your PIN', sk: '{name}: zadajte PIN', cs: '{name}: zadejte PIN' },
  ok: { en: 'OK', sk: 'OK', cs: 'OK' },
  usePassword: { en: 'Use the password instead', sk: 'Radšej heslom', cs: 'Raději heslem' },
  other: { en: 'Someone else', sk: 'Niekto iný', cs: 'Někdo jiný' },
  back: { en: 'Back', sk: 'Späť', cs: 'Zpět' },
  user: { en: 'User name', sk: 'Používateľské meno', cs: 'Uživatelské jméno' },
  password: { en: 'Password', sk: 'Heslo', cs: 'Heslo' },
  login: { en: 'Log in', sk: 'Prihlásiť sa', cs: 'Přihlásit se' },
  wrongPin: { en: 'Wrong PIN. Try again.', sk: 'Nesprávny PIN. Skúste znova.', cs: 'Špatný PIN. Zkuste znovu.' },
  wrongPassword: { en: 'Wrong user name or password.', sk: 'Nesprávne meno alebo heslo.', cs: 'Špatné jméno nebo heslo.' },
  tooMany: { en: 'Too many wrong tries. Wait a few minutes, or ask the manager.', sk: 'Priveľa nesprávnych pokusov. Počkajte pár minút alebo sa obráťte na vedúceho.', cs: 'Příliš mnoho špatných pokusů. Počkejte pár minut nebo se obraťte na vedoucího.' },
  noUsers: { en: 'No waiters to show yet. The manager adds them (with a PIN) under Settings → Users.', sk: 'Zatiaľ nie je koho zobraziť. Vedúci pridá čašníkov (s PIN) v Nastavenia → Používatelia.', cs: 'Zatím není koho zobrazit. Vedoucí přidá číšníky (s PIN) v Nastavení → Uživatelé.' },
  forget: { en: 'Set this browser up as another register', sk: 'Nastaviť tento prehliadač ako inú pokladňu', cs: 'Nastavit tento prohlížeč jako jinou pokladnu' },
  forgetSure: { en: 'This browser stops being register “{name}”. Unsent changes stay in it. Go on?', sk: 'Tento prehliadač prestane byť pokladňou „{name}“. Neodoslané zmeny v ňom zostanú. Pokračovať?', cs: 'Tento prohlížeč přestane být pokladnou „{name}“. Neodeslané změny v něm zůstanou. Pokračovat?' },
  offline: { en: 'The hub cannot be reached: logging in waits until it is back (PINs and passwords are checked there).', sk: 'Hub je nedostupný: prihlásenie počká, kým bude späť (PIN a heslá overuje hub).', cs: 'Hub je nedostupný: přihlášení počká, až bude zpět (PIN a hesla ověřuje hub).' },
});

const initials = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]!.toUpperCase())
    .join('');

export function Login(props: { locked: boolean }): JSX.Element {
  const dev = device()!;
  const [users, setUsers] = useState<RegisterUser[] | null>(dev.deviceKey ? null : []);
  const [chosen, setChosen] = useState<RegisterUser | null>(null);
  const [mode, setMode] = useState<'pick' | 'pin' | 'password'>(dev.deviceKey ? 'pick' : 'password');
  const [pin, setPin] = useState('');
  const [userName, setUserName] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(props.locked ? null : endedBecause());
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!dev.deviceKey) return;
    registerUsers().then(setUsers, (e: unknown) => {
      setUsers([]);
      setError(failure(e));
    });
  }, [dev.deviceKey]);

  const done = () => {
    setLocked(false);
    till.start();
  };

  const refusal = (e: unknown, wrong: string) => {
    if (e instanceof ApiError && e.status === 401) return wrong;
    if (e instanceof ApiError && e.status === 429) return t('tooMany');
    return failure(e);
  };

  /** A login tried: on a refusal the secret typed is cleared (`clear`) and `wrong` says why. */
  const attempt = async (login: () => Promise<unknown>, clear: () => void, wrong: string) => {
    setBusy(true);
    setError(null);
    try {
      await login();
      done();
    } catch (e) {
      clear();
      setError(refusal(e, wrong));
    } finally {
      setBusy(false);
    }
  };
  const submitPin = () => chosen && pin && attempt(() => loginWithPin(chosen.userName, pin), () => setPin(''), t('wrongPin'));
  const submitPassword = () => attempt(() => loginWithPassword(chosen?.userName ?? userName.trim(), password), () => setPassword(''), t('wrongPassword'));

  const pick = (u: RegisterUser) => {
    setChosen(u);
    setPin('');
    setPassword('');
    setError(null);
    setMode(u.hasPin ? 'pin' : 'password');
  };

  const current = session()?.user.userName;
  return (
    <main class="center-page login" data-testid="login">
      <p class="muted">{dev.deviceName}</p>
      <h1>{props.locked ? (dev.deviceKey ? t('locked') : t('lockedPassword')) : mode === 'pin' && chosen ? t('pinFor', { name: chosen.name || chosen.userName }) : t('who')}</h1>
      {till.conn === 'offline' && <p class="warning">{t('offline')}</p>}
      {mode === 'pick' && (
        <>
          <div class="user-grid">
            {(users ?? []).map((u) => (
              <button type="button" key={u.userName} class={`user-tile${u.userName === current ? ' current' : ''}`} onClick={() => pick(u)} data-testid={`user-${u.userName}`}>
                <span class="avatar" aria-hidden="true">
                  {initials(u.name || u.userName)}
                </span>
                <span>{u.name || u.userName}</span>
              </button>
            ))}
            <button
              type="button"
              class="user-tile ghost"
              onClick={() => {
                setChosen(null);
                setMode('password');
              }}
            >
              <span class="avatar" aria-hidden="true">
                ?
              </span>
              <span>{t('other')}</span>
            </button>
          </div>
          {users && users.length === 0 && <p class="muted">{t('noUsers')}</p>}
        </>
      )}
      {mode === 'pin' && chosen && (
        <form class="pin-form" onSubmit={submitting(submitPin)}>
          <div class="pin-dots" data-testid="pin-dots" aria-label={t('pinFor', { name: chosen.name })}>
            {Array.from({ length: Math.max(4, pin.length) }, (_, i) => (
              <span key={i} class={i < pin.length ? 'dot on' : 'dot'} />
            ))}
          </div>
          <NumPad value={pin} onChange={setPin} maxLength={8} testId="pin-pad" />
          <button class="primary big" type="submit" disabled={busy || pin.length < 4}>
            {t('ok')}
          </button>
          <div class="row">
            <button type="button" class="link" onClick={() => setMode('password')}>
              {t('usePassword')}
            </button>
            <button type="button" class="link" onClick={() => setMode('pick')}>
              {t('back')}
            </button>
          </div>
        </form>
      )}
      {mode === 'password' && (
        <form class="stack narrow" onSubmit={submitting(submitPassword)}>
          {!chosen && (
            <label class="field">
              <span>{t('user')}</span>
              <input value={userName} onInput={(e) => setUserName(e.currentTarget.value)} autoComplete="username" autoCapitalize="none" />
            </label>
          )}
          <label class="field">
            <span>{chosen ? `${t('password')} · ${chosen.name || chosen.userName}` : t('password')}</span>
            <input type="password" value={password} onInput={(e) => setPassword(e.currentTarget.value)} autoComplete="current-password" />
          </label>
          <button class="primary big" type="submit" disabled={busy || !password || (!chosen && !userName.trim())}>
            {t('login')}
          </button>
          {dev.deviceKey && (
            <button type="button" class="link" onClick={() => setMode('pick')}>
              {t('back')}
            </button>
          )}
        </form>
      )}
      {error && (
        <p class="error" role="alert" data-testid="login-error">
          {error}
        </p>
      )}
      {!props.locked && (
        <button
          type="button"
          class="link small"
          onClick={() => {
            if (confirm(t('forgetSure', { name: dev.deviceName }))) saveDevice(null);
          }}
        >
          {t('forget')}
        </button>
      )}
    </main>
  );
}
