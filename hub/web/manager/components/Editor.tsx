/**
 * The one editor for a hub resource, in a drawer: loads the stored document, lets the page lay
 * out its fields, validates, then POSTs (new) or PUTs the whole document with its `_v` (the hub
 * replaces the resource and refuses a stale version). Save and Delete appear only with the
 * right; a refusal still shows as a message, and the rights are re-read.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError, CONFLICT, describeError, path } from '../lib/api';
import { useForm, type FormApi } from '../lib/form';
import { useLive } from '../lib/live';
import { refreshSession, useCan } from '../lib/session';
import { confirm, Drawer, toast } from './ui';
import { Button, Notice, Spinner } from '../../shared/ui';
import { messages } from '../../shared/i18n';
import { rightWord } from '../lib/rights-words';

const t = messages({
  gone: { en: 'This {noun} no longer exists.', sk: 'Tento záznam ({noun}) už neexistuje.', cs: 'Tento záznam ({noun}) už neexistuje.' },
  saved: { en: '{Noun} saved.', sk: 'Uložené: {noun}.', cs: 'Uloženo: {noun}.' },
  deleted: { en: '{Noun} deleted.', sk: 'Odstránené: {noun}.', cs: 'Odstraněno: {noun}.' },
  askDelete: { en: 'Delete this {noun}?', sk: 'Odstrániť tento záznam ({noun})?', cs: 'Odstranit tento záznam ({noun})?' },
  willGo: { en: '“{title}” will be removed from the hub.', sk: '„{title}“ bude z hubu odstránené.', cs: '„{title}“ bude z hubu odstraněno.' },
  delete: { en: 'Delete', sk: 'Odstrániť', cs: 'Odstranit' },
  cancel: { en: 'Cancel', sk: 'Zrušiť', cs: 'Zrušit' },
  close: { en: 'Close', sk: 'Zavrieť', cs: 'Zavřít' },
  create: { en: 'Create {noun}', sk: 'Vytvoriť', cs: 'Vytvořit' },
  saveChanges: { en: 'Save changes', sk: 'Uložiť zmeny', cs: 'Uložit změny' },
  readOnly: { en: 'You can look at this {noun}, but changing it needs the right “{right}”.', sk: 'Tento záznam ({noun}) si môžete pozrieť, ale na zmenu potrebujete právo „{right}“.', cs: 'Tento záznam ({noun}) si můžete prohlédnout, ale ke změně potřebujete právo „{right}“.' },
  meanwhile: { en: 'Someone else changed this {noun} while you were editing.', sk: 'Kým ste upravovali, niekto iný zmenil tento záznam ({noun}).', cs: 'Zatímco jste upravovali, někdo jiný změnil tento záznam ({noun}).' },
  loadTheirs: { en: 'Load their version', sk: 'Načítať jeho verziu', cs: 'Načíst jeho verzi' },
  reload: { en: 'Reload', sk: 'Načítať znova', cs: 'Načíst znovu' },
});

export interface EditorContext<T> {
  isNew: boolean;
  canEdit: boolean;
  stored: T | null;
}

interface Props<T extends object> {
  resource: string;
  /** The stored key; null for a new one. */
  editKey: string | null;
  noun: string;
  title: (values: T, isNew: boolean) => string;
  subtitle?: (values: T) => ComponentChildren;
  /**
   * A new document's first values. Partial: the fields a page leaves out are the hub's to fill
   * (defaults, `_v`, server-owned fields), so a new document's form holds only what the page sets.
   */
  defaults: Partial<T>;
  rights: { create: string; update: string; delete?: string };
  onClose: () => void;
  onSaved?: (doc: T) => void;
  /**
   * Stores the body instead of the one POST or PUT (a category renamed on the way, say); answers the
   * stored document. `key` is the stored key (null for a new one).
   */
  save?: (body: object, ctx: { isNew: boolean; key: string | null }) => Promise<T>;
  /** The body the hub takes, from the form's values (default: the values as they are). */
  toBody?: (values: T, isNew: boolean) => object;
  wide?: boolean;
  children: (form: FormApi<T>, ctx: EditorContext<T>) => ComponentChildren;
}

export function Editor<T extends object>(props: Props<T>) {
  const { resource, editKey, rights } = props;
  const isNew = editKey === null;
  const can = useCan();
  const form = useForm<T>(props.defaults as T);
  const [stored, setStored] = useState<T | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [changedMeanwhile, setChangedMeanwhile] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const dirty = useRef(false);
  dirty.current = form.dirty;

  const load = async () => {
    if (isNew) return;
    try {
      const doc = await api.get<T>(path(resource, editKey!));
      setStored(doc);
      form.reset(doc);
      setChangedMeanwhile(false);
      setLoadError(null);
    } catch (e) {
      setLoadError(describeError(e, t('gone', { noun: props.noun.toLowerCase() })));
    }
  };
  useEffect(() => {
    void load();
    void refreshSession().catch(() => undefined);
  }, [resource, editKey]);

  // Someone else's change: taken over silently while this form is untouched; while it is being
  // edited, taken in beside the edits when it touched other members (a sale or a delivery changes a
  // product's stockQuantity, and so its _v, many times an evening), announced when it touched the same.
  const latest = useRef({ form, stored });
  latest.current = { form, stored };
  const rebase = async () => {
    let theirs: T;
    try {
      theirs = await api.get<T>(path(resource, editKey!));
    } catch {
      return setChangedMeanwhile(true);
    }
    const { form: now, stored: base } = latest.current;
    if (!base) return;
    const json = (v: unknown) => JSON.stringify(v ?? null);
    const members = new Set([...Object.keys(base), ...Object.keys(theirs), ...Object.keys(now.values)].filter((m) => m !== '_v'));
    const ours = [...members].filter((m) => json((now.values as Record<string, unknown>)[m]) !== json((base as Record<string, unknown>)[m]));
    if (ours.some((m) => json((theirs as Record<string, unknown>)[m]) !== json((base as Record<string, unknown>)[m]))) return setChangedMeanwhile(true);
    const edits = ours.map((m) => [m, (now.values as Record<string, unknown>)[m]] as const);
    setStored(theirs);
    now.reset(theirs);
    for (const [m, v] of edits) now.set(m, v);
  };
  useLive([resource], (c) => {
    if (isNew || (c && String(c.key) !== String(editKey))) return;
    if (c && stored && (stored as { _v?: number })._v === c._v) return;
    if (dirty.current) void rebase();
    else void load();
  });

  const canEdit = isNew ? can(rights.create) : can(rights.update) || can(rights.create);
  const canDelete = !isNew && !!rights.delete && can(rights.delete);

  const save = () =>
    form.submit(async (values) => {
      const body = props.toBody ? props.toBody(values, isNew) : values;
      try {
        const doc = props.save
          ? await props.save(body, { isNew, key: editKey })
          : isNew
            ? await api.post<T>(path(resource), body as Record<string, unknown>)
            : await api.put<T>(path(resource, editKey!), body as Record<string, unknown>);
        toast(t('saved', { Noun: props.noun, noun: props.noun.toLowerCase() }));
        props.onSaved?.(doc);
        props.onClose();
      } catch (e) {
        if (e instanceof ApiError && e.isMissingRight) void refreshSession().catch(() => undefined);
        throw e;
      }
    });

  const remove = async () => {
    const ok = await confirm({ title: t('askDelete', { noun: props.noun.toLowerCase() }), text: t('willGo', { title: props.title(form.values, false) }), confirm: t('delete'), danger: true });
    if (!ok) return;
    setDeleting(true);
    try {
      await api.del(path(resource, editKey!));
      toast(t('deleted', { Noun: props.noun, noun: props.noun.toLowerCase() }));
      props.onClose();
    } catch (e) {
      if (e instanceof ApiError && e.isMissingRight) void refreshSession().catch(() => undefined);
      form.setFormError(describeError(e));
    } finally {
      setDeleting(false);
    }
  };

  const ready = isNew || stored !== null;
  const conflict = form.formError !== null && form.formError === CONFLICT();
  return (
    <Drawer
      title={ready ? props.title(form.values, isNew) : props.noun}
      subtitle={ready && props.subtitle ? props.subtitle(form.values) : undefined}
      onClose={props.onClose}
      wide={props.wide}
      footer={
        ready && (
          <>
            {canDelete && (
              <Button variant="danger" icon="trash" busy={deleting} onClick={remove}>
                {t('delete')}
              </Button>
            )}
            <span class="spacer" />
            <Button variant="ghost" onClick={props.onClose}>
              {canEdit ? t('cancel') : t('close')}
            </Button>
            {canEdit && (
              <Button variant="primary" icon="check" busy={form.busy} onClick={save} data-testid="save">
                {isNew ? t('create', { noun: props.noun.toLowerCase() }) : t('saveChanges')}
              </Button>
            )}
          </>
        )
      }
    >
      {loadError ? (
        <Notice tone="bad">{loadError}</Notice>
      ) : !ready ? (
        <Spinner />
      ) : (
        <form
          class="form"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            if (canEdit) void save();
          }}
        >
          {!canEdit && <Notice tone="info">{t('readOnly', { noun: props.noun.toLowerCase(), right: rightWord(isNew ? rights.create : rights.update) })}</Notice>}
          {changedMeanwhile && (
            <Notice tone="warn">
              {t('meanwhile', { noun: props.noun.toLowerCase() })}{' '}
              <Button small onClick={load}>
                {t('loadTheirs')}
              </Button>
            </Notice>
          )}
          {form.formError && (
            <Notice tone="bad">
              <span data-testid="form-error">{form.formError}</span>
              {conflict && (
                <>
                  {' '}
                  <Button small onClick={load}>
                    {t('reload')}
                  </Button>
                </>
              )}
            </Notice>
          )}
          <fieldset disabled={!canEdit} class="form-fields">
            {props.children(form, { isNew, canEdit, stored })}
          </fieldset>
          {/* Enter in a text field saves, as in any form. */}
          <button type="submit" hidden />
        </form>
      )}
    </Drawer>
  );
}
