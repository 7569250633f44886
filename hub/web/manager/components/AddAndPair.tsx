/**
 * "Add a kitchen display", "Add a register": a button that opens a small form, its fields given by
 * the caller; on submit the caller checks them and asks the hub to make the thing, and the page then
 * pairs it (components/Pairing.tsx). A name the hub refuses is said beside the name field; any other
 * refusal below the form.
 */
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { messages } from '../../shared/i18n';
import { ApiError, describeError } from '../lib/api';
import { Button, Notice } from '../../shared/ui';

const t = messages({
  create: { en: 'Add and pair', sk: 'Pridať a spárovať', cs: 'Přidat a spárovat' },
  cancel: { en: 'Cancel', sk: 'Zrušiť', cs: 'Zrušit' },
});

export function AddAndPair({
  label,
  hint,
  testId,
  create,
  nameRefused,
  onCreated,
  children,
}: {
  /** The button's and the form's title. */
  label: string;
  hint: string;
  /** The button's test id; the form's is `<testId>-form`. */
  testId: string;
  /** Checks the fields (showing their errors) and makes the thing: its name, or null when a field is wrong. */
  create: () => Promise<string | null>;
  /** The hub refused the name (taken, malformed): its words, for the name field. */
  nameRefused: (message: string) => void;
  onCreated: (name: string) => void;
  children: ComponentChildren;
}) {
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (!open) {
    return (
      <Button icon="plus" onClick={() => setOpen(true)} data-testid={testId}>
        {label}
      </Button>
    );
  }
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const name = await create();
      if (name === null) return;
      setOpen(false);
      onCreated(name);
    } catch (err) {
      const member = err instanceof ApiError ? err.errors.find((m) => m.memberName === 'name') : undefined;
      if (member) nameRefused(member.message);
      else setError(describeError(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="kds-form" onSubmit={(e) => void submit(e)} data-testid={`${testId}-form`}>
      <h3>{label}</h3>
      <p class="muted">{hint}</p>
      {children}
      {error && <Notice tone="bad">{error}</Notice>}
      <div class="kds-form-actions">
        <Button type="submit" variant="primary" busy={busy}>
          {t('create')}
        </Button>
        <Button variant="ghost" onClick={() => setOpen(false)}>
          {t('cancel')}
        </Button>
      </div>
    </form>
  );
}
