import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { FastifySchemaCompiler } from 'fastify';
import type { $ZodType } from 'zod/v4/core';
import { Email, IsoDate, str, text, uploadedJson } from '@kadai/contracts';
import { HttpError } from './errors.ts';
import { requestValidatorCompiler, unguardedStrings } from './validation.ts';

describe('unguardedStrings', () => {
  it('finds a raw string wherever it hides', () => {
    const schema = z.object({
      title: text(10),
      note: z.string(),
      tags: z.array(z.string().max(5)).optional(),
      choice: z.union([z.number(), z.string()]),
      nested: z.object({ deep: z.string().nullable().default(null) }),
      map: z.record(str(), z.string()),
      piped: z.string().transform((value) => value.length),
      anything: z.unknown(),
    });
    expect(unguardedStrings(schema, 'body')).toEqual([
      'body.note',
      'body.tags[]',
      'body.choice',
      'body.nested.deep',
      'body.map.*',
      'body.piped',
      'body.anything',
    ]);
  });

  it('accepts the helpers, safe formats, enums and numbers', () => {
    const schema = z.strictObject({
      name: text(10).optional(),
      code: str().max(100),
      email: Email,
      at: IsoDate,
      kind: z.enum(['a', 'b']),
      count: z.coerce.number(),
      notebook: uploadedJson(),
    });
    expect(unguardedStrings(schema, 'body')).toEqual([]);
  });
});

const route = (method: string, schema: $ZodType) =>
  ({
    schema,
    method,
    url: '/api/Thing/:id/',
    httpPart: 'body',
  }) as unknown as Parameters<FastifySchemaCompiler<$ZodType>>[0];

describe('the request validator', () => {
  it('refuses to compile a route with a raw string, naming route and field', () => {
    expect(() => requestValidatorCompiler(route('POST', z.object({ title: z.string() })))).toThrow(
      /POST \/api\/Thing\/:id\/: body\.title must be built with the text helpers/,
    );
  });

  it('answers an empty PATCH with nothing_to_change, and passes one with a field', () => {
    const validate = requestValidatorCompiler(route('PATCH', z.strictObject({ title: text(10).optional() })));
    const empty = validate({}) as { error?: unknown };
    expect(empty.error).toBeInstanceOf(HttpError);
    expect((empty.error as HttpError).code).toBe('nothing_to_change');
    expect(validate({ title: 'x' })).toEqual({ value: { title: 'x' } });
  });

  it('leaves an empty POST body to its schema', () => {
    const validate = requestValidatorCompiler(route('POST', z.strictObject({ title: text(10).optional() })));
    expect(validate({})).toEqual({ value: {} });
  });
});
