/** Ticket model and arithmetic (CONTRACT §3, §6): plu references, prices, discounts, modifiers, exact totals. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub, type TestHub } from '../support/hub.js';
import { expect2xx, item, register, restaurant } from './fixture.js';

let hub: TestHub;
let cashier: Awaited<ReturnType<typeof register>>;

beforeAll(async () => {
  hub = await startHub();
  await restaurant(hub);
  cashier = await register(hub);
  // Extras for a dish: at least 1 and at most 2 different options, at most 3 portions in all.
  await expect2xx(
    hub.call('POST', '/api/modifiers', {
      id: 'extras',
      name: 'Extras',
      minimumSelectedOptionsCount: 1,
      maximumSelectedOptionsCount: 2,
      maximumSelectedOptionsTotalQuantity: 3,
      options: [
        { id: 'cheese', name: 'Cheese', unitPrice: { amount: 0.5 }, maximumSelectedQuantity: 2 },
        { id: 'bacon', name: 'Bacon', unitPrice: { amount: 1.2 } },
        { id: 'egg', name: 'Egg', unitPrice: { amount: 0.3 } },
      ],
    }),
  );
  // Sauces: exactly two different ones, free of charge.
  await expect2xx(
    hub.call('POST', '/api/modifiers', {
      id: 'sauces',
      minimumSelectedOptionsCount: 2,
      maximumSelectedOptionsCount: 2,
      options: [{ id: 'ketchup' }, { id: 'mayo' }, { id: 'mustard' }],
    }),
  );
});
afterAll(() => hub.close());

const open = (body: Record<string, unknown>) => hub.call('POST', '/api/tickets', body, { token: cashier.token });
const totals = (t: any) => ({ items: t.items.map((i: any) => i.totalPrice.amount), total: t.totalPrice.amount });

describe('items and plus', () => {
  it('completes an item from its plu: name, default unit price, 1-based ids', async () => {
    const r = await open({ items: [item(1, 2), item(3, 1)] });
    expect(r.status).toBe(201);
    expect(r.body.items).toMatchObject([
      { id: 1, plu: { code: 1, stockName: 'Menu', name: 'Gulyás' }, type: 'Positive', quantity: 2, unitPrice: { amount: 6.9 }, discountRate: 0, totalPrice: { amount: 13.8 } },
      { id: 2, plu: { code: 3, stockName: 'Menu', name: 'Pivo' }, quantity: 1, unitPrice: { amount: 2.2 }, totalPrice: { amount: 2.2 } },
    ]);
    expect(r.body.totalPrice.amount).toBe(16);
  });

  it('keeps an explicit unit price instead of the plu price', async () => {
    const t = await expect2xx(open({ items: [item(1, 2, { unitPrice: { amount: 5.55 } })] }));
    expect(t.items[0].unitPrice.amount).toBe(5.55);
    expect(totals(t)).toEqual({ items: [11.1], total: 11.1 });
  });

  it('refuses an item whose plu does not exist, naming items[i].plu', async () => {
    const r = await open({ items: [item(1, 1), item(99, 1)] });
    expect(r.status).toBe(400);
    expect(r.body.errorCode).toBe(3);
    expect(r.body.errors).toEqual([expect.objectContaining({ memberName: 'items[1].plu' })]);
    const wrongStock = await open({ items: [{ plu: { code: 1, stockName: 'Cellar' }, quantity: 1 }] });
    expect(wrongStock.status).toBe(400);
    expect(wrongStock.body.errors[0].memberName).toBe('items[0].plu');
  });

  it('refuses a zero quantity (a return is an item of type Negative)', async () => {
    const r = await open({ items: [item(1, 0)] });
    expect(r.status).toBe(400);
    expect(r.body.errors[0].memberName).toBe('items[0].quantity');
  });
});

describe('discounts', () => {
  it('applies an item discount rate to that item', async () => {
    const t = await expect2xx(open({ items: [item(1, 2, { discountRate: 10 }), item(3, 1)] }));
    expect(totals(t)).toEqual({ items: [12.42, 2.2], total: 14.62 });
  });

  it('applies the ticket discount rate to the sum of the item totals', async () => {
    const t = await expect2xx(open({ discountRate: 10, items: [item(1, 2, { discountRate: 10 }), item(3, 1)] }));
    // (12.42 + 2.2) × 0.9 = 13.158 → 13.16
    expect(totals(t)).toEqual({ items: [12.42, 2.2], total: 13.16 });
  });

  it('refuses a discount rate outside 0..100', async () => {
    const r = await open({ discountRate: 101, items: [item(1, 1)] });
    expect(r.status).toBe(400);
    expect(r.body.errors[0]).toMatchObject({ memberName: 'discountRate', code: 'OutOfRange' });
    const onItem = await open({ items: [item(1, 1, { discountRate: -1 })] });
    expect(onItem.status).toBe(400);
    expect(onItem.body.errors[0]).toMatchObject({ memberName: 'items[0].discountRate', code: 'OutOfRange' });
  });
});

describe('modifiers', () => {
  it('adds the chosen option prices to the unit price, per portion', async () => {
    const t = await expect2xx(
      open({
        items: [
          item(1, 2, {
            modifiers: [
              { modifierId: 'extras', optionId: 'cheese', quantity: 2 },
              { modifierId: 'extras', optionId: 'bacon', quantity: 1 },
            ],
          }),
        ],
      }),
    );
    // 2 × (6.9 + 2 × 0.5 + 1.2) = 18.2
    expect(totals(t)).toEqual({ items: [18.2], total: 18.2 });
    expect(t.items[0].unitPrice.amount).toBe(6.9);
    expect(t.items[0].modifiers).toEqual([
      expect.objectContaining({ modifierId: 'extras', optionId: 'cheese', name: 'Cheese', quantity: 2, unitPrice: 0.5 }),
      expect.objectContaining({ modifierId: 'extras', optionId: 'bacon', name: 'Bacon', quantity: 1, unitPrice: 1.2 }),
    ]);
  });

  it('accepts free options and an item discount on top of option prices', async () => {
    const t = await expect2xx(
      open({
        items: [
          item(1, 1, {
            discountRate: 50,
            modifiers: [
              { modifierId: 'sauces', optionId: 'ketchup' },
              { modifierId: 'sauces', optionId: 'mayo' },
              { modifierId: 'extras', optionId: 'egg', quantity: 3 },
            ],
          }),
        ],
      }),
    );
    // (6.9 + 3 × 0.3) × 0.5 = 3.9
    expect(totals(t)).toEqual({ items: [3.9], total: 3.9 });
  });

  const refused: Array<[string, unknown[]]> = [
    ['fewer options than the minimum count', [{ modifierId: 'sauces', optionId: 'ketchup' }]],
    [
      'more options than the maximum count',
      [
        { modifierId: 'extras', optionId: 'cheese' },
        { modifierId: 'extras', optionId: 'bacon' },
        { modifierId: 'extras', optionId: 'egg' },
      ],
    ],
    ['an option above its maximumSelectedQuantity', [{ modifierId: 'extras', optionId: 'cheese', quantity: 3 }]],
    [
      'a total quantity above the modifier maximum',
      [
        { modifierId: 'extras', optionId: 'cheese', quantity: 2 },
        { modifierId: 'extras', optionId: 'bacon', quantity: 2 },
      ],
    ],
    ['an option the modifier does not have', [{ modifierId: 'extras', optionId: 'caviar' }]],
    ['a modifier that does not exist', [{ modifierId: 'toppings', optionId: 'cheese' }]],
  ];
  for (const [what, modifiers] of refused) {
    it(`refuses ${what} with 400 on items[i].modifiers`, async () => {
      const r = await open({ items: [item(3, 1), item(1, 1, { modifiers })] });
      expect(r.status).toBe(400);
      expect(r.body.errorCode).toBe(3);
      expect(r.body.errors[0].memberName).toBe('items[1].modifiers');
    });
  }
});

describe('exact totals', () => {
  it('gives negative totals for a Negative (returned) item', async () => {
    const t = await expect2xx(open({ items: [item(1, 1), item(3, 2, { type: 'Negative' })] }));
    expect(t.items[1].type).toBe('Negative');
    expect(totals(t)).toEqual({ items: [6.9, -4.4], total: 2.5 });
    const onlyReturn = await expect2xx(open({ items: [item(3, 1, { type: 'negative' })] }));
    expect(totals(onlyReturn)).toEqual({ items: [-2.2], total: -2.2 });
  });

  it('adds 0.1 + 0.2 to 0.3 and 3 × 0.1 to 0.3', async () => {
    const t = await expect2xx(open({ items: [item(4, 1), item(5, 1)] }));
    expect(t.totalPrice.amount).toBe(0.3);
    const three = await expect2xx(open({ items: [item(4, 3)] }));
    expect(totals(three)).toEqual({ items: [0.3], total: 0.3 });
  });

  it('rounds half away from zero to 2 places: 1.005 → 1.01 and -2.345 → -2.35', async () => {
    const t = await expect2xx(open({ items: [item(4, 1, { unitPrice: { amount: 1.005 } }), item(4, 1, { unitPrice: { amount: 1.005 } })] }));
    // Each line is rounded as the receipt prints it; the ticket adds the printed lines.
    expect(totals(t)).toEqual({ items: [1.01, 1.01], total: 2.02 });
    const neg = await expect2xx(open({ items: [item(4, 1, { type: 'Negative', unitPrice: { amount: 2.345 } })] }));
    expect(totals(neg)).toEqual({ items: [-2.35], total: -2.35 });
    const half = await expect2xx(open({ items: [item(4, 0.5, { unitPrice: { amount: 0.01 } })] }));
    expect(totals(half)).toEqual({ items: [0.01], total: 0.01 });
  });

  it('handles thirds: 3 × 0.3333 and a 33.3333 % discount', async () => {
    const t = await expect2xx(open({ items: [item(4, 3, { unitPrice: { amount: 0.3333 } })] }));
    expect(totals(t)).toEqual({ items: [1], total: 1 });
    const disc = await expect2xx(open({ items: [item(4, 1, { unitPrice: { amount: 10, }, discountRate: 33.3333 })] }));
    // 10 × 0.666667 = 6.66667 → 6.67
    expect(totals(disc)).toEqual({ items: [6.67], total: 6.67 });
    const ticketDisc = await expect2xx(open({ discountRate: 33.3333, items: [item(4, 1, { unitPrice: { amount: 30 } })] }));
    // 30 × 0.666667 = 20.00001 → 20
    expect(ticketDisc.totalPrice.amount).toBe(20);
    const q = await expect2xx(open({ items: [item(4, 0.3333, { unitPrice: { amount: 3 } })] }));
    expect(totals(q)).toEqual({ items: [1], total: 1 });
  });

  it('refuses amounts with more than 4 decimal places', async () => {
    const r = await open({ items: [item(4, 1, { unitPrice: { amount: 1.00001 } })] });
    expect(r.status).toBe(400);
    expect(r.body.errors[0].memberName).toBe('items[0].unitPrice.amount');
  });
});

describe('server-owned fields', () => {
  it('ignores openDate, originDeviceName, employee, state, closeInfo, totalPrice and item totals in a body', async () => {
    const r = await open({
      name: 'Forged',
      openDate: '2000-01-01T00:00:00Z',
      closeDate: '2000-01-01T00:00:00Z',
      originDeviceName: 'Elsewhere',
      employee: { userName: 'admin', name: 'Admin' },
      state: 'Closed',
      closeInfo: { deviceName: 'X', fiscalName: 'FP9', number: 77, dailySalesReportNumber: 7, fiscalMemorySerialNumber: 'S' },
      totalPrice: { amount: 999, currencyLabel: 'EUR' },
      payments: [{ paymentTypeNumber: 1, amount: 999 }],
      items: [item(1, 1, { totalPrice: { amount: 0.01 } })],
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      name: 'Forged',
      state: 'Opened',
      openDate: hub.clock.now().toISOString(),
      closeDate: null,
      originDeviceName: cashier.device,
      employee: { userName: cashier.userName, name: expect.stringMatching(/^Cashier/) },
      closeInfo: null,
      payments: [],
      totalPrice: { amount: 6.9 },
    });
    expect(r.body.items[0].totalPrice.amount).toBe(6.9);

    // A PUT carrying the same forged fields keeps the stored ones.
    const put = await hub.call('PUT', `/api/tickets/${r.body.id}`, { ...r.body, openDate: '2001-01-01T00:00:00Z', originDeviceName: 'Other', employee: { userName: 'admin', name: 'A' }, state: 'Closed', totalPrice: { amount: 1 } }, { token: cashier.token });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ openDate: r.body.openDate, originDeviceName: cashier.device, employee: { userName: cashier.userName }, state: 'Opened', totalPrice: { amount: 6.9 }, _v: 2 });
  });
});
