/**
 * Secret settings of devices, order endpoints and fiscal devices (CONTRACT §12 "Secrets"): an
 * integrator's API key, a terminal's PIN, a fiscal printer's operator password. Like the SMTP
 * password, a secret setting is write-only:
 *
 * - it is never answered (to anyone, SettingsRead included) — the document names the secret
 *   settings it holds in `secretSettings` instead — nor put in a session's device;
 * - a PUT that leaves it out keeps it only while every field it is tied to stays the same: what the
 *   secret is presented to (the address, the driver or type, and every setting that names a place:
 *   a host, a URL, a port…, or whose value is one — a URL, an IP address, a host name — whatever the
 *   setting is called, since a driver may read `PaymentEndpoint` or `Gateway`). Change one of those
 *   without sending the secret again and it is dropped, so a caller who may edit a device but was never told its secret cannot send it to a host of their
 *   choosing;
 * - a PUT that sends it as "" removes it.
 */
import { z } from 'zod';
import { atRead } from './define.js';

/** Setting names that hold a secret: password, secret, token, key, PIN, credential. */
const SECRET_SETTING = /pass(word)?|secret|token|api[-_ ]?key|private[-_ ]?key|credential|pin$|pin[-_ ]?code/;
/** Setting names that say where something is sent: a secret is tied to them. */
const PLACE_SETTING = /address|host|url|uri|port|server|^ip|ip$/;

/**
 * Values that are a place whatever the setting is called (`PaymentEndpoint`, `Gateway`, `Domain`…):
 * a URL, an IPv4 address, or a host name with a top-level domain (`pay.example.com`, `printer.local:9100`).
 */
const PLACE_VALUE = /:\/\/|^\d{1,3}(\.\d{1,3}){3}(:\d+)?$|^([a-z0-9-]+\.)+[a-z][a-z0-9-]*\.?(:\d+)?$/i;

export const isSecretSetting = (name: string) => SECRET_SETTING.test(name.toLowerCase());
const isPlaceSetting = (name: string) => !isSecretSetting(name) && PLACE_SETTING.test(name.toLowerCase());
/** A setting a secret is tied to: its name says it is a place, or its value (sent or stored) is one. */
const isPlace = (name: string, values: ReadonlyArray<string | undefined>) =>
  isPlaceSetting(name) || (!isSecretSetting(name) && values.some((v) => v !== undefined && PLACE_VALUE.test(v.trim())));

/** The read-only member that names the secret settings a document holds (their values are never answered). */
export const secretSettingsField = {
  secretSettings: atRead(
    z
      .array(z.string())
      .describe(
        'The names of the secret settings stored (names holding password, secret, token, API key, private key, credential or PIN); ' +
          'their values are never answered. A PUT that leaves one out keeps it while the address, the driver or type and every ' +
          'setting naming a place (address, host, URL, port, server, IP) or holding one (a URL, an IP address, a host name) stay the same, and drops it otherwise; "" removes it.',
      ),
  ),
};

/** A document holding settings (a device, an order endpoint, a fiscal device). */
type WithSettings = { settings?: Record<string, string> };

const settingsOf = (doc: WithSettings | undefined): Record<string, string> => doc?.settings ?? {};

/** A document as answered: without the values of its secret settings, with their names in `secretSettings`. */
export function withoutSecretSettings<T extends WithSettings>(doc: T): T & { secretSettings: string[] } {
  const settings = settingsOf(doc);
  const secret = Object.keys(settings).filter(isSecretSetting).sort();
  if (!secret.length) return { ...doc, secretSettings: [] };
  return { ...doc, settings: Object.fromEntries(Object.entries(settings).filter(([k]) => !isSecretSetting(k))), secretSettings: secret };
}

/** Settings without their secrets, for what a session carries or a list shows. */
export function publicSettings(settings: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(settings).filter(([k]) => !isSecretSetting(k)));
}

/**
 * The settings a write stores: the body's, plus each stored secret it left out while everything the
 * secret is tied to stays (`tiedTo`: the document's own fields, such as address and driver, and every
 * setting that names a place); a secret sent as "" is removed.
 */
export function keepSecretSettings<B extends WithSettings>(body: B, existing: (WithSettings & Record<string, unknown>) | undefined, tiedTo: ReadonlyArray<keyof B & string>): B & { settings: Record<string, string> } {
  const sent = settingsOf(body);
  const stored = settingsOf(existing);
  const settings: Record<string, string> = Object.fromEntries(Object.entries(sent).filter(([k, v]) => !(isSecretSetting(k) && v === '')));
  const leftOut = Object.keys(stored).filter((k) => isSecretSetting(k) && !Object.hasOwn(sent, k));
  if (leftOut.length && existing && sameTies(body, existing, tiedTo)) for (const k of leftOut) settings[k] = stored[k];
  return { ...body, settings };
}

function sameTies<B extends WithSettings>(body: B, existing: WithSettings & Record<string, unknown>, fields: ReadonlyArray<keyof B & string>): boolean {
  if (fields.some((f) => (body[f] ?? null) !== (existing[f] ?? null))) return false;
  const sent = settingsOf(body);
  const stored = settingsOf(existing);
  const places = new Set([...Object.keys(sent), ...Object.keys(stored)].filter((k) => isPlace(k, [sent[k], stored[k]])));
  return [...places].every((k) => sent[k] === stored[k]);
}
