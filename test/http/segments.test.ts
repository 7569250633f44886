/** Routers mounted under their first path segments (hub/http/segments.ts). */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Request, Response } from 'express';
import { firstSegment, under } from '../../hub/http/segments.js';
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
