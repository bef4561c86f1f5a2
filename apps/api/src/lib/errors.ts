/** A failure with an HTTP status; the error handler turns it into the one error body of the API. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    /** Messages per input field, sent as `{ field: [messages] }` beside `detail` and `code`. */
    readonly fields?: Record<string, string[]>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export const badRequest = (detail: string, fields?: Record<string, string[]>, code = 'invalid') =>
  new HttpError(400, code, detail, fields);
export const notAuthenticated = (
  detail = 'Authentication credentials were not provided.',
  code = 'not_authenticated',
) => new HttpError(401, code, detail);
export const forbidden = (detail = 'You do not have permission to perform this action.') =>
  new HttpError(403, 'permission_denied', detail);
export const notFound = (detail = 'Not found.') => new HttpError(404, 'not_found', detail);
export const conflict = (detail: string, code = 'conflict', fields?: Record<string, string[]>) =>
  new HttpError(409, code, detail, fields);
export const tooManyRequests = (retryAfterSeconds: number) =>
  new HttpError(
    429,
    'throttled',
    `Request was throttled. Expected available in ${retryAfterSeconds} seconds.`,
    undefined,
    {
      'retry-after': String(retryAfterSeconds),
    },
  );
