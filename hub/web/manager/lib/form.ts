/**
 * Form state for every editor: values by member path (`cards[0].serialNumber`, the hub's
 * memberName spelling), per-field checks that the fields register themselves, and the hub's
 * 400 errors put back next to the field they name. Nothing is sent while a check fails.
 */
import { useCallback, useMemo, useRef, useState } from 'preact/hooks';
import { messages } from '../../shared/i18n';
import { ApiError, CORRECT_FIELDS, describeError, memberLabel } from './api';
import { isEmailAddress } from '../../../core/rules';

const t = messages({
  required: { en: '{label} is required.', sk: 'Pole {label} je povinné.', cs: 'Pole {label} je povinné.' },
  thisField: { en: 'This field', sk: 'Toto pole', cs: 'Toto pole' },
  number: { en: 'Enter a number, e.g. 12.5', sk: 'Zadajte číslo, napr. 12,5', cs: 'Zadejte číslo, např. 12,5' },
  whole: { en: 'Enter a whole number.', sk: 'Zadajte celé číslo.', cs: 'Zadejte celé číslo.' },
  min: { en: 'Must be at least {n}.', sk: 'Najmenej {n}.', cs: 'Nejméně {n}.' },
  max: { en: 'Must be at most {n}.', sk: 'Najviac {n}.', cs: 'Nejvýše {n}.' },
  places: { en: 'At most {n} decimal places.', sk: 'Najviac {n} desatinné miesta.', cs: 'Nejvýše {n} desetinná místa.' },
  email: { en: 'Enter an e-mail address like name@example.com.', sk: 'Zadajte e-mailovú adresu, napr. meno@example.sk.', cs: 'Zadejte e-mailovou adresu, např. jmeno@example.cz.' },
  maxLength: { en: 'At most {n} characters.', sk: 'Najviac {n} znakov.', cs: 'Nejvýše {n} znaků.' },
});

export type Check = (value: unknown, values: Record<string, unknown>) => string | null;

export interface FormApi<T> {
  values: T;
  errors: Record<string, string>;
  /** A message for the whole form: a refusal, a conflict, a member no field shows. */
  formError: string | null;
  busy: boolean;
  dirty: boolean;
  get(path: string): unknown;
  set(path: string, value: unknown): void;
  reset(values: T): void;
  register(path: string, check: Check): () => void;
  /** Runs the checks, then `action`; hub errors land on fields or in formError. True on success. */
  submit(action: (values: T) => Promise<void>): Promise<boolean>;
  setFormError(message: string | null): void;
}

const SEGMENT = /[^.[\]]+/g;

export function getPath(obj: unknown, path: string): unknown {
  let cur: unknown = obj;
  for (const seg of path.match(SEGMENT) ?? []) {
    if (cur === null || cur === undefined) return undefined;
    cur = (cur as Record<string, unknown>)[seg];
  }
  return cur;
}

/** A copy of `obj` with `path` set; missing objects and arrays are made on the way. */
export function setPath<T>(obj: T, path: string, value: unknown): T {
  const segs = path.match(SEGMENT) ?? [];
  const write = (cur: unknown, i: number): unknown => {
    const seg = segs[i];
    const isIndex = /^\d+$/.test(seg);
    const base: Record<string, unknown> | unknown[] = Array.isArray(cur) ? [...cur] : cur && typeof cur === 'object' ? { ...(cur as object) } : isIndex ? [] : {};
    const key = isIndex ? Number(seg) : seg;
    const next = i === segs.length - 1 ? value : write((base as Record<string | number, unknown>)[key], i + 1);
    (base as Record<string | number, unknown>)[key] = next;
    return base;
  };
  return write(obj, 0) as T;
}

export function useForm<T>(initial: T): FormApi<T> {
  const [values, setValues] = useState<T>(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [dirty, setDirty] = useState(false);
  const checks = useRef(new Map<string, Check>());
  const current = useRef(values);
  current.current = values;

  const set = useCallback((path: string, value: unknown) => {
    setValues((v) => {
      const next = setPath(v, path, value);
      current.current = next;
      return next;
    });
    setDirty(true);
    setErrors((e) => {
      if (!(path in e)) return e;
      const { [path]: _gone, ...rest } = e;
      return rest;
    });
  }, []);

  const reset = useCallback((v: T) => {
    current.current = v;
    setValues(v);
    setErrors({});
    setFormError(null);
    setDirty(false);
  }, []);

  const register = useCallback((path: string, check: Check) => {
    checks.current.set(path, check);
    return () => {
      if (checks.current.get(path) === check) checks.current.delete(path);
    };
  }, []);

  const submit = useCallback(async (action: (v: T) => Promise<void>) => {
    const found: Record<string, string> = {};
    const vals = current.current as Record<string, unknown>;
    for (const [path, check] of checks.current) {
      const problem = check(getPath(vals, path), vals);
      if (problem) found[path] = problem;
    }
    setErrors(found);
    if (Object.keys(found).length) {
      setFormError(CORRECT_FIELDS());
      return false;
    }
    setFormError(null);
    setBusy(true);
    try {
      await action(current.current);
      setDirty(false);
      return true;
    } catch (e) {
      if (e instanceof ApiError && e.errors.length) {
        const onFields: Record<string, string> = {};
        const elsewhere: string[] = [];
        for (const m of e.errors) {
          const message = m.message.replace(/^./, (c) => c.toUpperCase());
          // The hub may name an object whose field the form shows (`items[0].plu` → its `items[0].plu.code`).
          const field = checks.current.has(m.memberName) ? m.memberName : [...checks.current.keys()].find((path) => path.startsWith(`${m.memberName}.`));
          if (field) onFields[field] = message;
          else elsewhere.push(`${memberLabel(m.memberName)}: ${m.message}`);
        }
        setErrors(onFields);
        setFormError(elsewhere.length ? elsewhere.join(' ') : describeError(e));
      } else {
        setFormError(describeError(e));
      }
      return false;
    } finally {
      setBusy(false);
    }
  }, []);

  return useMemo(
    () => ({ values, errors, formError, busy, dirty, get: (p: string) => getPath(values, p), set, reset, register, submit, setFormError }),
    [values, errors, formError, busy, dirty, set, reset, register, submit],
  );
}

/** Reusable checks. */
export const checks = {
  required: (label?: string): Check => (v) => (v === null || v === undefined || (typeof v === 'string' && v.trim() === '') ? t('required', { label: label ?? t('thisField') }) : null),
  number: (o: { min?: number; max?: number; integer?: boolean; places?: number } = {}): Check => (v) => {
    if (v === null || v === undefined || v === '') return null;
    if (typeof v !== 'number' || !Number.isFinite(v)) return t('number');
    if (o.integer && !Number.isInteger(v)) return t('whole');
    if (o.min !== undefined && v < o.min) return t('min', { n: o.min });
    if (o.max !== undefined && v > o.max) return t('max', { n: o.max });
    const places = o.places ?? 4;
    if (Math.round(v * 10 ** places) / 10 ** places !== v) return t('places', { n: places });
    return null;
  },
  /** The hub's own e-mail rule (hub/core/rules.ts): `a@b.c`. */
  email: (): Check => (v) => (typeof v === 'string' && v && !isEmailAddress(v) ? t('email') : null),
  maxLength: (n: number): Check => (v) => (typeof v === 'string' && v.length > n ? t('maxLength', { n }) : null),
  pattern: (re: RegExp, message: string): Check => (v) => (typeof v === 'string' && v && !re.test(v) ? message : null),
};
