/**
 * A device setting a driver refuses, said by rule: the hub says it in its caller's language
 * (`setting.<rule>` in hub/i18n/messages.ts) while the error's own message stays the English for
 * logs and tests. Drivers keep their error classes; `refused()` marks the error with the rule.
 */
export type SettingRule =
  | 'form'
  | 'notOneOf'
  | 'range'
  | 'trueFalse'
  | 'wholeInRange'
  | 'milliseconds'
  | 'variant'
  | 'taxGroup'
  | 'operatorPassword'
  | 'printerModel'
  | 'cashRegisterCode';

/** `setting`: the setting's name; `value`: what was given; the rule's own params beside them. */
export interface SettingFault {
  rule: SettingRule;
  params: Record<string, string | number>;
}

const FAULT = Symbol('settingFault');

/** `error`, marked as the refusal of a setting by `rule`. */
export function refused<E extends Error>(error: E, rule: SettingRule, params: Record<string, string | number>): E {
  return Object.assign(error, { [FAULT]: { rule, params } });
}

/** The setting rule an error says was broken, if it is a refused setting. */
export function settingFaultOf(error: unknown): SettingFault | undefined {
  return error instanceof Error ? (error as Error & { [FAULT]?: SettingFault })[FAULT] : undefined;
}
