/**
 * How a display gets its session: a pairing code from the manager (a keypad, for wet fingers),
 * a manager pairing the screen on the spot (the tablet keeps only the display's session), or a
 * user and device login (a Tool device and a user with OrderProcess).
 */
import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { ApiError, endedBecause, loginWithPassword, NetworkError, pairAsManager, pairWithCode } from './api';
import { unlockAudio } from './beep';

type Tab = 'code' | 'manager' | 'user';

function explain(e: unknown, what: 'code' | 'login'): string {
  if (e instanceof NetworkError) return 'The hub cannot be reached. Check the Wi-Fi and try again.';
  if (e instanceof ApiError) {
    if (e.status === 429) return `Too many wrong attempts. Try again in ${Math.ceil((e.retryAfterS ?? 60) / 60)} min.`;
    if (e.status === 401) return what === 'code' ? 'That code is wrong, expired or already used. Ask the manager for a new one.' : 'The user name, password or device is not right.';
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
  const [error, setError] = useState<string | null>(endedBecause);
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
        <h1>Kitchen display{endpoint ? ` · ${endpoint}` : ''}</h1>
        <div class="tabs" role="tablist">
          {(
            [
              ['code', 'Pairing code'],
              ['manager', 'Manager pairs'],
              ['user', 'User login'],
            ] as const
          ).map(([t, label]) => (
            <button key={t} type="button" role="tab" aria-selected={tab === t} class={tab === t ? 'on' : ''} onClick={() => (setTab(t), setError(null))}>
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
            <p class="hint">Enter the 6-digit code the manager made for this display. It works once, for 10 minutes.</p>
            <input
              class="code"
              aria-label="Pairing code"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={7}
              value={code}
              placeholder="••••••"
              onInput={(e) => setCode(e.currentTarget.value.replace(/\D/g, '').slice(0, 6))}
            />
            <div class="keypad">
              {['1', '2', '3', '4', '5', '6', '7', '8', '9', 'C', '0', '⌫'].map((k) => (
                <button key={k} type="button" class="key" aria-label={k === '⌫' ? 'Delete' : k === 'C' ? 'Clear' : k} onClick={() => press(k)}>
                  {k}
                </button>
              ))}
            </div>
            <button class="big primary" type="submit" disabled={busy || code.length !== 6}>
              Pair
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
            <p class="hint">A manager (right OrderEndpointUpdate) pairs this screen here; the screen keeps only a kitchen session, never the manager’s. Use a back-office device: a login on a register would end the cashier’s session there.</p>
            {!endpoint && (
              <label>
                Order endpoint
                <input value={target} onInput={(e) => setTarget(e.currentTarget.value)} required />
              </label>
            )}
            <Credentials {...{ userName, setUserName, password, setPassword, device, setDevice }} userLabel="Manager’s user name" deviceLabel="Manager’s device (back office)" devicePlaceholder="BackOffice" />
            <button class="big primary" type="submit" disabled={busy}>
              Pair this screen
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
            <p class="hint">A Tool device and a user with the right OrderProcess.</p>
            <Credentials {...{ userName, setUserName, password, setPassword, device, setDevice }} userLabel="User name" deviceLabel="Device" deviceRequired />
            <button class="big primary" type="submit" disabled={busy}>
              Log in
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
        Password
        <input type="password" value={p.password} autoComplete="current-password" onInput={(e) => p.setPassword(e.currentTarget.value)} required />
      </label>
      <label>
        {p.deviceLabel}
        <input value={p.device} placeholder={p.devicePlaceholder} onInput={(e) => p.setDevice(e.currentTarget.value)} required={p.deviceRequired} />
      </label>
    </>
  );
}
