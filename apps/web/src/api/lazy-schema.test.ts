import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isContractsModule, wrapSchemas } from '../../vite-lazy-schemas.ts';
import { schemaRule } from '../ui/form.ts';
import { lazySchema } from './lazy-schema.ts';

const CONTRACTS_SOURCE = path.resolve(import.meta.dirname, '../../../../packages/contracts/src');

describe('lazySchema', () => {
  it('builds the schema on first use, once', () => {
    let built = 0;
    const User = lazySchema(() => {
      built += 1;
      return z.object({ id: z.number().int(), name: z.string() });
    });
    expect(built).toBe(0);
    expect(User.parse({ id: 1, name: 'Ann', extra: true })).toEqual({ id: 1, name: 'Ann' });
    expect(User.safeParse({ id: 'x' }).success).toBe(false);
    expect(built).toBe(1);
  });

  it('passes for the schema wherever zod looks at one', () => {
    const Id = lazySchema(() => z.number().int().min(1));
    const Kind = lazySchema(() => z.enum(['a', 'b']));
    const A = lazySchema(() => z.object({ kind: z.literal('a'), id: Id }));
    const B = lazySchema(() => z.object({ kind: z.literal('b'), ids: z.array(Id) }));
    const Either = z.discriminatedUnion('kind', [A, B]);
    expect(Either.parse({ kind: 'b', ids: [1, 2] })).toEqual({ kind: 'b', ids: [1, 2] });
    expect(() => Either.parse({ kind: 'a', id: 0 })).toThrow(z.ZodError);
    expect(A.extend({ kind2: Kind }).parse({ kind: 'a', id: 3, kind2: 'b' })).toEqual({
      kind: 'a',
      id: 3,
      kind2: 'b',
    });
    expect(Id.nullable().parse(null)).toBeNull();
    expect(A).toBeInstanceOf(z.ZodObject);
    expect(A instanceof z.ZodType).toBe(true);
    expect('_zod' in A).toBe(true);
    expect(Object.keys(A.shape)).toEqual(['kind', 'id']);
    expect(Kind.options).toEqual(['a', 'b']);
  });

  it('allows every reflective operation the built schema allows', () => {
    const Name = lazySchema(() => z.string().max(3));
    // zod defines `_zod` non-configurable; the stand-in must still describe it (proxy invariants).
    expect(Object.getOwnPropertyDescriptor(Name, '_zod')?.value).toBe(Name._zod);
    expect(Reflect.ownKeys(Name)).toContain('_zod');
    expect(Object.getPrototypeOf(Name)).toBe(z.ZodString.prototype);
    expect(Object.keys(Name)).toEqual(Object.keys(z.string().max(3)));
  });

  it('checks a form field as the schema does', () => {
    const rule = schemaRule(
      lazySchema(() => z.string().min(1).max(5)),
      'Too long',
    );
    expect(rule('abc')).toBe(true);
    expect(rule('abcdef')).toBe('Too long');
  });
});

describe('wrapSchemas (vite-lazy-schemas.ts)', () => {
  it('wraps the constants that make a schema, and nothing else', () => {
    const source = [
      "import { z } from 'zod';",
      "import { paginated, Base } from './common.ts';",
      'export const MAX = 5;',
      "export const KINDS = ['a', 'b'] as const;",
      'export const fields = { name: z.string() };',
      'export const Item = z.object({ ...fields, at: z.iso.datetime() }).strict();',
      'const Inner = Base.extend({ n: z.number() });',
      'export const Items = paginated(Item);',
      'export const sorted = KINDS.map((kind) => kind);',
      'export const later = (value: string) => z.string().parse(value);',
      'export let Mutable = z.string();',
      'export function make() { return z.object({}); }',
      "export const Note = z.string().describe('日本語 — 注記');",
    ].join('\n');
    const wrapped = wrapSchemas(source);
    expect(wrapped?.names).toEqual(['Item', 'Inner', 'Items', 'Note']);
    expect(wrapped?.code).toContain(
      'export const Item = /* @__PURE__ */ __lazySchema(() => (z.object({ ...fields, at: z.iso.datetime() }).strict()));',
    );
    expect(wrapped?.code).toContain(
      "export const Note = /* @__PURE__ */ __lazySchema(() => (z.string().describe('日本語 — 注記')));",
    );
    expect(wrapped?.code).toContain('export const sorted = KINDS.map((kind) => kind);');
    expect(wrapped?.code).toContain('export let Mutable = z.string();');
    expect(wrapSchemas('export const MAX = 5;')).toBeNull();
  });

  it('applies to the contracts sources, not to their tests nor to other modules', () => {
    expect(isContractsModule(path.join(CONTRACTS_SOURCE, 'courses.ts'))).toBe(true);
    expect(isContractsModule(path.join(CONTRACTS_SOURCE, 'text.test.ts'))).toBe(false);
    expect(isContractsModule(path.resolve(import.meta.dirname, 'client.ts'))).toBe(false);
  });

  it('wraps only schemas in every contracts module', async () => {
    // The web tests load the contracts through the plugin: a wrapped name is a stand-in, which must be a
    // zod schema (a call the rule misjudged — an array, a function — would break where it is used).
    const contracts: Record<string, unknown> = await import('@kadai/contracts');
    const files = readdirSync(CONTRACTS_SOURCE).filter((file) =>
      isContractsModule(path.join(CONTRACTS_SOURCE, file)),
    );
    let checked = 0;
    for (const file of files) {
      const wrapped = wrapSchemas(readFileSync(path.join(CONTRACTS_SOURCE, file), 'utf8'));
      for (const name of wrapped?.names ?? []) {
        if (!(name in contracts)) continue;
        expect(contracts[name], `${file}: ${name}`).toBeInstanceOf(z.ZodType);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(300);
  });
});
