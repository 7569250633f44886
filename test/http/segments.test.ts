/** Routers mounted under their first path segments (hub/http/segments.ts). */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Request, Response } from 'express';
import { firstSegment, SegmentRouter, under } from '../../hub/http/segments.js';
import { startHub, type TestHub } from '../support/hub.js';

describe('under', () => {
  it('takes the first segment of a path, lowercased', () => {
    expect(firstSegment('/tickets/t1/close')).toBe('tickets');
    expect(firstSegment('/Tickets')).toBe('tickets');
    expect(firstSegment('/')).toBe('');
    expect(firstSegment('/openapi.json')).toBe('openapi.json');
  });

  it('hands a request to the router only under its own segments', () => {
    const router = vi.fn();
    const next = vi.fn();
    const handler = under(['tickets', 'receipts/emails'], router);
    const call = (path: string) => handler({ path } as Request, {} as Response, next);
    call('/tickets/t1');
    call('/receipts/settings');
    call('/ticketsx');
    call('/customers');
    expect(router.mock.calls.map(([req]) => (req as Request).path)).toEqual(['/tickets/t1', '/receipts/settings']);
    expect(next).toHaveBeenCalledTimes(2);
  });
});

describe('SegmentRouter', () => {
  it("hands a request to its segment's routers in the order they were added, then on; an error goes straight on", () => {
    const seen: string[] = [];
    const pass = (name: string) => (req: Request, _res: Response, next: (err?: unknown) => void) => {
      seen.push(`${name} ${req.path}`);
      next();
    };
    const handler = new SegmentRouter()
      .add(['orders', 'orderendpoints'], pass('printing'))
      .add(['orders'], pass('state'))
      .add(['tickets'], (_req, _res, next) => next(new Error('refused')))
      .add(['tickets'], pass('never'))
      .handler();
    const next = vi.fn();
    const call = (path: string) => handler({ path } as Request, {} as Response, next);
    call('/Orders/o1/state');
    call('/orderendpoints');
    call('/customers');
    call('/tickets/t1');
    expect(seen).toEqual(['printing /Orders/o1/state', 'state /Orders/o1/state', 'printing /orderendpoints']);
    expect(next.mock.calls.map((c) => (c[0] instanceof Error ? c[0].message : c[0]))).toEqual([undefined, undefined, undefined, 'refused']);
  });
});

describe('routes behind their segments', () => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await startHub();
  });
  afterAll(() => hub.close());

  it('still matches paths case-insensitively and still answers 404 and 405 as before', async () => {
    expect((await hub.call('GET', '/api/Stocks')).status).toBe(200);
    expect((await hub.call('GET', '/api/HEALTH', undefined, { token: null })).status).toBe(200);
    expect((await hub.call('GET', '/api/nothing-here')).status).toBe(404);
    expect((await hub.call('PATCH', '/api/backups')).status).toBe(405);
  });
});
