/**
 * Rules the hub and its pages both apply, written once: the hub checks what it is sent by them, and
 * the manager's page checks a form by the same ones before it sends it (and shows what a numbering's
 * next number will look like) — so the page never refuses what the hub takes, nor the other way round.
 *
 * Pure (no imports): the pages bundle it (scripts/eslint.config.js BUNDLED_FOR_BROWSER). What a rule
 * finds is a fault name; each side says it in its own words (the hub's catalog, the page's).
 */

// ---- document numberings (CONTRACT §7): text with {yyyy} {yy} {MM} {dd} and one counter {iN}

/** What is wrong with a numbering's format: an unknown `{token}`, a stray brace, or not exactly one counter. */
export type NumberingFormatFault = { fault: 'notAToken'; token: string } | { fault: 'unbalanced' } | { fault: 'oneCounter' };

/** `{yyyy} {yy} {MM} {dd} {iN}` (N from 1 to 20); any other `{...}` is refused, and exactly one counter is required. */
export function numberingFormatFault(format: string): NumberingFormatFault | null {
  const tokens = format.match(/\{[^{}]*\}/g) ?? [];
  for (const token of tokens) {
    if (!/^\{(yyyy|yy|MM|dd|i([1-9]|1[0-9]|20))\}$/.test(token)) return { fault: 'notAToken', token };
  }
  if (/[{}]/.test(format.replace(/\{[^{}]*\}/g, ''))) return { fault: 'unbalanced' };
  if (tokens.filter((t) => t.startsWith('{i')).length !== 1) return { fault: 'oneCounter' };
  return null;
}

/** The document number `format` gives `counter` on the day `at` (a calendar day, in whatever zone the caller reads it). */
export function formatDocumentNumber(format: string, counter: number, at: { year: number; month: number; day: number }): string {
  const pad = (n: number, w: number) => String(n).padStart(w, '0');
  return format.replace(/\{(yyyy|yy|MM|dd|i(\d+))\}/g, (_m, token: string, digits: string | undefined) => {
    if (digits) return pad(counter, Number(digits));
    if (token === 'yyyy') return pad(at.year, 4);
    if (token === 'yy') return pad(at.year % 100, 2);
    if (token === 'MM') return pad(at.month, 2);
    return pad(at.day, 2);
  });
}

// ---- e-mail addresses: a receipt's recipient, the mail server's sender, a customer's address

/** `a@b.c`: one @, a dot in the domain, none of the characters that would make it a list or a display name. */
export const isEmailAddress = (s: string): boolean => /^[^@\s"<>(),;:]+@[^@\s"<>(),;:]+\.[^@\s"<>(),;:]+$/.test(s);

/** The address inside `Name <a@b.c>`, or the text itself. */
export function addressOf(from: string): string {
  return /<([^<>]+)>\s*$/.exec(from)?.[1] ?? from.trim();
}

// ---- prices typed at the till (CONTRACT §12)

/**
 * Device setting OpenedPrices "true": the device's users type prices in (a market stall) without
 * TicketSetPrice, so switching it on hands that right out (devices/resource.ts). The register offers
 * typing a price by the same rule.
 */
export function opensPrices(settings: Readonly<Record<string, string>> | null | undefined): boolean {
  return (settings?.OpenedPrices ?? '').toLowerCase() === 'true';
}
