import { z } from 'zod';
import { defineResource } from '../../engine/define.js';
import { idKeyed } from '../../engine/keys.js';
import { dateTime, enumOf, idKey } from '../../engine/fields.js';
import { bool } from '../../engine/refs.js';
import { entryInUse, windowStart } from './periods.js';
import { customIssue } from '../../i18n/say.js';
import { numberingFormatFault } from '../../core/rules.js';
import type { MessageKey, Params } from '../../i18n/index.js';

export const STOCK_TRANSFER_TYPES = ['Income', 'Outcome', 'Transfer', 'Sale', 'Invoice', 'Correction'] as const;
export const PERIOD_UNITS = ['Day', 'Week', 'Month', 'Year'] as const;

/** Made on first start (CONTRACT §7); also the formats server-made documents fall back to. */
export const DEFAULT_NUMBERINGS = [
  { id: 'income', type: 'Income', format: 'P-{yyyy}{MM}{i4}', unit: 'Month' },
  { id: 'outcome', type: 'Outcome', format: 'V-{yyyy}{MM}{i4}', unit: 'Month' },
  { id: 'transfer', type: 'Transfer', format: 'T-{yyyy}{MM}{i4}', unit: 'Month' },
  { id: 'sale', type: 'Sale', format: 'S-{yyyy}{MM}{i6}', unit: 'Month' },
  { id: 'invoice', type: 'Invoice', format: 'FA-{yyyy}{i4}', unit: 'Year' },
  { id: 'correction', type: 'Correction', format: 'K-{yyyy}{MM}{i4}', unit: 'Month' },
] as const;

/** A format's problem as the catalog says it (the rule itself is hub/core/rules.ts, which the page applies too). */
export function formatProblem(format: string): { key: MessageKey; params?: Params } | null {
  const found = numberingFormatFault(format);
  if (!found) return null;
  return found.fault === 'notAToken' ? { key: 'numbering.notAToken', params: { token: found.token } } : { key: `numbering.${found.fault}` };
}

const entry = z.object({
  isActive: z.boolean().default(true),
  createdAt: dateTime().optional(),
  startAt: dateTime(),
  period: z.object({ unit: enumOf(PERIOD_UNITS), amount: z.number().int().min(1).max(1000) }),
  currentNumber: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).default(0),
});

export const numberings = defineResource({
  name: 'stocktransfernumberings',
  title: 'StockTransferNumbering',
  example: { isActive: false, type: 'Income', format: 'PR{yyyy}-{i5}', repeat: true, numberings: [{ startAt: '2026-01-01T00:00:00.000Z', period: { unit: 'Year', amount: 1 }, currentNumber: 0 }] },
  table: 'stock_transfer_numberings',
  key: idKeyed(),
  schema: z.object({
    id: idKey().optional(),
    isActive: z.boolean().default(true),
    type: enumOf(STOCK_TRANSFER_TYPES),
    format: z
      .string()
      .min(1)
      .max(200)
      .superRefine((f, ctx) => {
        const problem = formatProblem(f);
        if (problem) ctx.addIssue({ code: 'custom', ...customIssue(problem.key, problem.params) });
      }),
    repeat: z.boolean().default(false),
    numberings: z.array(entry).max(100).default([]),
  }),
  answered: {
    numberings: z.array(
      entry.extend({
        createdAt: z.string(),
        currentPeriodStart: z.string().nullable().meta({ description: 'Start of the window the counter counts in (a repeating numbering restarts at 1 in the next).' }),
      }),
    ),
  },
  readOnly: {},
  columns: (d) => ({ is_active: bool(d.isActive), type: d.type }),
  unique: [
    {
      columns: ['type'],
      where: 'is_active = 1',
      when: (d) => d.isActive,
      member: 'isActive',
      message: 'numbering.activeExists',
    },
  ],
  filters: {
    id: { type: 'string', column: 'id' },
    isActive: { type: 'bool', column: 'is_active' },
    type: { type: 'enum', column: 'type', enumValues: STOCK_TRANSFER_TYPES },
  },
  read: { right: 'StockRead' },
  rights: {
    create: 'StockTransferNumberingCreate',
    update: 'StockTransferNumberingUpdate',
    delete: 'StockTransferNumberingDelete',
  },
  hooks: {
    prepare({ body, existing, ctx }) {
      const now = ctx.clock.now();
      const before = existing?.numberings ?? [];
      // The window a repeating counter belongs to is the server's to keep. An edit that leaves an
      // entry's counter alone keeps it; a counter the manager sets (or a new entry's) is the last
      // number of the window current now (of the first window, for an entry that starts later).
      const entries = body.numberings.map((e) => {
        const old = before.find((o) => o.startAt === e.startAt && o.period.unit === e.period.unit && o.period.amount === e.period.amount);
        const startAt = new Date(e.startAt);
        const currentPeriodStart =
          old && old.currentNumber === e.currentNumber
            ? (old.currentPeriodStart ?? null)
            : windowStart(startAt, e.period, startAt > now ? startAt : now, ctx.timeZone).toISOString();
        return { ...e, createdAt: e.createdAt ?? old?.createdAt ?? now.toISOString(), currentPeriodStart };
      });
      return { ...body, numberings: entries };
    },
    // CONTRACT §11: with repeat, currentNumber is the last number issued in the current window. The entry
    // in use whose window has issued nothing yet shows 0 (and the window's start), as the next number is 1;
    // its stored counter of the earlier window stays until then (issueDocumentNumber restarts from it).
    // Entries not in use (inactive, superseded, future) show their counters as they are.
    present: (doc, ctx) => {
      const now = ctx.clock.now();
      const inUse = doc.repeat ? entryInUse(doc.numberings, now) : -1;
      if (inUse < 0) return doc;
      const e = doc.numberings[inUse];
      const window = windowStart(new Date(e.startAt), e.period, now, ctx.timeZone).toISOString();
      if (e.currentPeriodStart === window) return doc;
      return { ...doc, numberings: doc.numberings.map((x, i) => (i === inUse ? { ...x, currentNumber: 0, currentPeriodStart: window } : x)) };
    },
  },
});
