import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { ErrorBody, ForumRecordList } from '@kadai/contracts';
import { compileWriter, serializerCompiler } from './serializer.ts';

/*
 * The compiled serializer must write what zod's serializer writes, byte for byte, and refuse what zod
 * refuses (with zod's own error). Each case is checked against fastify-type-provider-zod's serializer.
 */

const route = (schema: z.ZodType) => ({ schema, method: 'GET', url: '/test', httpStatus: '200' });

type Outcome = { json: string } | { error: string };

function outcome(write: (data: unknown) => string, data: unknown): Outcome {
  try {
    return { json: write(data) };
  } catch (error) {
    return { error: error instanceof Error ? error.constructor.name : String(error) };
  }
}

function expectSameAsZod(schema: z.ZodType, data: unknown): Outcome {
  const ours = outcome(serializerCompiler(route(schema)), data);
  const zods = outcome(zodSerializerCompiler(route(schema)), data);
  expect(ours).toEqual(zods);
  return ours;
}

const file = {
  id: 7,
  course_id: 1,
  record_id: 3,
  filename: 'グラフ.png',
  size: 2048,
  content_type: 'image/png',
  is_image: true,
  uploaded_by: 5,
  created_at: '2026-11-24T09:30:00.123Z',
};

const record = {
  id: 3,
  course_id: 1,
  parent_record: null,
  title: 'Lists "and" tuples',
  content: '```python\nprint("こんにちは")\n```\n\\ </script> \u2028',
  author: { id: 5, display_name: '山田 太郎', first_name: '太郎', last_name: '山田', role: 'student' },
  is_announcement: false,
  pinned: true,
  scheduled_at: null,
  published_at: '2026-11-24T09:00:00.000Z',
  upvotes: 2,
  upvoted: false,
  is_read: true,
  comment_count: 4,
  attachments: [file],
  can_edit: false,
  created_at: '2026-11-24T09:00:00.000Z',
  updated_at: '2026-11-24T09:10:00.000Z',
  updated_by: 5,
  last_activity_at: '2026-11-24T10:00:00.000Z',
};

const list = {
  count: 1,
  limit: 20,
  offset: 0,
  count_exact: true,
  next_cursor: null,
  unread_count: 0,
  results: [record],
};

/** Every kind the compiler writes itself. */
const Kinds = z.object({
  id: z.number().int(),
  ratio: z.number().min(0).max(1),
  name: z.string().min(1).max(10),
  code: z.string().regex(/^[A-Z]{3}$/),
  email: z.email(),
  when: z.iso.datetime(),
  role: z.enum(['student', 'editor']),
  kind: z.literal('topic'),
  note: z.string().optional(),
  parent: z.number().nullable(),
  flags: z.array(z.boolean()).max(3),
  interval: z.tuple([z.number(), z.number()]),
  either: z.union([z.object({ type: z.literal('a'), a: z.number() }), z.object({ type: z.literal('b') })]),
  strict: z.object({ x: z.number() }).strict(),
  errors: z.object({ detail: z.string() }).catchall(z.array(z.string())),
  given: z.string().default('fallback'),
  nothing: z.null(),
});

const kinds = {
  id: 1,
  ratio: 0.5,
  name: 'Ada',
  code: 'ABC',
  email: 'ada@example.com',
  when: '2026-11-24T09:00:00Z',
  role: 'editor',
  kind: 'topic',
  parent: null,
  flags: [true, false],
  interval: [0, 10.5],
  either: { type: 'b' },
  strict: { x: 1 },
  errors: { detail: 'Invalid input.', title: ['Too long.'] },
  given: 'given',
  nothing: null,
};

describe('compiled response serializer', () => {
  it('compiles the forum list, the error body and every kind above', () => {
    expect(compileWriter(ForumRecordList)).not.toBeNull();
    expect(compileWriter(ErrorBody)).not.toBeNull();
    expect(compileWriter(Kinds)).not.toBeNull();
  });

  it('writes a forum page exactly as zod does', () => {
    const out = expectSameAsZod(ForumRecordList, list);
    expect(out).toHaveProperty('json');
    expect(JSON.parse((out as { json: string }).json)).toEqual(list);
  });

  it('drops fields the schema does not declare, at every depth', () => {
    const leaky = {
      ...list,
      secret: 'x',
      results: [{ ...record, author: { ...record.author, email: 'a@b.c' }, password_hash: 'h' }],
    };
    const out = expectSameAsZod(ForumRecordList, leaky) as { json: string };
    expect(out.json).toContain('"display_name":"山田 太郎"');
    expect(out.json).not.toContain('secret');
    expect(out.json).not.toContain('a@b.c');
    expect(out.json).not.toContain('password_hash');
  });

  it('writes every kind as zod does', () => {
    for (const [schema, data] of [
      [Kinds, kinds],
      [Kinds, { ...kinds, note: 'n', either: { type: 'a', a: 2, extra: 1 } }],
      [ErrorBody, { detail: 'Not found.', code: 'not_found' }],
      [ErrorBody, { detail: 'Invalid input.', code: 'invalid', title: ['Too long.'] }],
    ] as const) {
      expect(expectSameAsZod(schema, data)).toHaveProperty('json');
    }
  });

  it.each([
    ['a missing field', { ...kinds, id: undefined }],
    ['a string for a number', { ...kinds, id: '1' }],
    ['a fraction for an int', { ...kinds, id: 1.5 }],
    ['NaN', { ...kinds, ratio: Number.NaN }],
    ['Infinity', { ...kinds, ratio: Number.POSITIVE_INFINITY }],
    ['a number out of bounds', { ...kinds, ratio: 2 }],
    ['a string too long', { ...kinds, name: 'x'.repeat(11) }],
    ['an empty string under min', { ...kinds, name: '' }],
    ['a string off its pattern', { ...kinds, code: 'abc' }],
    ['a bad e-mail', { ...kinds, email: 'not an address' }],
    ['a bad date-time', { ...kinds, when: '24/11/2026' }],
    ['a Date object for a date-time string', { ...kinds, when: new Date() }],
    ['an unknown enum value', { ...kinds, role: 'staff' }],
    ['a wrong literal', { ...kinds, kind: 'comment' }],
    ['null for a non-nullable', { ...kinds, name: null }],
    ['undefined for a nullable', { ...kinds, parent: undefined }],
    ['an array too long', { ...kinds, flags: [true, true, true, true] }],
    ['a tuple too short', { ...kinds, interval: [1] }],
    ['no union option', { ...kinds, either: { type: 'c' } }],
    ['an extra key on a strict object', { ...kinds, strict: { x: 1, y: 2 } }],
    ['a bad catchall value', { ...kinds, errors: { detail: 'd', title: 'not a list' } }],
    ['undefined for a defaulted field', { ...kinds, given: undefined }],
    ['an array for an object', { ...kinds, strict: [1] }],
    ['null for the whole body', null],
  ])('refuses %s with zod’s error', (_what, data) => {
    const out = expectSameAsZod(Kinds, data);
    expect(out).toEqual({ error: 'ResponseSerializationError' });
  });

  it('leaves schemas it cannot compile to zod, with the same result', () => {
    const Trimmed = z.object({ name: z.string().trim(), n: z.number().refine((n) => n % 2 === 0) });
    expect(compileWriter(Trimmed)).toBeNull();
    expectSameAsZod(Trimmed, { name: '  Ada  ', n: 2 });
    expectSameAsZod(Trimmed, { name: 'Ada', n: 3 });
    const Dated = z.object({ at: z.date() });
    expectSameAsZod(Dated, { at: new Date('2026-11-24T00:00:00Z') });
  });

  it('agrees with zod on a thousand random corruptions of a forum page and of every kind', () => {
    // A small deterministic generator (xorshift) so a failure can be replayed.
    let seed = 2026;
    const next = () => {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      return (seed >>> 0) / 4_294_967_296;
    };
    const pool: unknown[] = [
      null,
      undefined,
      0,
      -1,
      1.5,
      2 ** 60,
      Number.NaN,
      '',
      'x',
      '2026-11-24T09:00:00Z',
      'a@b.co',
      true,
      [],
      {},
      ['x'],
      { type: 'a', a: 1 },
    ];
    const corrupt = (value: unknown): unknown => {
      if (Array.isArray(value)) {
        if (value.length === 0 || next() < 0.2) return pool[Math.floor(next() * pool.length)];
        const copy = [...value];
        const i = Math.floor(next() * copy.length);
        copy[i] = corrupt(copy[i]);
        return copy;
      }
      if (typeof value === 'object' && value !== null) {
        const keys = Object.keys(value);
        if (keys.length === 0 || next() < 0.15) return pool[Math.floor(next() * pool.length)];
        const key = keys[Math.floor(next() * keys.length)]!;
        return { ...value, [key]: corrupt((value as Record<string, unknown>)[key]) };
      }
      return pool[Math.floor(next() * pool.length)];
    };
    let refused = 0;
    for (let i = 0; i < 1000; i += 1) {
      const [schema, valid] = i % 2 === 0 ? [ForumRecordList, list] : [Kinds, kinds];
      const out = expectSameAsZod(schema, corrupt(valid));
      if ('error' in out) refused += 1;
    }
    // Most corruptions are refused; some (a null where null is allowed) are still valid.
    expect(refused).toBeGreaterThan(500);
    expect(refused).toBeLessThan(1000);
  });
});
