/**
 * Document numbers for stock transfers (CONTRACT §7, §11). Runs inside the transfer's write
 * transaction (SQLite serializes writers), so two transfers never get the same number.
 */
import { getMeta, setMeta } from '../../core/meta-store.js';
import { activeNumberingId, documentNumberTaken } from './store.js';
import { errors } from '../../http/errors.js';
import { formatDocumentNumber } from '../../core/rules.js';
import { zonedParts, type ZonedParts } from '../../core/time.js';
import type { EngineContext } from '../../engine/define.js';
import { getStoredRow, putStored } from '../../engine/repo.js';
import { entryInUse, windowStart } from '../numberings/periods.js';
import { DEFAULT_NUMBERINGS, numberings } from '../numberings/resource.js';

/** The document number for `counter` on the day `at` (the rule the manager's page previews too: hub/core/rules.ts). */
export const formatNumber = (format: string, counter: number, at: ZonedParts): string => formatDocumentNumber(format, counter, at);

function numberTaken(ctx: EngineContext, documentNumber: string): boolean {
  return documentNumberTaken(ctx.db, documentNumber);
}

/**
 * Issues the next document number for `type` at `at`. Without an active numbering (or entry), a
 * POSTed type is a 400; server-made Sale and Correction documents fall back to the default format
 * with a counter kept in the meta table.
 */
export function issueDocumentNumber(ctx: EngineContext, type: string, at: Date, opts: { fallback: boolean }): string {
  const tz = ctx.timeZone;
  const numberingId = activeNumberingId(ctx.db, type);
  // With its columns: the counter's write then leaves the numbering's indexes alone.
  const stored = numberingId ? getStoredRow(ctx.db, numberings, numberingId) : undefined;
  const index = stored ? entryInUse(stored.doc.numberings, at) : -1;
  if (!stored || index < 0) {
    if (!opts.fallback) throw errors.member('type', 'numbering.none', { at: at.toISOString(), type });
    return fallbackNumber(ctx, type, at);
  }
  const e = stored.doc.numberings[index];
  const repeat = stored.doc.repeat;
  const window = repeat ? windowStart(new Date(e.startAt), e.period, at, tz).toISOString() : null;
  let counter = repeat && e.currentPeriodStart !== window ? 0 : e.currentNumber;
  const parts = zonedParts(at, tz);
  let documentNumber: string;
  // A format without period tokens repeats across windows; skip numbers already used rather than fail.
  do {
    counter += 1;
    documentNumber = formatNumber(stored.doc.format, counter, parts);
  } while (numberTaken(ctx, documentNumber));
  const updated = stored.doc.numberings.map((x, i) => (i === index ? { ...x, currentNumber: counter, currentPeriodStart: window } : x));
  putStored(ctx.db, numberings, stored.doc.id, { ...stored.doc, numberings: updated }, stored.v + 1, at.getTime(), stored);
  return documentNumber;
}

function fallbackNumber(ctx: EngineContext, type: string, at: Date): string {
  const format = DEFAULT_NUMBERINGS.find((n) => n.type === type)?.format ?? `${type.slice(0, 1)}-{yyyy}{MM}{i6}`;
  const parts = zonedParts(at, ctx.timeZone);
  const key = `fallback-number:${type}:${parts.year}-${parts.month}`;
  let counter = Number(getMeta(ctx.db, key) ?? 0);
  let documentNumber: string;
  do {
    counter += 1;
    documentNumber = formatNumber(format, counter, parts);
  } while (numberTaken(ctx, documentNumber));
  setMeta(ctx.db, key, String(counter));
  return documentNumber;
}
