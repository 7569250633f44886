/**
 * POST /api/tickets/{id}/close through the `ekasa` driver and the fake PORTOS eKasa service on
 * 127.0.0.1, through every outcome the service can give: online (200), offline (202: stored in its
 * CHDÚ and printed, sent later), refusals before storage, failures after storage, a lost answer, a
 * malformed answer. One registration per sale, always (issue 27).
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TestHub } from '../support/hub.js';
import { ekasaHub, type EkasaRestaurant } from './ekasa-fixture.js';

let hub: TestHub;
let r: EkasaRestaurant;
let stop: () => Promise<void>;

beforeAll(async () => ({ hub, r, stop } = await ekasaHub()));
afterAll(() => stop());
beforeEach(() => r.svc.reset());

const jobsOf = (id: string) => hub.db.all<{ state: string }>(sql`SELECT state FROM fiscal_jobs WHERE ticket_id = ${id} ORDER BY created_at`).map((j) => j.state);

describe('offline registration (HTTP 202) is a receipt', () => {
  it('closes with offline: true and the OKP; a retry answers the closed ticket and registers nothing', async () => {
    r.svc.service.online = false;
    const t = await r.open();
    const first = await r.close(t.id);
    // The waiter taps "close" again (after a 503 on the old reading, every offline receipt came twice).
    const again = await r.close(t.id);
    expect(r.registrationsOf(t.id)).toHaveLength(1);
    expect(first.status).toBe(200);
    const [reg] = r.registrationsOf(t.id);
    expect(first.body.closeInfo).toMatchObject({ fiscalName: 'EK1', number: reg.request.data.receiptNumber, ekasa: { offline: true, okp: reg.request.data.okp, receiptNumber: reg.request.data.receiptNumber } });
    expect(first.body.closeInfo.ekasa.uuid).toBeUndefined();
    expect(jobsOf(t.id)).toEqual(['Done']);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
  });
});
