/** The manager logs in on the BackOffice device; the hub's admin password is printed at first start. */
import { Field } from '../components/Field';
import { Button, Notice } from '../components/ui';
import { ApiError, describeError } from '../lib/api';
import { useForm } from '../lib/form';
import { endedBecause, login } from '../lib/session';
import { useStore } from '../lib/store';

export function Login() {
  const form = useForm({ userName: '', password: '' });
  const ended = useStore(endedBecause);
  const submit = (e: Event) => {
    e.preventDefault();
    void form.submit(async (v) => {
      try {
        await login(v.userName.trim(), v.password);
      } catch (err) {
        if (err instanceof ApiError && err.status === 401) throw new Error('The user name or password is not right.', { cause: err });
        if (err instanceof ApiError && err.status === 429) throw new Error(`Too many failed attempts. ${err.problem.detail ?? ''}`, { cause: err });
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
        <h1>Log in to the back office</h1>
        {ended && !form.formError && <Notice tone="warn">{ended}</Notice>}
        {form.formError && (
          <Notice tone="bad">
            <span data-testid="login-error">{form.formError}</span>
          </Notice>
        )}
        <Field form={form} name="userName" label="User name" required autoFocus autoComplete="username" />
        <Field form={form} name="password" label="Password" kind="password" required />
        <Button type="submit" variant="primary" busy={form.busy} class="btn-block">
          Log in
        </Button>
        <p class="login-hint">
          First time? Log in as <b>admin</b> with the password the hub printed when it first started (also in <code>data/admin-password.txt</code>).
        </p>
      </form>
    </main>
  );
}
