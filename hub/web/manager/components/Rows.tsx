/** Editable rows of a list member of a document (cards, options, numbering entries, transfer items). */
import type { ComponentChildren } from 'preact';
import type { FormApi } from '../lib/form';
import { Empty } from './ui';
import { Button } from '../../shared/ui';
import { messages } from '../../shared/i18n';

const t = messages({
  remove: { en: 'Remove {what} {n}', sk: 'Odstrániť {what} {n}', cs: 'Odstranit {what} {n}' },
});

interface Props<T> {
  form: FormApi<T>;
  name: string;
  label: string;
  newRow: () => object;
  addLabel: string;
  empty: string;
  /** One row's fields; `prefix` is the row's member path, e.g. `cards[2]`. */
  children: (prefix: string, index: number, row: Record<string, unknown>) => ComponentChildren;
  canRemove?: (row: Record<string, unknown>) => boolean;
  disabled?: boolean;
}

export function Rows<T>({ form, name, label, newRow, addLabel, empty, children, canRemove, disabled }: Props<T>) {
  const rows = (form.get(name) as Array<Record<string, unknown>> | undefined) ?? [];
  const error = form.errors[name];
  return (
    <fieldset class="rows" disabled={disabled}>
      <legend>{label}</legend>
      {error && (
        <div class="field-error" role="alert">
          {error}
        </div>
      )}
      {rows.length === 0 && <Empty title={empty} />}
      {rows.map((row, i) => (
        // Index keys: a row keeps its inputs (and focus) while its values change.
        <div class="row-item" key={i}>
          <div class="row-fields">{children(`${name}[${i}]`, i, row)}</div>
          {(!canRemove || canRemove(row)) && (
            <Button small variant="ghost" icon="trash" aria-label={t('remove', { what: label.toLowerCase(), n: i + 1 })} onClick={() => form.set(name, rows.filter((_, j) => j !== i))} />
          )}
        </div>
      ))}
      <Button small icon="plus" onClick={() => form.set(name, [...rows, newRow()])}>
        {addLabel}
      </Button>
    </fieldset>
  );
}
