/** What the settings screens share: a list with its editor, the active badge, and the devices' settings fields. */
import type { ComponentChildren } from 'preact';
import { DataTable, type Column } from '../../components/DataTable';
import { Field, type AnyForm, type Option } from '../../components/Field';
import { Badge, Button, Card } from '../../../shared/ui';
import { useEditParam } from '../../lib/router';
import { messages } from '../../../shared/i18n';
import { useCan } from '../../lib/session';

const t = messages({
  active: { en: 'Active', sk: 'Aktívny', cs: 'Aktivní' },
  inactive: { en: 'Inactive', sk: 'Neaktívny', cs: 'Neaktivní' },
  yes: { en: 'Yes', sk: 'Áno', cs: 'Ano' },
  no: { en: 'No', sk: 'Nie', cs: 'Ne' },
  secretKept: { en: 'Stored, never shown; type to replace', sk: 'Uložené, nikdy sa nezobrazí; napíšte nové', cs: 'Uloženo, nikdy se nezobrazí; napište nové' },
  byDefault: { en: 'Default', sk: 'Predvolené', cs: 'Výchozí' },
});

/** A list with a "New" button and an editor for the row opened: what every settings section is. */
export function Section<T extends object>(props: {
  title: string;
  resource: string;
  createRight: string;
  newLabel: string;
  columns: Column<T>[];
  rowKey: (row: T) => string;
  defaultSort?: string;
  empty: { title: string; text?: string };
  editor: (key: string | null, close: () => void) => ComponentChildren;
}) {
  const [edit, setEdit] = useEditParam();
  const can = useCan();
  return (
    <>
      <Card
        title={props.title}
        actions={
          can(props.createRight) && (
            <Button variant="primary" icon="plus" onClick={() => setEdit('new')}>
              {props.newLabel}
            </Button>
          )
        }
      >
        <DataTable<T> resource={props.resource} label={props.title} columns={props.columns} rowKey={props.rowKey} defaultSort={props.defaultSort} onOpen={(r) => setEdit(props.rowKey(r))} selected={edit} empty={props.empty} />
      </Card>
      {edit && props.editor(edit === 'new' ? null : edit, () => setEdit(null))}
    </>
  );
}

/** A row's state as a badge. */
export const active = (on: boolean) => (on ? <Badge tone="good">{t('active')}</Badge> : <Badge>{t('inactive')}</Badge>);

/** Settings are strings; a yes/no setting is "true", "false" or not set (the device's default). */
export const yesNo = (): Option[] => [
  { value: '', label: t('byDefault') },
  { value: 'true', label: t('yes') },
  { value: 'false', label: t('no') },
];

/** Drops settings left empty, so "default" really is the device's default. */
export function withSettings<T extends { settings: Record<string, string> }>(v: T): T {
  return { ...v, settings: Object.fromEntries(Object.entries(v.settings ?? {}).filter(([, s]) => s !== '' && s !== null && s !== undefined)) };
}

/**
 * Settings of a device that this page does not know by name, editable as text; and its secret
 * settings, which the hub names but never answers (CONTRACT §12): a password field each, empty keeps
 * the stored value, a value typed replaces it.
 */
export function OtherSettings({ form, known }: { form: AnyForm; known: string[] }) {
  const settings = (form.get('settings') as Record<string, string> | undefined) ?? {};
  const plain = (k: string) => !known.includes(k) && /^[^.[\]]+$/.test(k);
  const secret = ((form.get('secretSettings') as string[] | undefined) ?? []).filter(plain);
  const other = Object.keys(settings).filter((k) => plain(k) && !secret.includes(k));
  return (
    <>
      {other.map((k) => (
        <Field key={k} form={form} name={`settings.${k}`} label={k} />
      ))}
      {secret.map((k) => (
        <Field key={k} form={form} name={`settings.${k}`} label={k} kind="password" placeholder={t('secretKept')} autoComplete="new-password" />
      ))}
    </>
  );
}
