import { z } from 'zod';

export {
  markdown,
  optionalText,
  outputText,
  plainTextCheck,
  searchText,
  storableJsonCheck,
  storableTextCheck,
  str,
  text,
  textProblem,
  uploadedJson,
} from './text.ts';

/**
 * The one error body of the API: `detail` for people, `code` for programs, and for bad input one key per
 * field holding its messages (`{ "new_password2": ["This password is too common."] }`).
 */
export const ErrorBody = z
  .object({ detail: z.string(), code: z.string() })
  .catchall(z.array(z.string()))
  .meta({ id: 'ErrorBody' });
export type ErrorBody = z.infer<typeof ErrorBody>;

/** Every list is capped: a client may ask for at most this many rows in one page. */
export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 20;

export const PageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});
export type PageQuery = z.infer<typeof PageQuery>;

export function paginated<T extends z.ZodType>(item: T) {
  return z.object({
    count: z.number().int(),
    limit: z.number().int(),
    offset: z.number().int(),
    results: z.array(item),
  });
}
export type Paginated<T> = { count: number; limit: number; offset: number; results: T[] };

/** Database ids are positive integers; anything else in a path is answered with 404, not 500. */
export const Id = z.coerce.number().int().min(1).max(2_147_483_647);
export const IdParams = z.object({ id: Id });
export const CourseIdParams = z.object({ course_id: Id });

export const Language = z.enum(['ja', 'en-US']);
export type Language = z.infer<typeof Language>;

export const Email = z.email().max(254);

/** A boolean in a query string: exactly `true` or `false`. */
export const BoolQuery = z.enum(['true', 'false']).transform((v) => v === 'true');

/** A date-time a client sends: ISO 8601 with a zone offset (answers are always UTC, `z.iso.datetime()`). */
export const IsoDate = z.iso.datetime({ offset: true });
