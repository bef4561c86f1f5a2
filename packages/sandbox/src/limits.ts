import { SandboxRequestError } from './types.ts';

/**
 * `defaults` with each given override checked and applied: every limit is a positive safe integer, and
 * a bad one is refused rather than clamped so a caller never runs under limits it did not ask for.
 */
export function resolvePositiveLimits<T extends Record<keyof T, number>>(
  defaults: T,
  overrides: Partial<T> = {},
): T {
  const limits = { ...defaults };
  for (const key of Object.keys(defaults) as (keyof T)[]) {
    const value = overrides[key];
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new SandboxRequestError(`Limit ${String(key)} must be a positive integer, got ${String(value)}`);
    }
    limits[key] = value;
  }
  return limits;
}
