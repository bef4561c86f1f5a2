import { ErrorBody } from '@kadai/contracts';

/** The error answers every quiz route may give. */
export const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody } as const;
export const conflictErrors = { ...errors, 409: ErrorBody } as const;
