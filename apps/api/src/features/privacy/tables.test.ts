import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { CUSTOM_ERASURE_STEPS } from './erasure.repo.ts';
import { CUSTOM_ERASURES, ERASURE_RULES, EXPORT_RULES } from './tables.ts';
import { userReferences } from './testing-scan.ts';

/**
 * The guard of issue 41: the database's own foreign keys to users.id (pg_catalog, so a constraint
 * added by hand in a migration counts as much as one drizzle made) against the export's and the
 * erasure's lists. A new table or column that refers to people fails here, by name, until both lists
 * say what happens to it.
 */
let t: TestApp;
let references: { table: string; column: string }[];

beforeAll(async () => {
  t = await createTestApp();
  references = await userReferences(t);
});
afterAll(async () => {
  await t?.close();
});

const named = (list: { table: string; column: string }[]) => list.map((r) => `${r.table}.${r.column}`);

describe('every column that references users', () => {
  it('is found in the database (the walk itself works)', () => {
    expect(named(references)).toEqual(
      expect.arrayContaining(['submissions.user_id', 'forum_records.author_id', 'notifications.user_id']),
    );
    expect(references.length).toBeGreaterThan(50);
  });

  it('is in the export list', () => {
    const missing = references.filter(({ table, column }) => {
      const rule = EXPORT_RULES[table];
      return !rule || ![...rule.subject, ...rule.actor].includes(column);
    });
    expect(named(missing), 'add these to EXPORT_RULES in features/privacy/tables.ts').toEqual([]);
  });

  it('is in the erasure list', () => {
    const missing = references.filter(({ table, column }) => ERASURE_RULES[table]?.[column] === undefined);
    expect(named(missing), 'add these to ERASURE_RULES in features/privacy/tables.ts').toEqual([]);
  });

  it('names only columns that exist, so a renamed column is noticed too', () => {
    const known = new Set(named(references));
    const exported = Object.entries(EXPORT_RULES).flatMap(([table, rule]) =>
      [...rule.subject, ...rule.actor].map((column) => `${table}.${column}`),
    );
    const erased = Object.entries(ERASURE_RULES).flatMap(([table, columns]) =>
      Object.keys(columns).map((column) => `${table}.${column}`),
    );
    expect({
      exported: exported.filter((name) => !known.has(name)),
      erased: erased.filter((name) => !known.has(name)),
    }).toEqual({ exported: [], erased: [] });
  });

  it('gives an actor-only row the fields it is exported with', () => {
    const without = Object.entries(EXPORT_RULES)
      .filter(([, rule]) => rule.actor.length > 0 && (rule.actorFields ?? []).length === 0)
      .map(([table]) => table);
    expect(without).toEqual([]);
  });

  it('has code for every table the erasure handles by code of its own', () => {
    expect(CUSTOM_ERASURES.filter((table) => !(table in CUSTOM_ERASURE_STEPS))).toEqual([]);
  });
});
