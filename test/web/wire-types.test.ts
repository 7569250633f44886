/**
 * hub/web/shared/api-types.ts is generated from the hub's OpenAPI document, and hub/web/shared/drivers.ts
 * from what the drivers say of themselves (`npm run web:types`, both). A change to a resource's schema,
 * a route() declaration or a driver must be followed by a regeneration, or the pages would compile
 * against yesterday's hub: this regenerates both in memory and compares.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { API_TYPES, DRIVERS, webDrivers, webTypes } from '../../scripts/web-types.js';

describe("the browser code's wire types", () => {
  it('are what the OpenAPI document generates now (run `npm run web:types` when this fails)', async () => {
    const committed = readFileSync(API_TYPES, 'utf8');
    const fresh = await webTypes();
    // Not toBe: a 15,000-line diff would drown the hint above.
    expect(committed === fresh, 'hub/web/shared/api-types.ts is out of date: run `npm run web:types`').toBe(true);
  });

  it('know the drivers as they describe themselves now (run `npm run web:types` when this fails)', () => {
    expect(readFileSync(DRIVERS, 'utf8'), 'hub/web/shared/drivers.ts is out of date: run `npm run web:types`').toBe(webDrivers());
  });
});
