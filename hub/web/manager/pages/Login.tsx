/** The manager logs in on the BackOffice device; the hub's admin password is printed at first start. */
import { Field } from '../components/Field';
import { Button, Notice } from '../../shared/ui';
import { ApiError, describeError } from '../lib/api';
import { useForm } from '../lib/form';
import { endedBecause, login } from '../lib/session';
import { useStore } from '../../shared/store';
import { messages } from '../../shared/i18n';
import { LanguagePicker } from '../../shared/LanguagePicker';

const t = messages({
  wrong: { en: 'The user name or password is not right.', sk: 'Meno alebo heslo nie je správne.', cs: 'Jméno nebo heslo není správné.' },
  tooMany: { en: 'Too many failed attempts.', sk: 'Príliš veľa neúspešných pokusov.', cs: 'Příliš mnoho neúspěšných pokusů.' },
  title: { en: 'Log in to the back office', sk: 'Prihlásenie do back office', cs: 'Přihlášení do back office' },
  userName: { en: 'User name', sk: 'Používateľské meno', cs: 'Uživatelské jméno' },
  password: { en: 'Password', sk: 'Heslo', cs: 'Heslo' },
  logIn: { en: 'Log in', sk: 'Prihlásiť sa', cs: 'Přihlásit se' },
  firstTime: { en: 'First time? Log in as', sk: 'Prvýkrát? Prihláste sa ako', cs: 'Poprvé? Přihlaste se jako' },
  firstTimeRest: {
    en: 'with the password the hub printed when it first started (also in',
    sk: 's heslom, ktoré hub vypísal pri prvom spustení (je aj v',
    cs: 's heslem, které hub vypsal při prvním spuštění (je také v',
  },
});

export function Login() {
  const form = useForm({ userName: '', password: '' });
  const ended = useStore(endedBecause);
  const submit = (e: Event) => {
    e.preventDefault();
    void form.submit(async (v) => {
      try {
        await login(v.userName.trim(), v.password);
      } catch (err) {
        if (err instanceof ApiError && err.status === 401) throw new Error(t('wrong'), { cause: err });
        if (err instanceof ApiError && err.status === 429) throw new Error(`${t('tooMany')} ${err.problem.detail ?? ''}`, { cause: err });
        throw new Error(describeError(err), { cause: err });
      }
    });
  };
  return (
    <main class="login">
      <form class="login-card" onSubmit={submit} noValidate>
        <div class="brand brand-big">
          <span class="brand-mark" aria-hidden="true">
            P
          </span>
          <span>POS Hub</span>
        </div>
        <h1>{t('title')}</h1>
        {ended && !form.formError && <Notice tone="warn">{ended}</Notice>}
        {form.formError && (
          <Notice tone="bad">
            <span data-testid="login-error">{form.formError}</span>
          </Notice>
        )}
        <Field form={form} name="userName" label={t('userName')} required autoFocus autoComplete="username" />
        <Field form={form} name="password" label={t('password')} kind="password" required />
        <Button type="submit" variant="primary" busy={form.busy} class="btn-block">
          {t('logIn')}
        </Button>
        <p class="login-hint">
          {t('firstTime')} <b>admin</b> {t('firstTimeRest')} <code>data/admin-password.txt</code>).
        </p>
        <LanguagePicker />
      </form>
    </main>
  );
}
