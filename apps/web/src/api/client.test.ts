import type { Course } from '@kadai/contracts';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  SESSION_DEFAULTS,
  SESSION_STORAGE_KEY,
  syncSessionAcrossTabs,
  useSession,
} from '../features/auth/session.ts';
import { getCourse, listCourses } from '../features/courses/courses.api.ts';
import { json, stubFetch, tokenExpiringIn } from '../test/fetch.ts';
import { ApiError, apiCall, buildUrl, isApiError, refreshTokens, setNavigator } from './client.ts';
import { REFRESH_THRESHOLD_SECONDS, decodeTokenExpiry, expiresWithin } from './token.ts';

const COURSE = {
  id: 7,
  title: 'Algorithms',
  description: '',
  has_videos: false,
  has_assessment: true,
  time_zone: 'Asia/Tokyo',
  created_at: '2026-04-01T00:00:00.000Z',
  updated_at: '2026-04-01T00:00:00.000Z',
  my_role: 'student',
  editor_count: 1,
  student_count: 30,
} satisfies Course;

const REFRESH_URL = '/api/Auth/Token/Refresh/';
let navigate: ReturnType<typeof vi.fn<(path: string) => void>>;

function signIn(access: string, refresh: string | null = 'refresh-1') {
  useSession.setState({ authToken: access, refreshToken: refresh, userId: 1, emailAddress: 'a@example.com' });
}

beforeEach(() => {
  useSession.getState().reset();
  useSession.getState().setCallback(null);
  navigate = vi.fn<(path: string) => void>();
  setNavigator(navigate);
  window.history.replaceState(null, '', '/course/7/assignment');
});

describe('zod in the browser', () => {
  it('never compiles with eval, which the Content-Security-Policy forbids', () => {
    expect(z.config().jitless).toBe(true);
  });
});

describe('tokens', () => {
  it('reads the exp claim in seconds', () => {
    // The second is read before and after: a clock second may turn between making and checking it.
    const before = Math.floor(Date.now() / 1000) + 100;
    const token = tokenExpiringIn(100);
    const after = Math.floor(Date.now() / 1000) + 100;
    expect(decodeTokenExpiry(token)).toBeGreaterThanOrEqual(before);
    expect(decodeTokenExpiry(token)).toBeLessThanOrEqual(after);
    expect(decodeTokenExpiry('not-a-jwt')).toBeNull();
  });

  it('reads each token’s own expiry when tokens alternate (the last one read is kept)', () => {
    const soon = tokenExpiringIn(100);
    const later = tokenExpiringIn(90_000);
    for (let round = 0; round < 2; round += 1) {
      expect(expiresWithin(soon, 3600)).toBe(true);
      expect(expiresWithin(later, 3600)).toBe(false);
      expect(decodeTokenExpiry('not-a-jwt')).toBeNull();
    }
  });

  it('counts a token as expiring within the 3600 s threshold', () => {
    expect(REFRESH_THRESHOLD_SECONDS).toBe(3600);
    expect(expiresWithin(tokenExpiringIn(3599), 3600)).toBe(true);
    expect(expiresWithin(tokenExpiringIn(3700), 3600)).toBe(false);
    expect(expiresWithin('garbage', 3600)).toBe(true);
  });
});

describe('requests', () => {
  it('asks for server messages in the display language', async () => {
    signIn(tokenExpiringIn(7200));
    const { requests } = stubFetch(() => json(200, COURSE));
    await getCourse(7);
    expect(requests[0]!.headers['accept-language']).toBe('ja');
    useSession.setState({ displayLang: 'en-US' });
    await getCourse(7);
    expect(requests[1]!.headers['accept-language']).toBe('en-US');
  });

  it('sends the bearer token, and a JSON content type only with a body', async () => {
    const access = tokenExpiringIn(7200);
    signIn(access);
    const { requests } = stubFetch(() => json(200, COURSE));
    await getCourse(7);
    await apiCall('echo', 'POST', '/Echo/', { body: { a: 1 } });
    expect(requests[0]).toMatchObject({ url: '/api/Course/7/', method: 'GET' });
    expect(requests[0]!.headers.authorization).toBe(`Bearer ${access}`);
    expect(requests[0]!.headers['content-type']).toBeUndefined();
    expect(requests[1]!.headers['content-type']).toBe('application/json');
    expect(requests[1]!.body).toEqual({ a: 1 });
  });

  it('parses the response with the operation schema', async () => {
    signIn(tokenExpiringIn(7200));
    stubFetch(() => json(200, { ...COURSE, title: 42 }));
    await expect(getCourse(7)).rejects.toThrow();
  });

  it('builds query strings and skips empty values', () => {
    expect(buildUrl('op', '/Course/', {}, { limit: 20, offset: 0, search: '', ordering: undefined })).toBe(
      '/api/Course/?limit=20&offset=0',
    );
    expect(buildUrl('op', '/Course/{id}/', { id: 'a b' })).toBe('/api/Course/a%20b/');
  });

  it('throws the spec error for a missing path parameter, before a request is sent', async () => {
    const { fetchMock } = stubFetch(() => json(200, COURSE));
    await expect(getCourse(undefined)).rejects.toThrow(
      new Error('Required parameter id was null or undefined when calling getCourse.'),
    );
    await expect(getCourse(null)).rejects.toThrow(
      'Required parameter id was null or undefined when calling getCourse.',
    );
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('turns an error answer into an ApiError with status, body and field messages', async () => {
    signIn(tokenExpiringIn(7200));
    stubFetch(() =>
      json(400, { detail: 'Invalid input.', code: 'invalid', new_password2: ['Too common.', 'Too short.'] }),
    );
    const error = await apiCall('op', 'POST', '/X/', { body: {} }).catch((e: unknown) => e);
    expect(isApiError(error, 400)).toBe(true);
    if (!(error instanceof ApiError)) throw new Error('expected an ApiError');
    expect(error.body.detail).toBe('Invalid input.');
    expect(error.firstFieldMessage('token', 'new_password2')).toBe('Too common.');
  });

  it('reads Retry-After on 429', async () => {
    stubFetch(() => json(429, { detail: 'Slow down.', code: 'throttled' }, { 'Retry-After': '42' }));
    const error = await apiCall('op', 'POST', '/X/', { auth: false }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error instanceof ApiError && error.retryAfterSeconds).toBe(42);
  });

  it('keeps the status when the error body is not JSON', async () => {
    stubFetch(() => new Response('<html>Bad gateway</html>', { status: 502, statusText: 'Bad Gateway' }));
    const error = await apiCall('op', 'GET', '/X/', { auth: false }).catch((e: unknown) => e);
    expect(error instanceof ApiError && [error.status, error.body.detail]).toEqual([502, 'Bad Gateway']);
  });
});

describe('refresh before a request', () => {
  it('refreshes first when the access token expires within 3600 s, and replaces both tokens', async () => {
    signIn(tokenExpiringIn(1800), 'refresh-1');
    const fresh = tokenExpiringIn(7200);
    const { requests } = stubFetch((request) =>
      request.url === REFRESH_URL ? json(200, { access: fresh, refresh: 'refresh-2' }) : json(200, COURSE),
    );
    await getCourse(7);
    expect(requests.map((r) => r.url)).toEqual([REFRESH_URL, '/api/Course/7/']);
    expect(requests[0]!.body).toEqual({ refresh: 'refresh-1' });
    expect(requests[0]!.headers.authorization).toBeUndefined();
    expect(requests[1]!.headers.authorization).toBe(`Bearer ${fresh}`);
    expect(useSession.getState()).toMatchObject({ authToken: fresh, refreshToken: 'refresh-2' });
  });

  it('does not refresh a token that lives longer than the threshold', async () => {
    signIn(tokenExpiringIn(7200));
    const { requests } = stubFetch(() => json(200, COURSE));
    await getCourse(7);
    expect(requests.map((r) => r.url)).toEqual(['/api/Course/7/']);
  });

  it('shares one refresh among concurrent requests', async () => {
    signIn(tokenExpiringIn(60), 'refresh-1');
    const fresh = tokenExpiringIn(7200);
    const { requests } = stubFetch(async (request) => {
      if (request.url === REFRESH_URL) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        return json(200, { access: fresh, refresh: 'refresh-2' });
      }
      return request.url.startsWith('/api/Course/?')
        ? json(200, { count: 0, limit: 20, offset: 0, results: [] })
        : json(200, COURSE);
    });
    await Promise.all([getCourse(7), getCourse(8), listCourses({ limit: 20, offset: 0, ordering: 'title' })]);
    expect(requests.filter((r) => r.url === REFRESH_URL)).toHaveLength(1);
    const authorizations = requests.filter((r) => r.url !== REFRESH_URL).map((r) => r.headers.authorization);
    expect(authorizations).toEqual([`Bearer ${fresh}`, `Bearer ${fresh}`, `Bearer ${fresh}`]);
  });

  it('rejects the refresh without a refresh token, clears the session and goes to /login', async () => {
    signIn(tokenExpiringIn(60), null);
    const { fetchMock } = stubFetch(() => json(200, COURSE));
    await expect(refreshTokens()).rejects.toThrow();
    expect(fetchMock).not.toHaveBeenCalled();
    expect(useSession.getState().authToken).toBeNull();
    expect(navigate).toHaveBeenCalledWith('/login');
  });
});

describe('several tabs', () => {
  /** What another tab of the same browser leaves in localStorage after it refreshed. */
  function storeFromAnotherTab(access: string, refresh: string) {
    const stored = JSON.parse(localStorage.getItem(SESSION_STORAGE_KEY) ?? '{}') as {
      state: Record<string, unknown>;
      version: number;
    };
    stored.state = { ...stored.state, authToken: access, refreshToken: refresh };
    localStorage.setItem(SESSION_STORAGE_KEY, JSON.stringify(stored));
  }

  it('uses the pair another tab stored instead of spending a refresh token that is already used', async () => {
    signIn(tokenExpiringIn(60), 'refresh-1');
    const fresh = tokenExpiringIn(7200);
    storeFromAnotherTab(fresh, 'refresh-2');
    const { requests } = stubFetch(() => json(200, COURSE));
    await getCourse(7);
    expect(requests.map((r) => r.url)).toEqual(['/api/Course/7/']);
    expect(requests[0]!.headers.authorization).toBe(`Bearer ${fresh}`);
    expect(useSession.getState()).toMatchObject({ authToken: fresh, refreshToken: 'refresh-2' });
  });

  it('refreshes with the stored token when another tab left one that is about to expire', async () => {
    signIn(tokenExpiringIn(60), 'refresh-1');
    storeFromAnotherTab(tokenExpiringIn(120), 'refresh-2');
    const fresh = tokenExpiringIn(7200);
    const { requests } = stubFetch((request) =>
      request.url === REFRESH_URL ? json(200, { access: fresh, refresh: 'refresh-3' }) : json(200, COURSE),
    );
    await getCourse(7);
    expect(requests[0]!.body).toEqual({ refresh: 'refresh-2' });
    expect(requests[1]!.headers.authorization).toBe(`Bearer ${fresh}`);
  });

  it('follows sign-out and language changes made in another tab', () => {
    signIn(tokenExpiringIn(7200));
    const stop = syncSessionAcrossTabs();
    try {
      localStorage.setItem(
        SESSION_STORAGE_KEY,
        JSON.stringify({ state: { ...SESSION_DEFAULTS, displayLang: 'en-US' }, version: 1 }),
      );
      window.dispatchEvent(new StorageEvent('storage', { key: SESSION_STORAGE_KEY }));
      expect(useSession.getState()).toMatchObject({ authToken: null, displayLang: 'en-US' });
    } finally {
      stop();
      useSession.setState({ displayLang: 'ja' });
    }
  });
});

describe('401', () => {
  it('refreshes and retries the original request once with the new token', async () => {
    const stale = tokenExpiringIn(7200, 'stale');
    const fresh = tokenExpiringIn(7200, 'fresh');
    signIn(stale, 'refresh-1');
    const { requests } = stubFetch((request) => {
      if (request.url === REFRESH_URL) return json(200, { access: fresh, refresh: 'refresh-2' });
      return request.headers.authorization === `Bearer ${fresh}`
        ? json(200, COURSE)
        : json(401, { detail: 'Token expired.', code: 'not_authenticated' });
    });
    await expect(getCourse(7)).resolves.toMatchObject({ id: 7 });
    expect(requests.map((r) => r.url)).toEqual(['/api/Course/7/', REFRESH_URL, '/api/Course/7/']);
    expect(requests[2]!.headers.authorization).toBe(`Bearer ${fresh}`);
    expect(navigate).not.toHaveBeenCalled();
  });

  it('rejects a second consecutive 401 without another refresh, and signs out', async () => {
    signIn(tokenExpiringIn(7200, 'stale'), 'refresh-1');
    const { requests } = stubFetch((request) =>
      request.url === REFRESH_URL
        ? json(200, { access: tokenExpiringIn(7200, 'fresh'), refresh: 'refresh-2' })
        : json(401, { detail: 'No.', code: 'not_authenticated' }),
    );
    const error = await getCourse(7).catch((e: unknown) => e);
    expect(isApiError(error, 401)).toBe(true);
    expect(requests.filter((r) => r.url === REFRESH_URL)).toHaveLength(1);
    expect(requests).toHaveLength(3);
    expect(useSession.getState().authToken).toBeNull();
    expect(navigate).toHaveBeenCalledWith('/login');
  });

  it('does not refresh after a 401 when the call was made signed out', async () => {
    const { requests } = stubFetch(() =>
      json(401, { detail: 'Bad credentials.', code: 'authentication_failed' }),
    );
    const error = await apiCall('login', 'POST', '/Auth/Email/Login/', { body: {}, auth: false }).catch(
      (e: unknown) => e,
    );
    expect(isApiError(error, 401)).toBe(true);
    expect(requests).toHaveLength(1);
    expect(navigate).not.toHaveBeenCalled();
  });

  it('on a failed refresh clears the tokens, remembers the page and goes to /login', async () => {
    signIn(tokenExpiringIn(7200), 'refresh-1');
    stubFetch((request) =>
      request.url === REFRESH_URL
        ? json(401, { detail: 'Refresh token reused.', code: 'token_not_valid' })
        : json(401, { detail: 'Expired.', code: 'not_authenticated' }),
    );
    const error = await getCourse(7).catch((e: unknown) => e);
    expect(isApiError(error, 401)).toBe(true);
    expect(useSession.getState()).toMatchObject({ authToken: null, refreshToken: null, userId: null });
    expect(useSession.getState().callback).toBe('/course/7/assignment');
    expect(navigate).toHaveBeenCalledWith('/login');
  });

  it('does not navigate when the failed refresh happens on /login already', async () => {
    window.history.replaceState(null, '', '/login');
    signIn(tokenExpiringIn(60), 'refresh-1');
    stubFetch(() => json(401, { detail: 'No.', code: 'token_not_valid' }));
    await expect(getCourse(7)).rejects.toThrow();
    expect(useSession.getState().authToken).toBeNull();
    expect(navigate).not.toHaveBeenCalled();
  });

  it('keeps the session when the refresh fails for lack of network', async () => {
    const token = tokenExpiringIn(60);
    signIn(token, 'refresh-1');
    stubFetch(() => {
      throw new TypeError('Failed to fetch');
    });
    await expect(getCourse(7)).rejects.toThrow(TypeError);
    expect(useSession.getState().authToken).toBe(token);
    expect(navigate).not.toHaveBeenCalled();
  });

  it.each([
    [503, 'overloaded'],
    [503, 'database_unavailable'],
    [429, 'throttled'],
  ])(
    'keeps the session when the server is busy or away (%i %s): only a refused token ends it',
    async (status, code) => {
      const token = tokenExpiringIn(60);
      signIn(token, 'refresh-1');
      stubFetch(() => json(status, { detail: 'Busy.', code }));
      await expect(getCourse(7)).rejects.toMatchObject({ status });
      expect(useSession.getState()).toMatchObject({ authToken: token, refreshToken: 'refresh-1' });
      expect(navigate).not.toHaveBeenCalled();
    },
  );
});
