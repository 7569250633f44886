/**
 * The ticket body checked without zod (hub/resources/tickets/fast-body.ts, issue 31) answers exactly
 * what zod's parse of `tickets.schema` answers — members, order, defaults, canonical enum spellings —
 * or nothing (zod then decides and names what is wrong). Held to zod on generated bodies: valid ones,
 * which it must take (or a register's write would not be faster), and broken ones, which it must
 * leave to zod.
 */
import { describe, expect, it } from 'vitest';
import { tickets } from '../../hub/resources/tickets/resource.js';

let seed = 12345;
const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
const chance = (p: number) => random() < p;
const amount = (max: number, places: number) => Math.round(random() * max * 10 ** places) / 10 ** places;

const STRINGS = ['', 'Stôl 5', 'Terasa', '7', 'x'.repeat(4000), 'Šopský šalát', ' padded ', 'a/b'];
const IDS = ['t1', 'abc-DEF_1.2', 'x'.repeat(64), '019ac0ffee'];

function validItem(): Record<string, unknown> {
  const item: Record<string, unknown> = { plu: { code: Math.floor(random() * 3000), stockName: pick(['Menu', 'Bar', 'Kuchyňa']) }, quantity: amount(20, pick([0, 0, 1, 4])) || 1 };
  if (chance(0.5)) item.id = 1 + Math.floor(random() * 100);
  if (chance(0.2)) (item.plu as Record<string, unknown>).name = pick(STRINGS);
  if (chance(0.3)) item.type = pick(['Positive', 'Negative', 'positive', 'NEGATIVE']);
  if (chance(0.2)) item.unitPrice = { amount: amount(500, pick([0, 2, 4])) * (chance(0.1) ? -1 : 1) };
  if (chance(0.2)) item.discountRate = amount(100, pick([0, 2]));
  if (chance(0.2)) item.modifiers = Array.from({ length: Math.floor(random() * 3) }, () => ({ modifierId: pick(IDS), optionId: pick(IDS), ...(chance(0.5) ? { quantity: 1 + Math.floor(random() * 5) } : {}) }));
  if (chance(0.2)) item.comment = chance(0.5) ? null : pick(STRINGS);
  if (chance(0.1)) item.extra = 'dropped';
  return item;
}

function validBody(): Record<string, unknown> {
  const body: Record<string, unknown> = { id: pick(IDS) };
  if (chance(0.3)) body.externalId = chance(0.3) ? null : pick(STRINGS);
  if (chance(0.7)) body.name = pick(STRINGS);
  if (chance(0.3)) body.purchaseType = pick(['WalkIn', 'TakeAway', 'Delivery', 'takeaway']);
  if (chance(0.2)) body.currencyLabel = chance(0.5) ? null : 'EUR';
  if (chance(0.2)) body.discountRate = amount(100, pick([0, 1, 4]));
  if (chance(0.3)) body.customer = chance(0.3) ? null : { ...(chance(0.7) ? { id: pick(IDS) } : {}), ...(chance(0.5) ? { cardSerialNumber: chance(0.3) ? null : '123' } : {}) };
  if (chance(0.7)) body.location = chance(0.2) ? null : { ...(chance(0.8) ? { tableName: pick(['5', '12', null]) } : {}), ...(chance(0.5) ? { zoneName: pick(['Terasa', null]) } : {}) };
  if (chance(0.2)) body.note = chance(0.5) ? null : pick(STRINGS);
  if (chance(0.9)) body.items = Array.from({ length: Math.floor(random() * 8) }, validItem);
  if (chance(0.1)) body.unknownMember = { nested: true };
  return body;
}

const BAD_VALUES: unknown[] = [undefined, null, true, 0, -1, 1.5, 1e-5, 1e10, Number.MAX_SAFE_INTEGER + 2, '', 'x'.repeat(4001), ' x', '.', '..', 'a b', 'a/b', 'a\u0001', [], {}, [1], 'WALKIN!', 'Positive ', 101, -0.0001, 2147483648];

/** Some member of a body set to something of the wrong kind. */
function broken(body: Record<string, unknown>): Record<string, unknown> {
  const copy = structuredClone(body);
  const items = copy.items as Array<Record<string, unknown>> | undefined;
  const targets: Array<[Record<string, unknown>, string]> = [
    [copy, pick(['id', 'externalId', 'name', 'purchaseType', 'currencyLabel', 'discountRate', 'customer', 'location', 'note', 'items'])],
  ];
  if (items?.length) {
    const i = pick(items);
    targets.push([i, pick(['id', 'plu', 'type', 'quantity', 'unitPrice', 'discountRate', 'modifiers', 'comment'])]);
    targets.push([i.plu as Record<string, unknown>, pick(['code', 'stockName', 'name'])]);
    if (Array.isArray(i.modifiers) && i.modifiers.length) targets.push([pick(i.modifiers as Array<Record<string, unknown>>), pick(['modifierId', 'optionId', 'quantity'])]);
  }
  if (copy.location && typeof copy.location === 'object') targets.push([copy.location as Record<string, unknown>, pick(['tableName', 'zoneName'])]);
  if (copy.customer && typeof copy.customer === 'object') targets.push([copy.customer as Record<string, unknown>, pick(['id', 'cardSerialNumber'])]);
  const [target, key] = pick(targets);
  target[key] = pick(BAD_VALUES);
  if (chance(0.05)) return { ...copy, items: Array.from({ length: 1001 }, validItem) };
  return copy;
}

const fast = tickets.fastParse!;

function agree(body: Record<string, unknown>): { taken: boolean } {
  const quick = fast(body);
  const parsed = tickets.schema.safeParse(body);
  if (quick !== undefined) {
    expect(parsed.success, JSON.stringify(body).slice(0, 300)).toBe(true);
    // Same members, same values, same order (the stored JSON is the answer).
    expect(JSON.stringify(quick)).toBe(JSON.stringify(parsed.data));
  }
  return { taken: quick !== undefined };
}

describe('the ticket body checked without zod', () => {
  it('takes every valid body a register sends, answering what zod answers', () => {
    for (let n = 0; n < 3000; n++) {
      const body = validBody();
      expect(agree(body).taken, JSON.stringify(body).slice(0, 300)).toBe(true);
    }
  });

  it('leaves every broken body to zod (and any body it takes, zod takes the same)', () => {
    let left = 0;
    for (let n = 0; n < 6000; n++) {
      const body = broken(validBody());
      const zodTakes = tickets.schema.safeParse(body).success;
      const { taken } = agree(body);
      if (!zodTakes) {
        expect(taken).toBe(false);
        left++;
      }
    }
    expect(left).toBeGreaterThan(3000);
  });

  it('the answers a refused body gets are zod\'s, naming the member', async () => {
    const body = { items: [{ plu: { code: 1, stockName: 'Menu' }, quantity: 0 }] };
    expect(fast(body)).toBeUndefined();
    expect(tickets.schema.safeParse(body).error?.issues[0].path).toEqual(['items', 0, 'quantity']);
  });
});
