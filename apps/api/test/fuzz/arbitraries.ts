import fc from 'fast-check';

/**
 * fast-check arbitraries from the JSON Schemas of the API's OpenAPI document: values the schema
 * accepts (`valid`), and the same values broken in one place (`mutated`): a wrong type, a boundary
 * number, NUL or an unpaired surrogate, a very long string, a missing or an extra field.
 */
export type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  prefixItems?: JsonSchema[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
};

export type Components = Record<string, JsonSchema>;

/** Strings that have broken servers: control characters, half characters, markup, paths, sizes. */
export const NASTY_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\u0007bell',
  '\u001b[31mred',
  '\u007f',
  '\ud800',
  'x\udc00y',
  '\u202e\u0645',
  'が',
  'か\u3099',
  '資料 第1回.pdf',
  '😀👩‍👩‍👧',
  '<script>alert(1)</script>',
  "'; DROP TABLE users; --",
  '../../etc/passwd',
  '%00',
  '\\',
  'null',
  '-1',
  '1e309',
  'a'.repeat(10_001),
  '\n'.repeat(300),
] as const;

/** Numbers at and past the edges of what the API stores (int4, JS safe integers, doubles). */
export const BOUNDARY_NUMBERS = [
  0,
  -1,
  1,
  0.5,
  -0,
  2_147_483_647,
  2_147_483_648,
  -2_147_483_649,
  Number.MAX_SAFE_INTEGER,
  2 ** 63,
  1e308,
  -1e308,
] as const;

/** A value of another JSON type than the schema wants. */
export const WRONG_TYPES: readonly unknown[] = [
  null,
  true,
  0,
  'text',
  [],
  {},
  [null],
  { nested: { deeper: [1] } },
];

const MAX_STRING = 40;
const ABSENT = Symbol('absent');
const MAX_ITEMS = 3;

function resolve(schema: JsonSchema, components: Components): JsonSchema {
  let current = schema;
  for (let hops = 0; current.$ref && hops < 20; hops++) {
    const name = current.$ref.replace('#/components/schemas/', '');
    const target = components[name];
    if (!target) throw new Error(`unknown schema ${current.$ref}`);
    current = target;
  }
  return current;
}

function stringArbitrary(schema: JsonSchema): fc.Arbitrary<string> {
  switch (schema.format) {
    case 'date-time':
      return fc
        .date({
          min: new Date('2020-01-01T00:00:00Z'),
          max: new Date('2035-01-01T00:00:00Z'),
          noInvalidDate: true,
        })
        .map((date) => date.toISOString());
    case 'date':
      return fc
        .date({
          min: new Date('2020-01-01T00:00:00Z'),
          max: new Date('2035-01-01T00:00:00Z'),
          noInvalidDate: true,
        })
        .map((date) => date.toISOString().slice(0, 10));
    case 'email':
      return fc.constantFrom('student1@example.com', 'editor@example.com', 'new.person@example.ac.jp');
    case 'uri':
      return fc.constantFrom('https://example.com/a.png', 'https://i.vimeocdn.com/video/1.jpg');
    case 'uuid':
      return fc.uuid();
  }
  if (schema.pattern) {
    const pattern = new RegExp(schema.pattern);
    return fc.stringMatching(pattern).filter((value) => within(value, schema));
  }
  const min = schema.minLength ?? 0;
  const max = Math.max(min, Math.min(schema.maxLength ?? MAX_STRING, MAX_STRING));
  return fc.oneof(
    fc.string({ minLength: min, maxLength: max }),
    fc
      .constantFrom('課題 1', 'Hello', 'print(1)\n', 'x'.repeat(min))
      .filter((value) => within(value, schema)),
  );
}

function within(value: string, schema: JsonSchema): boolean {
  return value.length >= (schema.minLength ?? 0) && value.length <= (schema.maxLength ?? Infinity);
}

function numberArbitrary(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : -1000);
  const max = schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : 1000);
  const low = Math.max(min, -1_000_000);
  const high = Math.min(max, 1_000_000);
  if (integer) {
    const lowest = Math.ceil(low);
    const highest = Math.max(lowest, Math.floor(high));
    // Ids, positions and counts are mostly small: small values find the seeded objects.
    const between = (from: number, to: number) =>
      fc.integer({
        min: Math.min(Math.max(lowest, from), highest),
        max: Math.max(Math.min(highest, to), lowest),
      });
    return fc.oneof(
      { weight: 4, arbitrary: between(1, 3) },
      { weight: 1, arbitrary: between(4, 12) },
      { weight: 1, arbitrary: fc.integer({ min: lowest, max: highest }) },
    );
  }
  return fc.double({ min: low, max: high, noNaN: true, noDefaultInfinity: true });
}

/** Values `schema` accepts (as far as JSON Schema says: the server may still refuse them). */
export function valid(schema: JsonSchema, components: Components, depth = 0): fc.Arbitrary<unknown> {
  const s = resolve(schema, components);
  if (depth > 6) return fc.constant(s.default ?? null);
  const next = (child: JsonSchema) => valid(child, components, depth + 1);
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  const options = s.anyOf ?? s.oneOf;
  if (options) return fc.oneof(...options.map(next));
  if (s.allOf) return fc.tuple(...s.allOf.map(next)).map((parts) => Object.assign({}, ...parts) as unknown);
  const types = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
  if (types.length > 1) return fc.oneof(...types.map((type) => next({ ...s, type })));
  switch (types[0]) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return numberArbitrary(s, true);
    case 'number':
      return numberArbitrary(s, false);
    case 'string':
      return stringArbitrary(s);
    case 'array': {
      if (s.prefixItems) return fc.tuple(...s.prefixItems.map(next));
      const minLength = s.minItems ?? 0;
      const maxLength = Math.max(minLength, Math.min(s.maxItems ?? MAX_ITEMS, MAX_ITEMS));
      return fc.array(s.items ? next(s.items) : fc.jsonValue(), { minLength, maxLength });
    }
    case 'object':
    case undefined: {
      if (!s.properties) return types[0] === 'object' ? fc.constant({}) : fc.jsonValue();
      // Optional fields are mostly left out: each one sent is one more reason for a refusal, and what
      // the fuzzer wants most is requests that get as far as the handler and the database.
      const required = new Set(s.required ?? []);
      const model = Object.fromEntries(
        Object.entries(s.properties).map(([key, child]) => [
          key,
          required.has(key)
            ? next(child)
            : fc.oneof({ weight: 3, arbitrary: fc.constant(ABSENT) }, { weight: 1, arbitrary: next(child) }),
        ]),
      );
      return fc
        .record(model)
        .map((record) => Object.fromEntries(Object.entries(record).filter(([, value]) => value !== ABSENT)));
    }
    default:
      return fc.jsonValue();
  }
}

/** One way to break a value. */
export type Mutation =
  | { kind: 'poison'; with: string; at: number }
  | { kind: 'replace'; with: unknown }
  | { kind: 'drop' }
  | { kind: 'extra'; key: string; value: unknown };

/** What careless clients put inside otherwise good text. */
const POISON = ['\u0000', '\ud800', '\udfff', '\u0007', '\u001b', '\u007f', '\u000b'] as const;

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(...NASTY_STRINGS).map((value) => ({ kind: 'replace' as const, with: value })),
  },
  {
    weight: 2,
    arbitrary: fc
      .constantFrom(...BOUNDARY_NUMBERS)
      .map((value) => ({ kind: 'replace' as const, with: value })),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(...WRONG_TYPES).map((value) => ({ kind: 'replace' as const, with: value })),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'drop' as const }) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        fc.constantFrom('extra', '__proto__', 'constructor', 'id', 'is_staff', 'course'),
        fc.jsonValue({ maxDepth: 1 }),
      )
      .map(([key, value]) => ({ kind: 'extra' as const, key, value })),
  },
);

/** The places of a JSON value, as key paths (the root is []). */
function places(
  value: unknown,
  at: (string | number)[] = [],
  out: (string | number)[][] = [],
): (string | number)[][] {
  out.push(at);
  if (Array.isArray(value)) value.forEach((item, i) => places(item, [...at, i], out));
  else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) places(item, [...at, key], out);
  }
  return out;
}

/** `value` with `change` applied at its `pick`-th place (modulo the number of places). */
export function mutate(value: unknown, pick: number, change: Mutation): unknown {
  if (change.kind === 'poison') return poison(value, pick, change);
  const all = places(value);
  const path = all[pick % all.length]!;
  const copy: unknown = structuredClone(value);
  if (path.length === 0) {
    if (change.kind === 'replace') return change.with;
    if (change.kind === 'extra' && copy !== null && typeof copy === 'object' && !Array.isArray(copy)) {
      Object.defineProperty(copy, change.key, { value: change.value, enumerable: true, writable: true });
      return copy;
    }
    return change.kind === 'drop' ? undefined : copy;
  }
  let parent = copy as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (change.kind === 'replace') parent[last] = change.with;
  else if (change.kind === 'drop') {
    if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else Reflect.deleteProperty(parent, last);
  } else {
    const target = parent[last];
    if (target !== null && typeof target === 'object' && !Array.isArray(target)) {
      Object.defineProperty(target, change.key, { value: change.value, enumerable: true, writable: true });
    } else parent[last] = { [change.key]: change.value };
  }
  return copy;
}

const poisoning: fc.Arbitrary<Mutation> = fc
  .tuple(fc.constantFrom(...POISON), fc.nat())
  .map(([poison, at]) => ({ kind: 'poison' as const, with: poison, at }));

/**
 * A quarter as the schema wants them (so handlers run), three eighths with bad text inside one
 * string and otherwise good (so the text reaches the handler and the database), three eighths broken
 * in one place some other way.
 */
export function request(schema: JsonSchema, components: Components): fc.Arbitrary<unknown> {
  const ok = valid(schema, components);
  const broken = (how: fc.Arbitrary<Mutation>) =>
    fc.tuple(ok, fc.nat(), how).map(([value, pick, change]) => mutate(value, pick, change));
  return fc.oneof(
    { weight: 2, arbitrary: ok },
    { weight: 3, arbitrary: broken(poisoning) },
    { weight: 3, arbitrary: broken(mutation) },
  );
}

/** How many strings `value` holds (its keys excluded). */
export function stringCount(value: unknown): number {
  return places(value).filter((path) => typeof readAt(value, path) === 'string').length;
}

/** `value` with a control character or half a character put inside one of its strings (or as one). */
export function poison(value: unknown, pick: number, change: { with: string; at: number }): unknown {
  const strings = places(value).filter((path) => typeof readAt(value, path) === 'string');
  if (strings.length === 0) return mutate(value, pick, { kind: 'replace', with: change.with });
  const path = strings[pick % strings.length]!;
  const text = readAt(value, path) as string;
  const at = change.at % (text.length + 1);
  const poisoned = text.slice(0, at) + change.with + text.slice(at);
  if (path.length === 0) return poisoned;
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  parent[path[path.length - 1]!] = poisoned;
  return copy;
}

function readAt(value: unknown, path: (string | number)[]): unknown {
  let current = value;
  for (const key of path) current = (current as Record<string | number, unknown>)[key];
  return current;
}
