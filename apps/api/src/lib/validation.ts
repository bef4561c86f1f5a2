import type { FastifySchemaCompiler } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { $ZodType } from 'zod/v4/core';
import { plainTextCheck, storableJsonCheck, storableTextCheck } from '@kadai/contracts';
import { HttpError } from './errors.ts';

/**
 * The request validator of every route: the Zod validator, plus two rules that hold for all routes
 * (docs/development.md, "Input"):
 * - every string of a request schema carries the text rule of `@kadai/contracts` (no NUL or other
 *   control characters, no unpaired surrogates). A route whose schema has a string without it is
 *   refused when the app starts, so a new route cannot forget it;
 * - a PATCH with nothing to change (`{}`) is 400 `nothing_to_change`, before any handler runs.
 */
export const requestValidatorCompiler: FastifySchemaCompiler<$ZodType> = (route) => {
  const unguarded = unguardedStrings(route.schema, route.httpPart ?? 'body');
  if (unguarded.length > 0) {
    throw new Error(
      `${route.method} ${route.url}: ${unguarded.join(', ')} must be built with the text helpers of ` +
        '@kadai/contracts (str, text, markdown...), which refuse control characters.',
    );
  }
  const validate = validatorCompiler(route);
  if (route.method !== 'PATCH' || route.httpPart !== 'body') return validate;
  return (data) => {
    const result = validate(data);
    // The Zod validator answers synchronously with { value } or { error }.
    if (typeof result === 'object' && 'value' in result && isEmptyObject(result.value)) {
      return { error: nothingToChange() };
    }
    return result;
  };
};

function nothingToChange(): HttpError {
  return new HttpError(400, 'nothing_to_change', 'Nothing to change: send at least one field.');
}

function isEmptyObject(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((field) => field === undefined)
  );
}

/** The inner parts of a Zod 4 definition this walk follows (read through `_zod.def`). */
interface Definition {
  type: string;
  format?: string;
  checks?: unknown[];
  shape?: Record<string, $ZodType>;
  catchall?: $ZodType;
  element?: $ZodType;
  items?: $ZodType[];
  rest?: $ZodType | null;
  options?: $ZodType[];
  left?: $ZodType;
  right?: $ZodType;
  in?: $ZodType;
  out?: $ZodType;
  innerType?: $ZodType;
  keyType?: $ZodType;
  valueType?: $ZodType;
  getter?: () => $ZodType;
}

/** String formats whose own pattern already excludes control characters. */
const SAFE_FORMATS = new Set(['email', 'datetime', 'date', 'time', 'duration', 'uuid', 'guid']);

/** Where in `schema` a string lacks the text rule, or `unknown`/`any` lets anything through. */
export function unguardedStrings(schema: $ZodType, at: string, seen = new Set<$ZodType>()): string[] {
  if (seen.has(schema)) return [];
  seen.add(schema);
  const def = schema._zod.def as unknown as Definition;
  const walk = (child: $ZodType | null | undefined, where: string) =>
    child ? unguardedStrings(child, where, seen) : [];
  switch (def.type) {
    case 'string':
      if (def.format && SAFE_FORMATS.has(def.format)) return [];
      return def.checks?.some((check) => check === plainTextCheck || check === storableTextCheck) ? [] : [at];
    case 'unknown':
    case 'any':
      return def.checks?.includes(storableJsonCheck) ? [] : [at];
    case 'object':
      return [
        ...Object.entries(def.shape ?? {}).flatMap(([key, field]) => walk(field, `${at}.${key}`)),
        ...walk(def.catchall, `${at}.*`),
      ];
    case 'array':
      return walk(def.element, `${at}[]`);
    case 'tuple':
      return [
        ...(def.items ?? []).flatMap((item, i) => walk(item, `${at}[${i}]`)),
        ...walk(def.rest, `${at}[]`),
      ];
    case 'union':
      return (def.options ?? []).flatMap((option) => walk(option, at));
    case 'intersection':
      return [...walk(def.left, at), ...walk(def.right, at)];
    case 'record':
      return [...walk(def.keyType, `${at}{key}`), ...walk(def.valueType, `${at}.*`)];
    case 'pipe':
      // A transform's output is the handler's business; what arrives is the input side.
      return walk(def.in, at);
    case 'lazy':
      return def.getter ? walk(def.getter(), at) : [];
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      return walk(def.innerType, at);
    default:
      return [];
  }
}
