/**
 * The generated hostile-input run (issue 30): over 5,000 requests built from the OpenAPI document
 * itself — every operation, its parameters and body schema spoiled as a careless or hostile client
 * would (test/support/hostile-input.ts) — with a fixed seed, against an in-process hub where the
 * admin is logged in on a sale device. No answer is a 5xx (a 503 DeviceUnavailable excepted, the
 * contract's answer for a fiscal device that cannot be reached); every 4xx is problem+json with its
 * status, errorCode and traceId, and a 400 names the member at fault; every answer is one the
 * document describes; afterwards the hub still answers its health, every list and every item.
 *
 * Larger runs: `npm run hostile -- --requests 50000 --seed <n>`. The regressions the runs found
 * have their own tests beside the code they concern (test/http/hostile-regressions.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { describeReport, runHostile } from '../support/hostile-run.js';

const REQUESTS = Number(process.env.POS_HUB_HOSTILE_REQUESTS ?? 5000);
const SEED = Number(process.env.POS_HUB_HOSTILE_SEED ?? 30);

describe('a generated hostile-input run over the OpenAPI document', () => {
  it(`${REQUESTS} requests (seed ${SEED}): no 5xx, every 4xx problem+json naming the member at fault, every answer documented`, async () => {
    const report = await runHostile({ seed: SEED, total: REQUESTS });
    const text = describeReport(report);
    expect(report.requests, text).toBeGreaterThanOrEqual(5000);
    expect(report.operations, text).toBeGreaterThanOrEqual(100);
    expect(report.failures.length, text).toBe(0);
    expect(report.undocumented.length, text).toBe(0);
    expect(report.afterwards.length, text).toBe(0);
  }, 180_000);
});
