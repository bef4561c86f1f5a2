import fc from 'fast-check';
import { z } from 'zod';
import { request, valid, NASTY_STRINGS, type Components, type JsonSchema } from './arbitraries.ts';

/** One operation of the OpenAPI document, as the fuzzer needs it. */
export interface Operation {
  method: string;
  /** As the document writes it: /api/Course/{id}/ */
  path: string;
  pathParams: { name: string; schema: JsonSchema }[];
  queryParams: { name: string; schema: JsonSchema; required: boolean }[];
  /** The JSON body's schema; undefined when the operation takes none (or another content type). */
  body?: JsonSchema;
  /** Takes a body, but not JSON (uploads). */
  otherBody: boolean;
  /** The statuses the document declares. */
  statuses: Set<number>;
}

/** One generated request. */
export interface FuzzRequest {
  url: string;
  query: Record<string, string | string[]>;
  /** The exact body text sent, or undefined for none. */
  payload?: string;
}

/** A request as values (for the targeted pass, which poisons its strings one at a time). */
export interface RequestValues {
  ids: string[];
  query: Record<string, unknown>;
  body?: unknown;
}

const Parameter = z.object({
  name: z.string(),
  in: z.string(),
  required: z.boolean().optional(),
  schema: z.custom<JsonSchema>((value) => typeof value === 'object' && value !== null).optional(),
});
const OperationObject = z.object({
  parameters: z.array(Parameter).optional(),
  requestBody: z
    .object({ content: z.record(z.string(), z.object({ schema: z.unknown() }).loose()) })
    .optional(),
  responses: z.record(z.string(), z.unknown()).optional(),
});
const Document = z.object({
  paths: z.record(z.string(), z.record(z.string(), z.unknown())),
  components: z.object({ schemas: z.record(z.string(), z.custom<JsonSchema>()) }),
});

const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);

/** Every operation of the document, in a stable order. */
export function readOperations(document: unknown): { operations: Operation[]; components: Components } {
  const doc = Document.parse(document);
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, raw] of Object.entries(methods)) {
      if (!METHODS.has(method)) continue;
      const op = OperationObject.parse(raw);
      const params = op.parameters ?? [];
      const content = op.requestBody?.content ?? {};
      const json = content['application/json'];
      operations.push({
        method: method.toUpperCase(),
        path,
        pathParams: params
          .filter((p) => p.in === 'path')
          .map((p) => ({ name: p.name, schema: p.schema ?? { type: 'string' } })),
        queryParams: params
          .filter((p) => p.in === 'query')
          .map((p) => ({
            name: p.name,
            schema: p.schema ?? { type: 'string' },
            required: p.required ?? false,
          })),
        body: json ? (json.schema as JsonSchema) : undefined,
        otherBody: !json && Object.keys(content).length > 0,
        statuses: new Set(Object.keys(op.responses ?? {}).map(Number)),
      });
    }
  }
  return { operations, components: doc.components.schemas };
}

/**
 * A path id: the small ids of the seeded world (objects in the caller's course and in courses the
 * caller has nothing to do with), ids nobody has, and ids no database could hold.
 */
const pathId: fc.Arbitrary<string> = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: 1, max: 6 }).map(String) },
  { weight: 3, arbitrary: fc.integer({ min: 7, max: 12 }).map(String) },
  { weight: 2, arbitrary: fc.integer({ min: 13, max: 400 }).map(String) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '0',
      '-1',
      '2147483647',
      '2147483648',
      '99999999999999999999',
      '1.5',
      '1e3',
      'abc',
      ' 1',
      '%00',
      '%E3%81%82',
      '..',
    ),
  },
);

function isInteger(schema: JsonSchema): boolean {
  return schema.type === 'integer' || schema.type === 'number';
}

/** A value as text in a URL (a query value or a path segment). */
function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

function pathValue(schema: JsonSchema, components: Components): fc.Arbitrary<string> {
  if (isInteger(schema)) return pathId;
  return fc
    .oneof(
      { weight: 3, arbitrary: valid(schema, components).map(asText) },
      { weight: 1, arbitrary: fc.constantFrom(...NASTY_STRINGS).filter((value) => value !== '') },
    )
    .map((value) => encodeSegment(value.slice(0, 1200)));
}

/** A path segment percent-encoded; an unpaired surrogate becomes the bytes a careless client sends. */
function encodeSegment(value: string): string {
  return value
    .replace(/\p{Cs}/gu, '\uFFFD')
    .split('\uFFFD')
    .map(encodeURIComponent)
    .join('%ED%A0%80');
}

function queryArbitrary(
  op: Operation,
  components: Components,
): fc.Arbitrary<Record<string, string | string[]>> {
  if (op.queryParams.length === 0) {
    return fc.oneof(fc.constant({}), fc.constant({ unexpected: '\u0000' }));
  }
  const schema: JsonSchema = {
    type: 'object',
    properties: Object.fromEntries(op.queryParams.map((p) => [p.name, p.schema])),
    required: op.queryParams.filter((p) => p.required).map((p) => p.name),
  };
  return request(schema, components).map((value) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return { limit: asText(value) };
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [
        key,
        Array.isArray(item) ? item.map(asText) : asText(item),
      ]),
    );
  });
}

const BROKEN_JSON = ['{"a":', '', 'null', '[]', '"text"', '{"a":1,"a":2}', '{"__proto__":{"is_staff":true}}'];

function bodyArbitrary(op: Operation, components: Components): fc.Arbitrary<string | undefined> {
  if (op.body) {
    return fc.oneof(
      { weight: 12, arbitrary: request(op.body, components).map((value) => JSON.stringify(value) ?? 'null') },
      { weight: 1, arbitrary: fc.constantFrom(...BROKEN_JSON) },
    );
  }
  // No JSON body declared: usually none, sometimes one the route must refuse or ignore.
  return fc.oneof(
    { weight: 4, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.constantFrom('{}', '{"a":', '{"file":"\\u0000"}') },
  );
}

/** Requests for one operation. */
export function requests(op: Operation, components: Components): fc.Arbitrary<FuzzRequest> {
  const params = fc.tuple(...op.pathParams.map((p) => pathValue(p.schema, components)));
  return fc
    .tuple(params, queryArbitrary(op, components), bodyArbitrary(op, components))
    .map(([values, query, payload]) => {
      let url = op.path;
      op.pathParams.forEach((p, i) => {
        url = url.replace(`{${p.name}}`, values[i] ?? '1');
      });
      return { url, query, payload };
    });
}

function querySchema(op: Operation): JsonSchema {
  return {
    type: 'object',
    properties: Object.fromEntries(op.queryParams.map((p) => [p.name, p.schema])),
    required: op.queryParams.filter((p) => p.required).map((p) => p.name),
  };
}

/** Requests as the schemas want them, with small ids: the bases the targeted pass poisons. */
export function validValues(op: Operation, components: Components): fc.Arbitrary<RequestValues> {
  const ids = fc.tuple(
    ...op.pathParams.map((p) =>
      isInteger(p.schema)
        ? fc.integer({ min: 1, max: 6 }).map(String)
        : valid(p.schema, components).map(asText),
    ),
  );
  const query = op.queryParams.length > 0 ? valid(querySchema(op), components) : fc.constant({});
  const body = op.body ? valid(op.body, components) : fc.constant(undefined);
  return fc.tuple(ids, query, body).map(([values, q, b]) => ({
    ids: values,
    query: (q ?? {}) as Record<string, unknown>,
    body: b,
  }));
}

/** The request those values make. */
export function toRequest(op: Operation, values: RequestValues): FuzzRequest {
  let url = op.path;
  op.pathParams.forEach((p, i) => {
    url = url.replace(`{${p.name}}`, encodeSegment(values.ids[i] ?? '1'));
  });
  const query = Object.fromEntries(
    Object.entries(values.query).map(([key, item]) => [
      key,
      Array.isArray(item) ? item.map(asText) : asText(item),
    ]),
  );
  return { url, query, payload: values.body === undefined ? undefined : JSON.stringify(values.body) };
}
