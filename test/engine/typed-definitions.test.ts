/**
 * Issue 32 point 2: a definition is typed by its zod schemas. Its hooks and column mappings, and the
 * services reading it, see the document as stored (StoredForm, DocOf): a misspelt or renamed field is
 * a compile error (`npm run typecheck` reads this file: each `@ts-expect-error` below that stopped
 * being an error fails it), not an `undefined` at run time. The run-time half: a typed service stores
 * and reads the document its definition declares, and serviceOf finds the service a definition has.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { closeDb, openDb, type Db } from '../../db/client.js';
import { FakeClock } from '../../hub/core/clock.js';
import { atRead, defineResource, type BodyOf, type DocOf } from '../../hub/engine/define.js';
import { ResourceService, serviceOf } from '../../hub/engine/service.js';
import { SYSTEM_CALLER } from '../../hub/http/caller.js';
import { stocks, tickets, users } from '../../hub/resources.js';

/** Declared only to be typed: never served (its table does not exist). */
const things = defineResource({
  name: 'things',
  title: 'Thing',
  table: 'things',
  key: { field: 'id', column: 'id', type: 'string', schema: z.string() },
  schema: z.object({ id: z.string().optional(), label: z.string(), count: z.number().int().default(0) }),
  readOnly: { createdAt: z.string(), shownCount: atRead(z.number()) },
  hidden: { secretHash: z.string().optional() },
  columns: (d) => ({
    label: d.label,
    count: d.count,
    created_at: d.createdAt,
    // @ts-expect-error no such field: a misspelt name does not compile
    lable: d.lable,
  }),
  filters: {},
  rights: { create: null, update: null, delete: null },
  hooks: {
    prepare({ body, existing }) {
      // @ts-expect-error made at read time (atRead): not on every stored document, so possibly undefined
      const shown: number = existing?.shownCount;
      void shown;
      return { ...body, createdAt: existing?.createdAt ?? 'now', secretHash: existing?.secretHash };
    },
    present: (doc) => ({ ...doc, shownCount: doc.count }),
  },
});

describe('a definition types what its hooks see', () => {
  it('the stored form: written fields as parsed, server-owned ones, hidden ones; the key set', () => {
    expectTypeOf<DocOf<typeof things>>().toHaveProperty('label').toEqualTypeOf<string>();
    expectTypeOf<DocOf<typeof things>>().toHaveProperty('count').toEqualTypeOf<number>();
    expectTypeOf<DocOf<typeof things>>().toHaveProperty('createdAt').toEqualTypeOf<string>();
    expectTypeOf<DocOf<typeof things>>().toHaveProperty('id').toEqualTypeOf<string>();
    expectTypeOf<DocOf<typeof things>>().toHaveProperty('secretHash').toEqualTypeOf<string | undefined>();
    expectTypeOf<BodyOf<typeof things>>().toHaveProperty('label').toEqualTypeOf<string>();
    // The real resources: a closed ticket's receipt number, a user's rights.
    expectTypeOf<NonNullable<DocOf<typeof tickets>['closeInfo']>['number']>().toEqualTypeOf<number>();
    expectTypeOf<DocOf<typeof users>['rights']>().items.toBeString();
    // A key the engine sets: a stock's name is there on every stored stock, though a body may leave it out.
    expectTypeOf<DocOf<typeof stocks>['name']>().toEqualTypeOf<string>();
    expect(things.columns({ id: 'a', label: 'A', count: 2, createdAt: 'then' })).toMatchObject({ label: 'A', count: 2, created_at: 'then' });
  });
});

describe('a typed service', () => {
  let dir: string;
  let db: Db;
  afterEach(() => {
    closeDb(db);
    rmSync(dir, { recursive: true, force: true });
  });

  it('stores and reads the document its definition declares; serviceOf finds the one serving a definition', async () => {
    dir = mkdtempSync(join(tmpdir(), 'poshub-typed-'));
    db = openDb(join(dir, 'hub.sqlite'));
    const ctx = { db, clock: new FakeClock('2026-10-01T10:00:00Z'), timeZone: 'UTC', busy: new Set<string>() };
    const services: Record<string, ResourceService> = { stocks: new ResourceService(stocks, ctx) };
    const service = serviceOf(services, stocks);
    expectTypeOf(service).toEqualTypeOf<ResourceService<typeof stocks>>();
    await service.create(SYSTEM_CALLER, { name: 'Bar', description: 'Drinks' });
    const stored = service.getStored('Bar');
    expectTypeOf(stored.doc.description).toEqualTypeOf<string>();
    expect(stored.doc).toEqual({ name: 'Bar', description: 'Drinks' });
    expect(service.read('Bar', SYSTEM_CALLER)).toEqual(stored);
    // A definition no service serves, or one served under its name by another definition, is a mistake of the composition.
    expect(() => serviceOf(services, users)).toThrow('No service serves the resource users');
    expect(() => serviceOf({ users: services.stocks }, users)).toThrow('No service serves the resource users');
  });
});
