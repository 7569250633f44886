import { describe, expect, it } from 'vitest';
import { render, wrap } from '../../drivers/escpos/document.js';
import { kitchenOrder, kitchenSettings, preliminaryBill, type KitchenOrderData } from '../../hub/printing/layouts.js';
import { receipt, receiptData, RECEIPT_QR } from '../../drivers/fiscal/escpos/receipt.js';
import { fillQr, qrTemplate } from '../../drivers/escpos/blocks.js';
import { BILL_QR, documentFor } from '../../hub/printing/render.js';
import type { Db } from '../../db/client.js';
import type { KitchenOrders, PrintJob } from '../../hub/printing/store.js';
import { PROFILES } from '../../drivers/escpos/profiles.js';

/** ASCII text as bytes (only for strings without diacritics). */
const a = (s: string) => [...s].map((c) => {
  if (c.charCodeAt(0) > 0x7e) throw new Error(`not ASCII: ${c}`);
  return c.charCodeAt(0);
});
const LF = 0x0a;
const row = (left: string, right: string, width: number) => a(left + ' '.repeat(width - left.length - right.length) + right);

const ORDER: KitchenOrderData = {
  endpointName: 'Kuchyňa',
  orderNumber: '3F9A2C',
  kind: 'New',
  ticketName: 'Stôl 5',
  tableName: '5',
  zoneName: 'Terasa',
  waiter: 'Jana',
  time: '21.11.2026 11:00',
  language: 'en',
  items: [
    { name: 'Šopský šalát', quantity: 2, modifiers: [{ name: 'Bez cibule', quantity: 1 }], comment: 'rýchlo' },
    { name: 'Kuřecí řízek, Żurek, Gulyás', quantity: 1, modifiers: [], comment: null },
  ],
  mark: null,
};
const PLAIN_SETTINGS = kitchenSettings({});

describe('kitchen order, byte for byte', () => {
  it('TM88: PC852 selected with ESC t 18, 42 columns, Central-European text in CP852, partial cut', () => {
    const bytes = [...render(kitchenOrder(ORDER, PLAIN_SETTINGS), PROFILES.TM88)];
    expect(bytes).toEqual([
      0x1b, 0x40, 0x1b, 0x74, 18,
      0x1b, 0x61, 1, 0x1b, 0x45, 1, ...a('Kuchy'), 0xe5, ...a('a'), LF,
      0x1b, 0x61, 0, 0x1b, 0x45, 0, ...row('Order', '#3F9A2C', 42), LF,
      ...a('Ticket' + ' '.repeat(30) + 'St'), 0x93, ...a('l 5'), LF,
      ...row('Table', '5 / Terasa', 42), LF,
      ...row('Waiter', 'Jana', 42), LF,
      ...row('Time', '21.11.2026 11:00', 42), LF,
      ...a('-'.repeat(42)), LF,
      0x1b, 0x45, 1, ...a('2 x '), 0xe6, ...a('opsk'), 0xec, 0x20, 0xe7, ...a('al'), 0xa0, ...a('t'), LF,
      0x1b, 0x45, 0, ...a('  + Bez cibule'), LF,
      ...a('  ! r'), 0xec, ...a('chlo'), LF,
      0x1b, 0x45, 1, ...a('1 x Ku'), 0xfd, ...a('ec'), 0xa1, 0x20, 0xfd, 0xa1, ...a('zek, '), 0xbd, ...a('urek, Guly'), 0xa0, ...a('s'), LF,
      0x1b, 0x45, 0, ...a('-'.repeat(42)), LF,
      0x1d, 0x56, 66, 0,
    ]);
  });

  it('SRP350: the same bytes (same code table number, columns and cut)', () => {
    expect(render(kitchenOrder(ORDER, PLAIN_SETTINGS), PROFILES.SRP350)).toEqual(render(kitchenOrder(ORDER, PLAIN_SETTINGS), PROFILES.TM88));
  });

  it('Generic: no code table command, ASCII without diacritics, 48 columns, feed then plain cut', () => {
    const bytes = [...render(kitchenOrder(ORDER, PLAIN_SETTINGS), PROFILES.Generic)];
    expect(bytes).toEqual([
      0x1b, 0x40,
      0x1b, 0x61, 1, 0x1b, 0x45, 1, ...a('Kuchyna'), LF,
      0x1b, 0x61, 0, 0x1b, 0x45, 0, ...row('Order', '#3F9A2C', 48), LF,
      ...row('Ticket', 'Stol 5', 48), LF,
      ...row('Table', '5 / Terasa', 48), LF,
      ...row('Waiter', 'Jana', 48), LF,
      ...row('Time', '21.11.2026 11:00', 48), LF,
      ...a('-'.repeat(48)), LF,
      0x1b, 0x45, 1, ...a('2 x Sopsky salat'), LF,
      0x1b, 0x45, 0, ...a('  + Bez cibule'), LF,
      ...a('  ! rychlo'), LF,
      0x1b, 0x45, 1, ...a('1 x Kureci rizek, Zurek, Gulyas'), LF,
      0x1b, 0x45, 0, ...a('-'.repeat(48)), LF,
      // node-thermal-printer's partial cut ends with ESC @ (back to power-on settings): the ticket
      // is already cut, so it changes nothing on paper.
      0x1b, 0x64, 4, 0x1d, 0x56, 1, 0x1b, 0x40,
    ]);
  });

  it('honours the four settings: beep after the cut, highlighted number, double height and width items', () => {
    const settings = kitchenSettings({ IsBeepEnabled: 'true', HighlightOrderNumber: 'true', DoubleHeightFont: 'true', DoubleWidthFont: 'true' });
    const order: KitchenOrderData = { ...ORDER, items: [{ name: 'Gulyás', quantity: 3, modifiers: [], comment: 'bez chleba' }], waiter: null, zoneName: null };
    const bytes = [...render(kitchenOrder(order, settings), PROFILES.TM88)];
    expect(bytes).toEqual([
      0x1b, 0x40, 0x1b, 0x74, 18,
      0x1b, 0x61, 1, 0x1b, 0x45, 1, ...a('Kuchy'), 0xe5, ...a('a'), LF,
      0x1d, 0x21, 0x11, 0x1d, 0x42, 1, ...a(' #3F9A2C '.trim()), LF,
      0x1b, 0x61, 0, 0x1b, 0x45, 0, 0x1d, 0x21, 0x00, 0x1d, 0x42, 0,
      ...a('Ticket' + ' '.repeat(30) + 'St'), 0x93, ...a('l 5'), LF,
      ...row('Table', '5', 42), LF,
      ...row('Time', '21.11.2026 11:00', 42), LF,
      ...a('-'.repeat(42)), LF,
      // Double width halves the line: 21 columns.
      0x1b, 0x45, 1, 0x1d, 0x21, 0x11, ...a('3 x Guly'), 0xa0, ...a('s'), LF,
      0x1b, 0x45, 0, ...a('  ! bez chleba'), LF,
      0x1d, 0x21, 0x00, ...a('-'.repeat(42)), LF,
      0x1d, 0x56, 66, 0,
      0x1b, 0x70, 1, 100, 100,
    ]);
    expect([...render(kitchenOrder(order, settings), PROFILES.Generic)].slice(-4)).toEqual([0x1b, 0x42, 3, 2]);
  });

  it('TSP650 (Star Line mode): ESC GS t 5, 48 columns, Star styles and sizes, ESC d 3 cut, then the external buzzer', () => {
    const settings = kitchenSettings({ IsBeepEnabled: 'true', HighlightOrderNumber: 'true', DoubleHeightFont: 'true', DoubleWidthFont: 'true' });
    const order: KitchenOrderData = { ...ORDER, items: [{ name: 'Gulyás', quantity: 3, modifiers: [], comment: 'bez chleba' }], waiter: null, zoneName: null };
    const ESC_GS = [0x1b, 0x1d];
    expect([...render(kitchenOrder(order, settings), PROFILES.TSP650)]).toEqual([
      0x1b, 0x40, ...ESC_GS, 0x74, 5,
      ...ESC_GS, 0x61, 1, 0x1b, 0x45, ...a('Kuchy'), 0xe5, ...a('a'), LF,
      0x1b, 0x69, 1, 1, 0x1b, 0x34, ...a('#3F9A2C'), LF,
      ...ESC_GS, 0x61, 0, 0x1b, 0x46, 0x1b, 0x69, 0, 0, 0x1b, 0x35,
      ...a('Ticket' + ' '.repeat(36) + 'St'), 0x93, ...a('l 5'), LF,
      ...row('Table', '5', 48), LF,
      ...row('Time', '21.11.2026 11:00', 48), LF,
      ...a('-'.repeat(48)), LF,
      0x1b, 0x45, 0x1b, 0x69, 1, 1, ...a('3 x Guly'), 0xa0, ...a('s'), LF,
      0x1b, 0x46, ...a('  ! bez chleba'), LF,
      0x1b, 0x69, 0, 0, ...a('-'.repeat(48)), LF,
      0x1b, 0x64, 3, 0x1b, 0x40,
      ...ESC_GS, 0x19, 0x11, 2, 10, 10, ...ESC_GS, 0x19, 0x12, 2, 3, 0,
    ]);
    expect(render(kitchenOrder(order, settings), PROFILES.TSP100)).toEqual(render(kitchenOrder(order, settings), PROFILES.TSP650));
  });

  it('reads only "true" as on', () => {
    expect(kitchenSettings({ IsBeepEnabled: 'TRUE ', HighlightOrderNumber: 'yes', DoubleHeightFont: '1', DoubleWidthFont: 'false' })).toEqual({
      beep: true,
      highlightOrderNumber: false,
      doubleHeight: false,
      doubleWidth: false,
    });
  });
});

describe('kitchen order marks', () => {
  const texts = (o: KitchenOrderData) => kitchenOrder(o, PLAIN_SETTINGS).blocks.flatMap((b) => (b.kind === 'text' ? [[b.text, b.style?.invert === true] as const] : []));

  it('marks a cancel order with an inverted CANCEL banner at both ends and minus quantities', () => {
    const t = texts({ ...ORDER, kind: 'Cancel' });
    expect(t[0]).toEqual([' CANCEL ', true]);
    expect(t[t.length - 1]).toEqual([' CANCEL ', true]);
    expect(t.filter(([s]) => s.startsWith('-')).map(([s]) => s)).toEqual(['-2 x Šopský šalát', '-1 x Kuřecí řízek, Żurek, Gulyás']);
  });

  it('marks a reprint and a copy at both ends, above the cancel banner', () => {
    for (const mark of ['REPRINT', 'COPY'] as const) {
      const t = texts({ ...ORDER, kind: 'Cancel', mark });
      expect(t.slice(0, 2)).toEqual([[` ** ${mark} ** `, true], [' CANCEL ', true]]);
      expect(t.slice(-2)).toEqual([[` ** ${mark} ** `, true], [' CANCEL ', true]]);
    }
  });

  it('wraps long item names at word boundaries within the line width', () => {
    expect(wrap('2 x Kuřecí řízek s hranolkami a tatárskou omáčkou', 21)).toEqual(['2 x Kuřecí řízek s', 'hranolkami a', 'tatárskou omáčkou']);
    expect(wrap('x'.repeat(45), 21)).toEqual(['x'.repeat(21), 'x'.repeat(21), 'xxx']);
  });
});

/** Every word a document prints, line by line (text, and both sides of a row). */
function words(doc: { blocks: Array<{ kind: string; text?: string; left?: string; right?: string }> }): string[] {
  return doc.blocks.flatMap((b) => (b.kind === 'text' ? [b.text!] : b.kind === 'row' ? [`${b.left} | ${b.right}`] : []));
}

describe('in the shop\'s language', () => {
  it('a kitchen order in Slovak: Objednávka, Stôl, Čašník, Čas, and STORNO and KÓPIA as its marks', () => {
    const lines = words(kitchenOrder({ ...ORDER, language: 'sk', kind: 'Cancel', mark: 'COPY' }, PLAIN_SETTINGS));
    expect(lines).toEqual(expect.arrayContaining(['Objednávka | #3F9A2C', 'Účet | Stôl 5', 'Stôl | 5 / Terasa', 'Čašník | Jana', 'Čas | 21.11.2026 11:00', ' ** KÓPIA ** ', ' STORNO ']));
    expect(lines.join('\n')).not.toMatch(/Order|Table|Waiter|CANCEL|COPY/);
  });

  it('a bill in Slovak: ÚČET, not a fiscal receipt in Slovak, amounts with a decimal comma', () => {
    const doc = preliminaryBill({
      ticketName: 'Stôl 5', tableName: '5', zoneName: null, waiter: 'Jana', time: '21.11.2026 11:40', language: 'sk', currency: 'EUR',
      lines: [{ name: 'Gulyás', quantity: '2', unitPrice: '6.90', total: '1213.80', discountRate: null }],
      discountRate: '10', total: '1092.42', requestedBy: 'jana', qr: null,
    });
    const lines = words(doc);
    expect(lines.slice(0, 2)).toEqual(['ÚČET', 'Nie je pokladničný doklad']);
    expect(lines).toEqual(expect.arrayContaining(['  2 x 6,90 | 1\u00a0213,80', 'Zľava | 10%', 'SPOLU | 1\u00a0092,42 EUR', 'Vytlačené pre jana']));
  });

  it('a bill in Czech says CELKEM; one in English keeps the decimal point', () => {
    const bill = (language: 'cs' | 'en') =>
      words(preliminaryBill({ ticketName: 'T', tableName: null, zoneName: null, waiter: null, time: '21.11.2026 11:40', language, currency: 'CZK', lines: [], discountRate: null, total: '12.50', requestedBy: 'x', qr: null }));
    expect(bill('cs')).toContain('CELKEM | 12,50 CZK');
    expect(bill('en')).toContain('TOTAL | 12.50 CZK');
  });
});

describe('preliminary bill and receipt', () => {
  it('prints the bill with a NOT FISCAL line, items, discount and total, byte for byte on SRP350', () => {
    const doc = preliminaryBill({
      ticketName: 'Stôl 5',
      tableName: '5',
      zoneName: null,
      waiter: 'Jana',
      time: '21.11.2026 11:40',
      language: 'en',
      currency: 'EUR',
      lines: [{ name: 'Gulyás', quantity: '2', unitPrice: '6.90', total: '13.80', discountRate: null }],
      discountRate: '10',
      total: '12.42',
      requestedBy: 'jana',
      qr: null,
    });
    expect([...render(doc, PROFILES.SRP350)]).toEqual([
      0x1b, 0x40, 0x1b, 0x74, 18,
      0x1b, 0x61, 1, 0x1b, 0x45, 1, 0x1d, 0x21, 0x11, ...a('BILL'), LF,
      0x1b, 0x45, 0, 0x1d, 0x21, 0x00, ...a('Not a fiscal receipt'), LF,
      0x1b, 0x61, 0, ...a('Ticket' + ' '.repeat(30) + 'St'), 0x93, ...a('l 5'), LF,
      ...row('Table', '5', 42), LF,
      ...row('Waiter', 'Jana', 42), LF,
      ...row('Time', '21.11.2026 11:40', 42), LF,
      ...a('-'.repeat(42)), LF,
      ...a('Guly'), 0xa0, ...a('s'), LF,
      ...row('  2 x 6.90', '13.80', 42), LF,
      ...a('-'.repeat(42)), LF,
      ...row('Discount', '10%', 42), LF,
      0x1b, 0x45, 1, 0x1d, 0x21, 0x01, ...row('TOTAL', '12.42 EUR', 42), LF,
      0x1b, 0x45, 0, 0x1d, 0x21, 0x00, ...a('-'.repeat(42)), LF,
      0x1b, 0x61, 1, ...a('Printed for jana'), LF,
      0x1b, 0x61, 0,
      0x1d, 0x56, 66, 0,
    ]);
  });

  it('shows each chosen option under its item with its price, and the price of one with its options, so the line adds up', () => {
    const ticket = {
      id: 't1', name: 'Stôl 5', location: { tableName: '5', zoneName: null }, employee: { userName: 'jana', name: 'Jana' }, currencyLabel: 'EUR', discountRate: 0,
      totalPrice: { amount: 17.2 },
      items: [
        { plu: { name: 'Burger' }, quantity: 2, unitPrice: { amount: 5 }, totalPrice: { amount: 14.4 }, discountRate: 0, modifiers: [{ name: 'Hranolky', quantity: 1, unitPrice: 2.2 }, { name: 'Bez cibule', quantity: 1, unitPrice: 0 }] },
        { plu: { name: 'Kofola' }, quantity: 1, unitPrice: { amount: 2.8 }, totalPrice: { amount: 2.8 }, discountRate: 0, modifiers: [] },
      ],
    };
    const job: PrintJob = { id: 'j', endpointName: 'Bar', kind: 'preliminary', refId: 't1', payload: { ticket, requestedBy: 'jana' }, state: 'Queued', attempts: 0, lastError: null, createdAt: Date.parse('2026-11-21T10:40:00Z'), printedAt: null };
    const doc = documentFor(null as unknown as Db, null as unknown as KitchenOrders, job, { name: 'Bar', type: 'TM88', address: 'tcp://127.0.0.1:9', settings: {} }, 'Europe/Bratislava');
    const lines = words(doc);
    const at = lines.indexOf('Burger');
    expect(lines.slice(at, at + 6)).toEqual(['Burger', '  + Hranolky | 2.20', '  + Bez cibule | ', '  2 x 7.20 | 14.40', 'Kofola', '  1 x 2.80 | 2.80']);
  });

  it('prints a QR code at the foot of the bill when the endpoint asks for one, centred between blank lines', () => {
    const template = qrTemplate('https://pay.example/{ticket}?sum={total}{currency}', BILL_QR);
    const qr = fillQr(template, { ticket: 'T7', total: '12.42', currency: '€' });
    expect(qr).toBe('https://pay.example/T7?sum=12.42EUR');
    const doc = preliminaryBill({ ticketName: 'T', tableName: null, zoneName: null, waiter: null, time: '21.11.2026 11:40', language: 'en', currency: 'EUR', lines: [], discountRate: null, total: '0.00', requestedBy: 'jana', qr });
    const bytes = [...render(doc, PROFILES.TM88)];
    const foot = [...a('Printed for jana'), LF];
    expect(bytes.slice(Buffer.from(bytes).indexOf(Buffer.from(foot)))).toEqual([
      ...foot,
      LF,
      ...[0x1d, 0x28, 0x6b, 4, 0, 0x31, 0x41, 0x32, 0],
      ...[0x1d, 0x28, 0x6b, 3, 0, 0x31, 0x43, 6],
      ...[0x1d, 0x28, 0x6b, 3, 0, 0x31, 0x45, 0x31],
      ...[0x1d, 0x28, 0x6b, qr!.length + 3, 0, 0x31, 0x50, 0x30, ...a(qr!)],
      ...[0x1d, 0x28, 0x6b, 3, 0, 0x31, 0x51, 0x30],
      LF,
      0x1b, 0x61, 0,
      0x1d, 0x56, 66, 0,
    ]);
  });

  it('reads the QrCode setting: none, "true", or a template naming only known placeholders, in printable ASCII', () => {
    for (const none of [undefined, '', ' false ', 'FALSE']) expect(qrTemplate(none, BILL_QR)).toBeNull();
    expect(qrTemplate('true', BILL_QR)).toBe('{ticket}');
    expect(qrTemplate('TRUE', RECEIPT_QR)).toBe('{serial}:{number}:{date}:{total}');
    expect(qrTemplate('https://x.sk/r/{number}', RECEIPT_QR)).toBe('https://x.sk/r/{number}');
    expect(() => qrTemplate('https://x.sk/{number}', BILL_QR)).toThrow(/unknown placeholder \{number\}.*\{ticket\}, \{total\}, \{currency\}/);
    expect(() => qrTemplate('https://kuchyňa.sk', BILL_QR)).toThrow(/printable ASCII/);
    expect(() => qrTemplate('x'.repeat(301), BILL_QR)).toThrow(/at most 300/);
    expect(fillQr(null, {})).toBeNull();
  });

  it('builds the receipt from the fiscal Receipt: VAT per group from VAT-inclusive totals, payments, change, number', () => {
    const data = receiptData(
      {
        reference: 't1',
        operator: 'Jana',
        lines: [
          { name: 'Gulyás', quantity: '2', unitPrice: '6.90', vatRate: '20', vatCategory: 1, discountRate: '0', total: '13.80' },
          { name: 'Chlieb', quantity: '1', unitPrice: '1.05', vatRate: '10', vatCategory: 2, discountRate: '0', total: '1.05' },
        ],
        discountRate: '0',
        total: '14.85',
        payments: [{ kind: 'Cash', name: 'Hotovosť', amount: '20' }],
        change: '5.15',
      },
      { header: ['Bistro Šalát', 'Hlavná 1, Bratislava'], number: '0042', time: '21.11.2026 12:00', currency: 'EUR', footer: ['Ďakujeme'] },
    );
    expect(data.vat).toEqual([
      { letter: 'A', rate: '20', base: '11.50', vat: '2.30' },
      { letter: 'B', rate: '10', base: '0.95', vat: '0.10' },
    ]);
    const lines = decodeLines(render(receipt(data), PROFILES.TM88));
    expect(lines).toEqual([
      'Bistro Šalát',
      'Hlavná 1, Bratislava',
      'Receipt 0042' + ' '.repeat(42 - 12 - 16) + '21.11.2026 12:00',
      'Operator' + ' '.repeat(42 - 8 - 4) + 'Jana',
      '-'.repeat(42),
      'Gulyás',
      '  2 x 6.90' + ' '.repeat(42 - 10 - 7) + '13.80 A',
      'Chlieb',
      '  1 x 1.05' + ' '.repeat(42 - 10 - 6) + '1.05 B',
      '-'.repeat(42),
      'TOTAL' + ' '.repeat(42 - 5 - 9) + '14.85 EUR',
      'Hotovosť' + ' '.repeat(42 - 8 - 5) + '20.00',
      'Change' + ' '.repeat(42 - 6 - 4) + '5.15',
      '-'.repeat(42),
      'VAT' + ' '.repeat(42 - 3 - 13) + 'Base      VAT',
      'A 20%' + ' '.repeat(42 - 5 - 18) + '    11.50     2.30',
      'B 10%' + ' '.repeat(42 - 5 - 18) + '     0.95     0.10',
      '-'.repeat(42),
      'Ďakujeme',
    ]);
  });
});

/** The printed text of each line (commands dropped, CP852 decoded): for layouts checked by content. */
function decodeLines(bytes: Uint8Array): string[] {
  const table = 'ÇüéâäůćçłëŐőîŹÄĆÉĹĺôöĽľŚśÖÜŤťŁ×čáíóúĄąŽžĘę¬źČş«»░▒▓│┤ÁÂĚŞ╣║╗╝Żż┐└┴┬├─┼Ăă╚╔╩╦╠═╬¤đĐĎËďŇÍÎě┘┌█▄ŢŮ▀ÓßÔŃńňŠšŔÚŕŰýÝţ´\u00ad˝˛ˇ˘§÷¸°¨˙űŘř■\u00a0';
  const lengths: Record<number, number> = { 0x40: 2, 0x74: 3, 0x61: 3, 0x45: 3, 0x64: 3, 0x70: 5, 0x42: 3, 0x21: 3, 0x56: 4 };
  const lines: string[] = [];
  let cur = '';
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i];
    if (b === 0x1b || b === 0x1d) i += lengths[bytes[i + 1]] ?? 2;
    else if (b === LF) {
      lines.push(cur);
      cur = '';
      i++;
    } else {
      cur += b < 0x80 ? String.fromCharCode(b) : [...table][b - 0x80];
      i++;
    }
  }
  return lines;
}
