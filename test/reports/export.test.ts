/**
 * Accounting exports (issue 28, point 7): the days' sales as POHODA XML (an internal document a day, an
 * item a VAT rate) and as a CSV journal (a line per ticket and rate), held against sums this test makes
 * from the tickets it closed — three VAT rates, ticket discounts that share out to the cent, a return,
 * two local days in Europe/Bratislava. CSV text cells that would run as formulas start with a quote.
 */
import { Decimal } from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../hub/core/clock.js';
import { ADMIN_PASSWORD, startHub, type TestHub } from '../support/hub.js';
import { ALL_TICKET_RIGHTS, expect2xx, item, register, restaurant } from '../tickets/fixture.js';
import { localDay } from './sums.js';

const TZ = 'Europe/Bratislava';
let hub: TestHub;
let reg: Awaited<ReturnType<typeof register>>;
const closed: any[] = [];

async function at(iso: string): Promise<void> {
  hub.clock.set(iso);
  hub.adminToken = await hub.login('admin', ADMIN_PASSWORD, 'BackOffice');
  reg.token = await hub.login(reg.userName, 'pw', reg.device);
}
async function sell(body: Record<string, unknown>, payments: Array<{ paymentTypeNumber: number; amount: number }>): Promise<any> {
  const t = await expect2xx(hub.call('POST', '/api/tickets', body, { token: reg.token }));
  const c = await expect2xx(hub.call('POST', `/api/tickets/${t.id}/close`, { payments }, { token: reg.token }));
  closed.push(c);
  return c;
}

beforeAll(async () => {
  hub = await startHub({ clock: new FakeClock('2026-11-20T09:00:00Z'), timeZone: TZ, locale: 'sk' });
  await restaurant(hub);
  await expect2xx(hub.call('POST', '/api/plus', { code: 11, stockName: 'Menu', name: 'Kofola', type: 'Service', unitPrice: { amount: 1.9 }, vatInfo: { category: 2, rate: 10 } }));
  await expect2xx(hub.call('POST', '/api/plus', { code: 12, stockName: 'Menu', name: 'Chlieb', type: 'Service', unitPrice: { amount: 1.33 }, vatInfo: { category: 3, rate: 5 } }));
  reg = await register(hub, [...ALL_TICKET_RIGHTS, 'TicketReadAll']);
  await sell({ name: '=HYPERLINK("http://x")', items: [item(1, 2), item(11, 3), item(12, 1)] }, [{ paymentTypeNumber: 1, amount: 30 }]);
  await sell({ discountRate: 33, items: [item(3, 3), item(11, 1), item(12, 2)] }, [{ paymentTypeNumber: 2, amount: 7.48 }]);
  // 23:30 local on the 20th, then 00:30 on the 21st.
  await at('2026-11-20T22:30:00Z');
  await sell({ discountRate: 75, items: [item(4, 1), item(4, 1), item(4, 1)] }, [{ paymentTypeNumber: 1, amount: 0.08 }]);
  await at('2026-11-20T23:30:00Z');
  await sell({ items: [item(11, 2), item(1, 1)] }, [{ paymentTypeNumber: 2, amount: 10.7 }]);
  const ret = await expect2xx(hub.call('POST', `/api/tickets/${closed[0].id}/return`, { items: [{ id: 1, quantity: 1 }] }, { token: reg.token }));
  closed.push(await expect2xx(hub.call('POST', `/api/tickets/${ret.id}/close`, { payments: [{ paymentTypeNumber: 1, amount: ret.totalPrice.amount }] }, { token: reg.token })));
});
afterAll(() => hub.close());

/** The tickets' own VAT split summed per local day and rate: what both exports must say. */
function byDayAndRate(): Map<string, Map<number, { base: Decimal; vat: Decimal; gross: Decimal }>> {
  const out = new Map<string, Map<number, { base: Decimal; vat: Decimal; gross: Decimal }>>();
  for (const t of closed) {
    const day = localDay(t.closeDate, TZ);
    const rates = out.get(day) ?? new Map();
    for (const v of t.vatBreakdown) {
      const s = rates.get(v.rate) ?? { base: new Decimal(0), vat: new Decimal(0), gross: new Decimal(0) };
      s.base = s.base.plus(v.gross).minus(v.vat);
      s.vat = s.vat.plus(v.vat);
      s.gross = s.gross.plus(v.gross);
      rates.set(v.rate, s);
    }
    out.set(day, rates);
  }
  return out;
}

async function download(query: string): Promise<{ status: number; type: string | null; disposition: string | null; bytes: Buffer; text: string }> {
  const r = await fetch(`${hub.url}/api/reports/export?${query}`, { headers: { authorization: `Bearer ${hub.adminToken}`, 'accept-language': 'sk' } });
  const bytes = Buffer.from(await r.arrayBuffer());
  return { status: r.status, type: r.headers.get('content-type'), disposition: r.headers.get('content-disposition'), bytes, text: bytes.toString('utf8') };
}

const tag = (xml: string, name: string) => [...xml.matchAll(new RegExp(`<${name}>([^<]*)</${name}>`, 'g'))].map((m) => m[1]);

describe('POHODA XML', () => {
  it('a dataPack of one internal document a day, an item a VAT rate: base, VAT and total to the cent', async () => {
    const r = await download('from=2026-11-20&to=2026-11-21&format=pohoda&ico=12345678');
    expect(r.status).toBe(200);
    expect(r.type).toMatch(/^application\/xml/);
    expect(r.disposition).toBe('attachment; filename="pohoda-2026-11-20_2026-11-21.xml"');
    expect(r.text.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<dat:dataPack xmlns:dat="http://www.stormware.cz/schema/version_2/data.xsd" xmlns:int="http://www.stormware.cz/schema/version_2/intDoc.xsd" xmlns:typ="http://www.stormware.cz/schema/version_2/type.xsd" version="2.0"')).toBe(true);
    expect(r.text).toContain('ico="12345678" application="POS Hub"');
    const items = r.text.split('<dat:dataPackItem ').slice(1);
    const want = byDayAndRate();
    expect(items).toHaveLength(want.size);
    const classes: Record<number, string> = { 20: 'high', 10: 'low', 5: 'third' };
    for (const [i, [day, rates]] of [...want].sort().entries()) {
      const doc = items[i];
      expect(tag(doc, 'int:date')).toEqual([day]);
      expect(tag(doc, 'int:text')[0]).toBe(`Tržba z pokladne ${Number(day.slice(8))}.${Number(day.slice(5, 7))}.${day.slice(0, 4)}`);
      const lines = doc.split('<int:intDocItem>').slice(1).map((l) => ({
        rate: Number(tag(l, 'int:percentVAT')[0]),
        rateVAT: tag(l, 'int:rateVAT')[0],
        price: tag(l, 'typ:price')[0],
        priceVAT: tag(l, 'typ:priceVAT')[0],
        priceSum: tag(l, 'typ:priceSum')[0],
      }));
      expect(lines).toEqual([...rates].sort((a, b) => a[0] - b[0]).map(([rate, s]) => ({ rate, rateVAT: classes[rate], price: s.base.toFixed(2), priceVAT: s.vat.toFixed(2), priceSum: s.gross.toFixed(2) })));
      const dayTotal = closed.filter((t) => localDay(t.closeDate, TZ) === day).reduce((s, t) => s.plus(t.totalPrice.amount), new Decimal(0));
      expect(lines.reduce((s, l) => s.plus(l.priceSum), new Decimal(0)).toFixed(2)).toBe(dayTotal.toFixed(2));
    }
    // The same figures as the sales report by VAT rate.
    const report = await expect2xx(hub.call('GET', '/api/reports/sales?from=2026-11-20&to=2026-11-21&groupBy=vat'));
    const all = [...want.values()].flatMap((m) => [...m]);
    for (const row of report.rows) expect(all.filter(([rate]) => rate === row.rate).reduce((s, [, v]) => s.plus(v.vat), new Decimal(0)).toNumber()).toBe(row.vat);
  });

  it('400 naming format, ico, from or to; ReportRead', async () => {
    for (const [q, member] of [
      ['from=2026-11-20&to=2026-11-21', 'format'],
      ['from=2026-11-20&to=2026-11-21&format=xml', 'format'],
      ['from=2026-11-20&to=2026-11-21&format=pohoda', 'ico'],
      ['from=2026-11-20&to=2026-11-21&format=pohoda&ico=SK1234', 'ico'],
      ['from=2026-11-22&to=2026-11-21&format=csv', 'to'],
      ['to=2026-11-21&format=csv', 'from'],
    ]) {
      const r = await hub.call('GET', `/api/reports/export?${q}`);
      expect([r.status, r.body.errors?.[0]?.memberName], q).toEqual([400, member]);
    }
    const nobody = await hub.userWith([]);
    expect((await hub.call('GET', '/api/reports/export?from=2026-11-20&to=2026-11-21&format=csv', undefined, { token: nobody })).status).toBe(403);
  });
});

describe('CSV journal', () => {
  it('a line per ticket and VAT rate, a total per rate; Slovak separators; formulas defused, the hub’s negative numbers not', async () => {
    const r = await download('from=2026-11-20&to=2026-11-21&format=csv');
    expect(r.status).toBe(200);
    expect(r.type).toMatch(/^text\/csv/);
    expect(r.disposition).toBe('attachment; filename="journal-2026-11-20_2026-11-21.csv"');
    expect([...r.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = r.text.slice(1).trimEnd().split('\r\n');
    expect(lines[0]).toBe('Dátum;Čas;Pokladničný doklad;Účet;Pokladňa;Čašník;Sadzba DPH;Základ;DPH;Spolu s DPH;Platby');
    const sk = (d: Decimal.Value) => new Decimal(d).toFixed(2).replace('.', ',');
    const expected: string[] = [];
    const sums = new Map<number, { base: Decimal; vat: Decimal; gross: Decimal }>();
    for (const t of [...closed].sort((a, b) => a.closeDate.localeCompare(b.closeDate) || a.id.localeCompare(b.id))) {
      for (const v of t.vatBreakdown) {
        const s = sums.get(v.rate) ?? { base: new Decimal(0), vat: new Decimal(0), gross: new Decimal(0) };
        sums.set(v.rate, { base: s.base.plus(v.gross).minus(v.vat), vat: s.vat.plus(v.vat), gross: s.gross.plus(v.gross) });
        // A formula gets its quote; text holding a quote or the separator is quoted (CONTRACT §12).
        const text = t.name || t.id;
        const guarded = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
        const name = /[";\r\n]/.test(guarded) ? `"${guarded.replace(/"/g, '""')}"` : guarded;
        expected.push([name, String(v.rate), sk(new Decimal(v.gross).minus(v.vat)), sk(v.vat), sk(v.gross)].join(';'));
      }
    }
    const body = lines.slice(1, 1 + expected.length).map((l) => {
      const cells = l.match(/("([^"]|"")*"|[^;]*)(;|$)/g)!.map((c) => c.replace(/;$/, ''));
      return [cells[3], cells[6], cells[7], cells[8], cells[9]].join(';');
    });
    expect(body).toEqual(expected);
    expect(body[0].startsWith(`"'=HYPERLINK(""http://x"")";`)).toBe(true);
    // A return's lines are negative numbers the hub wrote: no quote in front of them.
    expect(lines.some((l) => /;-\d+,\d\d;/.test(l))).toBe(true);
    expect(lines.slice(1 + expected.length)).toEqual([...sums].sort((a, b) => a[0] - b[0]).map(([rate, s]) => `Spolu;;;;;;${rate};${sk(s.base)};${sk(s.vat)};${sk(s.gross)};`));
  });
});
