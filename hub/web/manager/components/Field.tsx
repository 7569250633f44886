/**
 * The one form field: a label, a control, a hint and the error for its member. Bound to a form
 * (`form` + `name`, checks registered with the form) or used alone (`value` + `onChange`, e.g. a
 * list filter). Numbers accept a decimal comma, as typed in Slovakia and Czechia.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { checks, type Check, type FormApi } from '../lib/form';
import { dayStart, numberText } from '../lib/format';
import { dayOf, isDay as isCalendarDay, noonUtc } from '../../shared/days';
import { Icon } from '../../shared/Icon';
import { intlLocale, messages } from '../../shared/i18n';

const t = messages({
  required: { en: '{label} is required.', sk: 'Pole {label} je povinné.', cs: 'Pole {label} je povinné.' },
  noColor: { en: 'No colour', sk: 'Bez farby', cs: 'Bez barvy' },
  notADate: { en: 'Enter a date like {example}.', sk: 'Zadajte dátum, napr. {example}.', cs: 'Zadejte datum, např. {example}.' },
  calendar: { en: 'Choose in a calendar', sk: 'Vybrať v kalendári', cs: 'Vybrat v kalendáři' },
});

/** A day as the page's language writes it ("21. 11. 2026", "21/11/2026"), from `yyyy-mm-dd`: a calendar day, which no zone moves. */
function dayText(iso: string): string {
  // A day from an address typed by hand may be none: shown as it came, for the hub to refuse.
  if (!isCalendarDay(iso)) return iso;
  return new Intl.DateTimeFormat(intlLocale(), { day: 'numeric', month: 'numeric', year: 'numeric', timeZone: 'UTC' }).format(noonUtc(iso)).replace(/[\u00a0\u202f]/g, ' ');
}

/**
 * `yyyy-mm-dd` of a typed day: the page's way (day, month, year with dots or slashes) or ISO; null
 * when it is none, or no such day.
 */
export function parseDay(text: string): string | null {
  const t = text.replace(/[\s\u00a0\u202f]/g, '');
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(t);
  const local = /^(\d{1,2})[./](\d{1,2})[./](\d{4})$/.exec(t);
  const parts = iso ? [iso[1], iso[2], iso[3]] : local ? [local[3], local[2], local[1]] : null;
  if (!parts) return null;
  const [y, m, d] = parts;
  const day = `${y}-${m.padStart(2, '0')}-${d.padStart(2, '0')}`;
  return isCalendarDay(day) ? day : null;
}

/** Colours offered first by a colour field (the browser's picker lists them): distinct on a register's grid. */
const SUGGESTED_COLORS = ['#e53935', '#fb8c00', '#fdd835', '#43a047', '#00897b', '#1e88e5', '#5e35b1', '#d81b60', '#6d4c41', '#546e7a'];

export interface Option {
  value: string;
  label: string;
}

/** Any form: a field reads and writes its member by path, whatever the document's type. */
export type AnyForm = FormApi<unknown>;

type Kind = 'text' | 'password' | 'email' | 'search' | 'number' | 'select' | 'switch' | 'textarea' | 'date' | 'day' | 'checklist' | 'color';

interface Props {
  label: string;
  kind?: Kind;
  form?: AnyForm;
  name?: string;
  value?: unknown;
  onChange?: (value: unknown) => void;
  error?: string | null;
  required?: boolean;
  /** Empty input means null rather than ''. */
  nullable?: boolean;
  min?: number;
  max?: number;
  integer?: boolean;
  places?: number;
  maxLength?: number;
  options?: Option[];
  /** Suggestions a text field offers as one types (a datalist); any other text is still taken. */
  list?: string[];
  /** A first option for "no choice" in a select. */
  emptyOption?: string;
  placeholder?: string;
  hint?: ComponentChildren;
  suffix?: string;
  disabled?: boolean;
  validate?: Check;
  autoFocus?: boolean;
  autoComplete?: string;
  wide?: boolean;
  /** Large controls for counting on a tablet. */
  big?: boolean;
  testId?: string;
}

function parseNumber(text: string): number | string | null {
  const t = text.trim().replace(/\s/g, '').replace(',', '.');
  if (t === '') return null;
  return /^-?\d*\.?\d+$|^-?\d+\.$/.test(t) ? Number(t) : text;
}

export function Field(props: Props) {
  const { form, name, kind = 'text', label } = props;
  const id = useId();
  const bound = !!(form && name);
  const value = bound ? form!.get(name!) : props.value;
  const error = bound ? form!.errors[name!] : props.error;
  const change = (v: unknown) => (bound ? form!.set(name!, v) : props.onChange?.(v));

  // The latest props, so the check registered once per name always sees the current rules.
  const latest = useRef(props);
  latest.current = props;
  useEffect(() => {
    if (!bound) return;
    const check: Check = (v, all) => {
      const p = latest.current;
      if (p.disabled) return null;
      if (p.required) {
        const empty = v === null || v === undefined || (typeof v === 'string' && v.trim() === '') || (Array.isArray(v) && v.length === 0);
        if (empty) return t('required', { label: p.label });
      }
      if ((p.kind ?? 'text') === 'number') {
        const n = checks.number({ min: p.min, max: p.max, integer: p.integer, places: p.places })(v, all);
        if (n) return n;
      }
      if (p.kind === 'email') {
        const e = checks.email()(v, all);
        if (e) return e;
      }
      if (p.maxLength) {
        const m = checks.maxLength(p.maxLength)(v, all);
        if (m) return m;
      }
      return p.validate ? p.validate(v, all) : null;
    };
    return form!.register(name!, check);
  }, [bound, form?.register, name]);

  // Numbers and days keep the typed text (e.g. "1," on the way to "1,5") apart from the parsed value;
  // a value shown anew is written the page's way ("6,5" in Slovak, not "6.5").
  const isDay = kind === 'date' || kind === 'day';
  // A `date` member is an instant: the shop's day it falls on (it was written as that day's start).
  const dayOfValue = (v: unknown) => (typeof v === 'string' && v ? (kind === 'day' ? v : dayOf(v)) : '');
  const shownAs = (v: unknown) => (v === null || v === undefined || v === '' ? '' : isDay ? (dayOfValue(v) ? dayText(dayOfValue(v)) : '') : numberText(v));
  const [text, setText] = useState(() => shownAs(value));
  const [badDay, setBadDay] = useState(false);
  const lastNumber = useRef<unknown>(value);
  if ((kind === 'number' || isDay) && value !== lastNumber.current) {
    lastNumber.current = value;
    const typed = kind === 'number' ? parseNumber(text) : parseDay(text);
    const same = kind === 'number' ? typed === value : typed === (dayOfValue(value) || null);
    if (!same) setText(shownAs(value));
  }
  const picker = useRef<HTMLInputElement>(null);

  const describedBy = error ? `${id}-err` : props.hint ? `${id}-hint` : undefined;
  const common = {
    id,
    disabled: props.disabled,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy,
    'data-testid': props.testId,
    autoFocus: props.autoFocus,
  };
  const inputClass = `input${props.big ? ' input-big' : ''}`;

  let control: ComponentChildren;
  switch (kind) {
    case 'select':
      control = (
        <select {...common} class={inputClass} value={value === null || value === undefined ? '' : String(value)} onChange={(e) => change(e.currentTarget.value === '' && props.nullable ? null : e.currentTarget.value)}>
          {props.emptyOption !== undefined && <option value="">{props.emptyOption}</option>}
          {props.options?.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      );
      break;
    case 'switch':
      control = (
        <span class="switch">
          <input {...common} type="checkbox" role="switch" checked={!!value} onChange={(e) => change(e.currentTarget.checked)} />
          <span class="switch-track" aria-hidden="true" />
        </span>
      );
      break;
    case 'textarea':
      control = <textarea {...common} class={inputClass} rows={3} value={(value as string) ?? ''} placeholder={props.placeholder} onInput={(e) => change(e.currentTarget.value === '' && props.nullable ? null : e.currentTarget.value)} />;
      break;
    case 'checklist': {
      const chosen = new Set((value as string[] | undefined) ?? []);
      control = (
        <div class="checklist" role="group" aria-labelledby={`${id}-label`}>
          {props.options?.map((o) => (
            <label key={o.value} class={`check${chosen.has(o.value) ? ' checked' : ''}`}>
              <input
                type="checkbox"
                disabled={props.disabled}
                checked={chosen.has(o.value)}
                onChange={(e) => {
                  const next = new Set(chosen);
                  if (e.currentTarget.checked) next.add(o.value);
                  else next.delete(o.value);
                  change(props.options!.map((x) => x.value).filter((v) => next.has(v)));
                }}
              />
              <span>{o.label}</span>
            </label>
          ))}
        </div>
      );
      break;
    }
    case 'number':
      control = (
        <input
          {...common}
          class={inputClass}
          type="text"
          inputMode="decimal"
          autoComplete="off"
          value={text}
          placeholder={props.placeholder}
          onInput={(e) => {
            const t = e.currentTarget.value;
            setText(t);
            const parsed = parseNumber(t);
            lastNumber.current = parsed;
            change(parsed);
          }}
        />
      );
      break;
    case 'color': {
      // `#rrggbb`, or null (nullable): the hub's colour form. The browser's own picker, with suggestions.
      const hex = typeof value === 'string' && /^#[0-9a-f]{6}$/i.test(value) ? value.toLowerCase() : null;
      control = (
        <span class="color-field">
          <input {...common} class="color-input" type="color" list={`${id}-colors`} value={hex ?? '#9e9e9e'} onInput={(e) => change(e.currentTarget.value.toLowerCase())} />
          <datalist id={`${id}-colors`}>
            {SUGGESTED_COLORS.map((c) => (
              <option key={c} value={c} />
            ))}
          </datalist>
          <span class="mono color-code">{hex ?? t('noColor')}</span>
          {props.nullable && hex && (
            <button type="button" class="btn btn-ghost btn-small" disabled={props.disabled} onClick={() => change(null)}>
              {t('noColor')}
            </button>
          )}
        </span>
      );
      break;
    }
    case 'date':
    case 'day': {
      // `date` holds an ISO instant (local midnight); `day` a plain yyyy-mm-dd (filters). Written and
      // typed the page's way, whatever the browser's language (a native date input follows the
      // browser's); the calendar button opens the browser's own picker.
      const commit = (d: string | null) => {
        lastNumber.current = d === null ? null : kind === 'day' ? d : dayStart(d);
        change(lastNumber.current);
      };
      const example = dayText(dayOf(new Date()));
      control = (
        <>
          <input
            {...common}
            class={inputClass}
            type="text"
            inputMode="numeric"
            autoComplete="off"
            value={text}
            placeholder={props.placeholder ?? example}
            aria-invalid={error || badDay ? true : undefined}
            onInput={(e) => {
              const typed = e.currentTarget.value;
              setText(typed);
              const d = parseDay(typed);
              setBadDay(typed.trim() !== '' && d === null);
              if (d !== null) commit(d);
              else if (typed.trim() === '') commit(null);
            }}
            onBlur={() => {
              const d = parseDay(text);
              if (d !== null) setText(dayText(d));
            }}
          />
          <button
            type="button"
            class="icon-btn date-btn"
            title={t('calendar')}
            aria-label={t('calendar')}
            disabled={props.disabled}
            onClick={() => {
              const p = picker.current;
              if (!p) return;
              p.value = dayOfValue(value);
              try {
                p.showPicker();
              } catch {
                p.focus();
              }
            }}
          >
            <Icon name="calendar" size={18} />
          </button>
          <input
            ref={picker}
            class="date-picker"
            type="date"
            tabIndex={-1}
            aria-hidden="true"
            onChange={(e) => {
              const d = e.currentTarget.value;
              setBadDay(false);
              setText(d ? dayText(d) : '');
              commit(d || null);
            }}
          />
        </>
      );
      break;
    }
    default:
      control = (
        <input
          {...common}
          class={inputClass}
          type={kind as 'text'}
          value={(value as string) ?? ''}
          placeholder={props.placeholder}
          maxLength={props.maxLength}
          autoComplete={props.autoComplete ?? (kind === 'password' ? 'current-password' : 'off')}
          list={props.list ? `${id}-list` : undefined}
          onInput={(e) => change(e.currentTarget.value === '' && props.nullable ? null : e.currentTarget.value)}
        />
      );
      if (props.list) {
        control = (
          <>
            {control}
            <datalist id={`${id}-list`}>
              {props.list.map((o) => (
                <option key={o} value={o} />
              ))}
            </datalist>
          </>
        );
      }
  }

  return (
    <div class={`field field-${kind}${error ? ' has-error' : ''}${props.wide ? ' field-wide' : ''}`}>
      <label id={`${id}-label`} for={kind === 'checklist' ? undefined : id} class="field-label">
        {label}
        {props.required && !props.disabled && <span class="req" aria-hidden="true"> *</span>}
      </label>
      <div class="field-control">
        {control}
        {props.suffix && <span class="suffix">{props.suffix}</span>}
      </div>
      {error || (badDay && isDay) ? (
        <div id={`${id}-err`} class="field-error" role="alert">
          {error || t('notADate', { example: dayText(dayOf(new Date())) })}
        </div>
      ) : props.hint ? (
        <div id={`${id}-hint`} class="field-hint">
          {props.hint}
        </div>
      ) : null}
    </div>
  );
}
