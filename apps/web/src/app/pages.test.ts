import { describe, expect, it } from 'vitest';
import { storedSignedIn } from '../features/auth/stored-session.ts';
import { PAGES, pageToOpen } from './pages.ts';
import { ROUTES, ROUTE_NAMES } from '../routes/route-definitions.ts';

const storage = (value: string | null) => ({ getItem: () => value });
const stored = (state: unknown) => storage(JSON.stringify({ state, version: 1 }));

describe('the page boot.ts starts loading', () => {
  it("is the route's own page for a reader with a session", () => {
    expect(pageToOpen('/course/1/assignment/4', true)).toBe('AssignmentDetail');
    expect(pageToOpen('/course/1', true)).toBe('CourseHome');
    expect(pageToOpen('/course/1/forum', true)).toBe('Forum');
    expect(pageToOpen('/login', true)).toBe('Login');
  });

  it('is the sign-in page where a session is needed and there is none (RequireAuth sends the reader there)', () => {
    expect(pageToOpen('/course/1/forum', false)).toBe('Login');
    expect(pageToOpen('/course', false)).toBe('Login');
    expect(pageToOpen('/about', false)).toBe('About');
  });

  it('follows the redirect of / and loads nothing for a page of the shell', () => {
    expect(pageToOpen('/', true)).toBe('Course');
    expect(pageToOpen('/', false)).toBe('Login');
    expect(pageToOpen('/no/such/page', true)).toBeNull();
  });

  it('is known for every route but the redirect and the shell’s own page', () => {
    const withoutPage = ROUTE_NAMES.filter((name) => !Object.hasOwn(PAGES, name));
    expect(withoutPage).toEqual(['Home', 'NotFound']);
    for (const name of ROUTE_NAMES) expect(ROUTES[name].path).toBeTruthy();
  });

  it('loads the page component the router shows', async () => {
    const { LoginPage } = await import('../features/auth/LoginPage.tsx');
    expect(await PAGES.Login()).toBe(LoginPage);
  });
});

describe('the stored session, read before the app', () => {
  it('is signed in when it holds an access token', () => {
    expect(storedSignedIn(stored({ authToken: 'a.b.c' }))).toBe(true);
    expect(storedSignedIn(stored({ authToken: null }))).toBe(false);
    expect(storedSignedIn(stored({ authToken: '' }))).toBe(false);
    expect(storedSignedIn(stored({ authToken: 42 }))).toBe(false);
    expect(storedSignedIn(storage(null))).toBe(false);
    expect(storedSignedIn(storage('{not json'))).toBe(false);
  });
});
