import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import type { z } from 'zod';
import { isApiError } from '../api/client.ts';

/** A react-hook-form `validate` rule from a contract field schema, so client and server agree. */
export function schemaRule(schema: z.ZodType, message: string) {
  return (value: unknown) => schema.safeParse(value).success || message;
}

/**
 * Puts the server's per-field messages (`{ title: ["…"] }`) on the form's fields. Returns true when at
 * least one field got a message, so the caller knows whether a general notice is still needed.
 */
export function applyFieldErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: readonly Path<T>[],
): boolean {
  if (!isApiError(error, 400)) return false;
  let applied = false;
  for (const field of fields) {
    const message = error.firstFieldMessage(field);
    if (message !== undefined) {
      setError(field, { type: 'server', message });
      applied = true;
    }
  }
  return applied;
}
