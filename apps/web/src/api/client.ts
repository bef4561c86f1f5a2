import { z } from 'zod';
import { ErrorBody, TokenPair } from '@kadai/contracts';
import { useSession } from '../features/auth/session.ts';
import { REFRESH_THRESHOLD_SECONDS, expiresWithin } from './token.ts';

// The app's Content-Security-Policy forbids eval: zod must not compile parsers with `new Function`, nor
// probe whether it may (the probe alone is reported as a violation, and costs Lighthouse's best practices).
z.config({ jitless: true });

/** Every call of the web app goes through `apiCall`; this is the only module that uses `fetch`. */
export const API_BASE = '/api';
export const LOGIN_PATH = '/login';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type PathValue = string | number | null | undefined;
export type QueryValue = string | number | boolean | null | undefined | readonly (string | number)[];

export interface CallOptions {
  /** Values for the `{name}` placeholders of the path; a missing one throws before anything is sent. */
  path?: Record<string, PathValue>;
  query?: Record<string, QueryValue>;
  /** Sent as JSON; a `FormData` is sent as multipart/form-data (file uploads). */
  body?: unknown;
  /**
   * False for calls made before sign-in (login, token refresh, set password): no bearer token, no
   * refresh before the call and no retry after a 401, so a wrong password is not mistaken for an
   * expired session.
   */
  auth?: boolean;
  signal?: AbortSignal;
  /** The `Accept` header; JSON unless the call downloads a file. */
  accept?: string;
  /**
   * `Idempotency-Key`: a retried POST with the same key is answered with the first one's result and
   * does nothing again (Submit). The 401 retry below sends it too.
   */
  idempotencyKey?: string;
}

export interface CallOptionsWithResponse<S extends z.ZodType> extends CallOptions {
  /** Schema of the response body: the result is parsed with it and typed by it. */
  response: S;
}

/** A non-2xx answer: the HTTP status and the API's error body `{ detail, code, ...fieldErrors }`. */
export class ApiError extends Error {
  readonly status: number;
  readonly body: ErrorBody;
  readonly operation: string;
  /** From `Retry-After` on 429 (seconds), else null. */
  readonly retryAfterSeconds: number | null;

  constructor(operation: string, status: number, body: ErrorBody, retryAfterSeconds: number | null = null) {
    super(body.detail);
    this.name = 'ApiError';
    this.operation = operation;
    this.status = status;
    this.body = body;
    this.retryAfterSeconds = retryAfterSeconds;
  }

  /** The messages the server gave for one field (`new_password2`, `title`, …). */
  fieldMessages(field: string): string[] {
    const value: unknown = this.body[field];
    return Array.isArray(value) ? value.filter((m): m is string => typeof m === 'string') : [];
  }

  /** The first message of the first of these fields that has one. */
  firstFieldMessage(...fields: string[]): string | undefined {
    for (const field of fields) {
      const [first] = this.fieldMessages(field);
      if (first !== undefined) return first;
    }
    return undefined;
  }
}

export function isApiError(error: unknown, status?: number): error is ApiError {
  return error instanceof ApiError && (status === undefined || error.status === status);
}

/** Where a signed-out client goes; the app replaces it with the router's navigate (full page load by default). */
export type Navigator = (path: string) => void;
let navigateTo: Navigator = (path) => window.location.assign(path);

export function setNavigator(navigator: Navigator): void {
  navigateTo = navigator;
}

export function requiredParameterMessage(name: string, operation: string): string {
  return `Required parameter ${name} was null or undefined when calling ${operation}.`;
}

export function buildUrl(
  operation: string,
  template: string,
  path: Record<string, PathValue> = {},
  query: Record<string, QueryValue> = {},
): string {
  const filled = template.replace(/\{(\w+)\}/g, (_match, name: string) => {
    const value = path[name];
    if (value === null || value === undefined) throw new Error(requiredParameterMessage(name, operation));
    return encodeURIComponent(String(value));
  });
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === null || value === undefined || value === '') continue;
    if (Array.isArray(value)) {
      for (const item of value) params.append(key, String(item));
    } else {
      params.append(key, String(value));
    }
  }
  const search = params.toString();
  return `${API_BASE}${filled}${search ? `?${search}` : ''}`;
}

async function readErrorBody(response: Response): Promise<ErrorBody> {
  const candidate: Record<string, unknown> = {
    detail: response.statusText || `HTTP ${response.status}`,
    code: 'http_error',
  };
  try {
    const raw: unknown = await response.json();
    // Read leniently: a proxy's error page or an extra non-list key must not hide the status.
    if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) {
      for (const [key, value] of Object.entries(raw)) {
        if ((key === 'detail' || key === 'code') && typeof value === 'string') candidate[key] = value;
        else if (key !== 'detail' && key !== 'code' && Array.isArray(value))
          candidate[key] = value.map(String);
      }
    }
  } catch {
    // Not JSON: the status text stands in for the detail.
  }
  return ErrorBody.parse(candidate);
}

async function toApiError(operation: string, response: Response): Promise<ApiError> {
  const retryAfter = Number.parseInt(response.headers.get('retry-after') ?? '', 10);
  return new ApiError(
    operation,
    response.status,
    await readErrorBody(response),
    Number.isFinite(retryAfter) ? retryAfter : null,
  );
}

/** Sign out on this device and send the browser to the login page, remembering where it was. */
export function signOutLocally(): void {
  const session = useSession.getState();
  session.reset();
  const { pathname, search, hash } = window.location;
  if (pathname !== LOGIN_PATH) {
    session.setCallback(`${pathname}${search}${hash}`);
    navigateTo(LOGIN_PATH);
  }
}

let refreshInFlight: Promise<string> | null = null;

/** Tabs of one browser take turns to refresh (Web Locks), so only one of them spends a refresh token. */
const REFRESH_LOCK = 'kadai-token-refresh';

async function withRefreshLock<T>(work: () => Promise<T>): Promise<T> {
  if (typeof navigator !== 'undefined' && 'locks' in navigator && navigator.locks) {
    return await navigator.locks.request(REFRESH_LOCK, work);
  }
  return work();
}

async function performRefresh(): Promise<string> {
  const spent = useSession.getState().refreshToken;
  return withRefreshLock(async () => {
    // Another tab may have refreshed while this one waited: its new pair is in storage, and this tab's
    // refresh token is already used up. Sending it again would look like theft and end the session.
    await useSession.persist.rehydrate();
    const { authToken, refreshToken } = useSession.getState();
    if (
      authToken !== null &&
      refreshToken !== null &&
      refreshToken !== spent &&
      !expiresWithin(authToken, REFRESH_THRESHOLD_SECONDS)
    ) {
      return authToken;
    }
    return exchangeRefreshToken(refreshToken);
  });
}

async function exchangeRefreshToken(refreshToken: string | null): Promise<string> {
  try {
    if (!refreshToken) throw new Error('No refresh token: sign in again.');
    const response = await fetch(`${API_BASE}/Auth/Token/Refresh/`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...languageHeader() },
      body: JSON.stringify({ refresh: refreshToken }),
    });
    if (!response.ok) throw await toApiError('refreshToken', response);
    const tokens = TokenPair.parse(await response.json());
    useSession.getState().setTokens(tokens);
    return tokens.access;
  } catch (error) {
    // A network failure (fetch's TypeError), a server that is busy (503 overloaded, 429) or cannot reach
    // its database says nothing about the session: keep it and let the caller retry. Any other answer
    // that is not a new token pair — the token refused — ends the session.
    const busy = error instanceof ApiError && (error.status >= 500 || error.status === 429);
    if (!(error instanceof TypeError) && !busy) signOutLocally();
    throw error;
  }
}

/**
 * Exchanges the refresh token for a new pair. Concurrent callers share one request: refresh tokens
 * rotate, so a second request with the same token would be taken for reuse and end the session.
 */
export function refreshTokens(): Promise<string> {
  refreshInFlight ??= performRefresh().finally(() => {
    refreshInFlight = null;
  });
  return refreshInFlight;
}

async function freshAccessToken(): Promise<string | null> {
  const { authToken } = useSession.getState();
  if (authToken === null) return null;
  if (refreshInFlight) return refreshInFlight;
  if (expiresWithin(authToken, REFRESH_THRESHOLD_SECONDS)) return refreshTokens();
  return authToken;
}

/** The server writes its messages (password rules, for one) in the language the user reads. */
function languageHeader(): Record<string, string> {
  return { 'Accept-Language': useSession.getState().displayLang };
}

function send(
  method: HttpMethod,
  url: string,
  options: CallOptions,
  token: string | null,
): Promise<Response> {
  const headers: Record<string, string> = {
    Accept: options.accept ?? 'application/json',
    ...languageHeader(),
  };
  if (token !== null) headers.Authorization = `Bearer ${token}`;
  if (options.idempotencyKey !== undefined) headers['Idempotency-Key'] = options.idempotencyKey;
  let body: string | FormData | undefined;
  if (options.body instanceof FormData) {
    // The browser writes the multipart Content-Type with its boundary.
    body = options.body;
  } else if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  return fetch(url, { method, headers, body, signal: options.signal });
}

export function apiCall<S extends z.ZodType>(
  operation: string,
  method: HttpMethod,
  template: string,
  options: CallOptionsWithResponse<S>,
): Promise<z.infer<S>>;
export function apiCall(
  operation: string,
  method: HttpMethod,
  template: string,
  options?: CallOptions,
): Promise<void>;
export async function apiCall(
  operation: string,
  method: HttpMethod,
  template: string,
  options: CallOptions & { response?: z.ZodType } = {},
): Promise<unknown> {
  const response = await perform(operation, method, template, options);
  if (!options.response || response.status === 204) return undefined;
  return options.response.parse(await response.json());
}

/** A file the server sends (a CSV export): its bytes and the name from `Content-Disposition`. */
export interface DownloadedFile {
  blob: Blob;
  filename: string | null;
}

function filenameOf(disposition: string | null): string | null {
  if (!disposition) return null;
  const encoded = /filename\*=UTF-8''([^;]+)/i.exec(disposition);
  if (encoded?.[1]) {
    try {
      return decodeURIComponent(encoded[1]);
    } catch {
      // A malformed encoded name: fall back to the plain one.
    }
  }
  return /filename="?([^";]+)"?/i.exec(disposition)?.[1] ?? null;
}

/** Like `apiCall`, with the same token rules, for a response that is a file rather than JSON. */
export async function apiDownload(
  operation: string,
  template: string,
  options: CallOptions = {},
): Promise<DownloadedFile> {
  const response = await perform(operation, 'GET', template, options);
  return { blob: await response.blob(), filename: filenameOf(response.headers.get('content-disposition')) };
}

/** Sends the request with the token rules above; resolves with a 2xx response or throws `ApiError`. */
async function perform(
  operation: string,
  method: HttpMethod,
  template: string,
  options: CallOptions,
): Promise<Response> {
  const url = buildUrl(operation, template, options.path, options.query);
  const withAuth = options.auth !== false;
  const token = withAuth ? await freshAccessToken() : null;
  let response = await send(method, url, options, token);

  if (response.status === 401 && token !== null) {
    // Another request may already have refreshed while this one was in flight: use its token.
    const current = useSession.getState().authToken;
    const retryToken = current !== null && current !== token ? current : await refreshTokens();
    response = await send(method, url, options, retryToken);
    if (response.status === 401) {
      // A second consecutive 401: the new token is refused too, so the session is over.
      const error = await toApiError(operation, response);
      signOutLocally();
      throw error;
    }
  }

  if (!response.ok) throw await toApiError(operation, response);
  return response;
}
