import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import axe from 'axe-core';
import { expect, type APIRequestContext, type Browser, type Locator, type Page } from '@playwright/test';
import type { UserInfo } from '@kadai/contracts';
import ja from '../src/i18n/ja.json' with { type: 'json' };
import type { SessionState } from '../src/features/auth/session.ts';
import type { GradedAssignment } from './assignment-data.ts';
import type { ForumAxeData } from './forum-data.ts';
import type { DemoQuizPages } from './quiz-data.ts';

export { ja };

/** The seeded demo data (apps/api/src/demo/seed.ts). */
export const DEMO_PASSWORD = 'demo-password-2026';
export const ACCOUNTS = {
  staff: 'staff@example.com',
  editor: 'editor@example.com',
  // Each student account belongs to one kind of journey, so no journey sees another's saved language.
  journeyStudent: 'student1@example.com',
  signInStudent: 'student2@example.com',
  savedStudent: 'student3@example.com',
} as const;
export const DEMO_COURSE = 'Introduction to Programming with Python';
export const STAFF_ONLY_COURSE = 'Data Structures and Algorithms';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
/** Browser storage of a signed-in session per role, written by auth.setup.ts. */
export const STORAGE_STATE = {
  staff: path.join(root, '.tmp/e2e-auth/staff.json'),
  student: path.join(root, '.tmp/e2e-auth/student.json'),
} as const;

/** What data.setup.ts made for the accessibility checks, written once per run. */
export const A11Y_DATA = path.join(root, '.tmp/e2e-auth/a11y-data.json');
export interface A11yData {
  courseId: number;
  savedStudentId: number;
  assignment: GradedAssignment;
  forum: ForumAxeData;
  quizzes: DemoQuizPages;
}

let a11yData: A11yData | undefined;
export function readA11yData(): A11yData {
  a11yData ??= JSON.parse(readFileSync(A11Y_DATA, 'utf8')) as A11yData;
  return a11yData;
}

/** Names nothing else in the run uses: the server's data lives for the whole run. */
export function unique(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

export type LanguageName = 'English' | '日本語';
const LANG_ATTRIBUTE: Record<LanguageName, string> = { English: 'en-US', 日本語: 'ja' };

/** The header's language switcher; its name is the same in both languages. */
export async function chooseLanguage(page: Page, language: LanguageName): Promise<void> {
  await page.getByRole('button', { name: 'Language / 言語' }).click();
  await page.getByRole('menuitem', { name: language }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', LANG_ATTRIBUTE[language]);
}

export function currentLanguage(page: Page): Promise<LanguageName> {
  return page.evaluate(() => (document.documentElement.lang === 'ja' ? '日本語' : 'English'));
}

const LOGIN_LABELS: Record<LanguageName, { email: string; password: string; submit: string }> = {
  English: { email: 'E-mail', password: 'Password', submit: 'Sign In' },
  日本語: { email: ja.auth.login.email, password: ja.auth.login.password, submit: ja.auth.login.submit },
};

/**
 * Fills and submits the login form the visitor is on. The language is picked first: a choice made on
 * this device before sign-in wins over the one saved in the account, so the journey knows what it reads.
 */
export async function signIn(
  page: Page,
  email: string,
  { password = DEMO_PASSWORD, language }: { password?: string; language: LanguageName },
): Promise<void> {
  await expect(page).toHaveURL(/\/login$/);
  await chooseLanguage(page, language);
  const labels = LOGIN_LABELS[language];
  await page.getByRole('textbox', { name: labels.email, exact: true }).fill(email);
  await page.getByRole('textbox', { name: labels.password, exact: true }).fill(password);
  await page.getByRole('button', { name: labels.submit, exact: true }).click();
}

/**
 * A page of its own (downloads allowed) signed in as `email` in English, on the course list. The
 * session is made through the API and stored as the login page stores it (features/auth/sign-in.ts:
 * tokens, then what Auth/UserInfo says, read now so courses made earlier in the run count), so the
 * journey starts with one page load instead of the login page, its language menu, the sign-in and
 * the course list. The sign-in form itself is walked by shell.spec.ts, sign-in.spec.ts and the
 * journeys of new accounts.
 */
export async function signedIn(
  browser: Browser,
  email: string,
  { password = DEMO_PASSWORD }: { password?: string } = {},
): Promise<Page> {
  const context = await browser.newContext({ acceptDownloads: true });
  const login = await context.request.post('/api/Auth/Email/Login/', { data: { email, password } });
  expect(login.status(), `API sign-in of ${email}`).toBe(200);
  const tokens: { access: string; refresh: string; user: { pk: number; email: string } } = await login.json();
  const info = await context.request.get('/api/Auth/UserInfo/', {
    headers: { authorization: `Bearer ${tokens.access}` },
  });
  expect(info.ok(), `Auth/UserInfo of ${email}`).toBe(true);
  const user: UserInfo = await info.json();
  const state: SessionState = {
    authToken: tokens.access,
    refreshToken: tokens.refresh,
    emailAddress: tokens.user.email,
    userId: user.id,
    is_staff: user.is_staff,
    roles: user.roles.length > 0 ? user.roles : ['no_role'],
    editorCourses: user.editor_courses,
    isDarkMode: false,
    displayLang: 'en-US',
    forumActiveTab: 'announcement',
    callback: null,
  };
  // Before the app's first script, on its own origin only (not in a video's frame), and only when the
  // app has stored nothing yet: a reload keeps what the journey changed since.
  await context.addInitScript(
    ({ origin, key, value }) => {
      if (location.origin === origin && localStorage.getItem(key) === null) localStorage.setItem(key, value);
    },
    {
      origin: new URL(login.url()).origin,
      key: 'kadai-session',
      value: JSON.stringify({ state, version: 1 }),
    },
  );
  const page = await context.newPage();
  await page.goto('/course');
  await expect(page).toHaveURL(/\/course$/);
  await expect(page.locator('html')).toHaveAttribute('lang', 'en-US');
  return page;
}

/** A `datetime-local` value in the browser's time zone (the config pins Asia/Tokyo). */
export function localInput(date: Date, timeZone = 'Asia/Tokyo'): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(date)
      .map((part) => [part.type, part.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
}

export type Scheme = 'light' | 'dark';

/** The app's scheme (before the app has set one, the one the browser prefers). */
export function colorScheme(page: Page): Promise<Scheme> {
  return page.evaluate(() => {
    const scheme =
      document.documentElement.getAttribute('data-mantine-color-scheme') ??
      (matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light');
    return scheme === 'dark' ? 'dark' : 'light';
  });
}

/** The header's dark-mode toggle (a pressed button means dark). */
export async function setColorScheme(page: Page, scheme: Scheme): Promise<void> {
  const toggle = page.locator('header').getByRole('button', { name: /^(Dark mode|ダークモード)$/ });
  if ((await colorScheme(page)) !== scheme) await toggle.click();
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
  await expect(toggle).toHaveAttribute('aria-pressed', String(scheme === 'dark'));
  // The toggle's tooltip would otherwise sit over the page while it is checked.
  await page.mouse.move(1, 700);
}

/**
 * Language and colour scheme at once, the way another tab changes them: the stored session (the
 * `kadai-session` key of localStorage) and the storage event the app syncs its tabs with. Faster than
 * the header's menu and toggle, which shell.spec.ts and sign-in.spec.ts drive as a user does.
 */
export async function setLanguageAndScheme(
  page: Page,
  language: LanguageName,
  scheme: Scheme,
): Promise<void> {
  await page.evaluate(
    ({ key, displayLang, isDarkMode }) => {
      const stored = JSON.parse(localStorage.getItem(key) ?? '{"state":{},"version":1}') as {
        state: Record<string, unknown>;
      };
      stored.state = { ...stored.state, displayLang, isDarkMode };
      localStorage.setItem(key, JSON.stringify(stored));
      window.dispatchEvent(new StorageEvent('storage', { key, storageArea: localStorage }));
    },
    { key: 'kadai-session', displayLang: LANG_ATTRIBUTE[language], isDarkMode: scheme === 'dark' },
  );
  await expect(page.locator('html')).toHaveAttribute('lang', LANG_ATTRIBUTE[language]);
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
}

/**
 * Turns the editable code editors in `scope` into CodeMirror, as a student's first click does (until
 * then each is a text area drawn like it: ui/CodeEditor.tsx), so axe sees the editor itself.
 */
export async function wakeCodeEditors(scope: Page | Locator): Promise<void> {
  const standIns = scope.locator('[data-code-placeholder]');
  // The editors may still be loading (a dialog's own code loads when it opens).
  await expect(scope.locator('[data-code-placeholder], .cm-content').first()).toBeVisible();
  // A pointer over each, not focus: a focused CodeMirror's cursor blinks forever, and `settle` waits for
  // animations to end. One may wake by itself meanwhile (the pointer an earlier click left where the page
  // then put it): a hover of one that is gone gives up after 2 s and the next try counts again.
  await expect(async () => {
    if ((await standIns.count()) > 0) await standIns.first().hover({ timeout: 2_000 });
    await expect(standIns).toHaveCount(0, { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await expect(scope.locator('.cm-content').first()).toBeVisible();
}

/** Waits for CSS transitions (dialogs fading in, colour changes) so axe sees final colours. */
export async function settle(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    document.getAnimations().every((animation) => animation.playState !== 'running'),
  );
}

interface AxeWindow {
  axe?: typeof axe;
}

/**
 * axe-core run in the page itself: its source is evaluated once per document (about 0.6 s) and each
 * scan then costs what axe's rules cost. AxeBuilder injects the source again and opens a blank tab to
 * merge frame results on every scan (about 2 s each). The app has no frames of its own; a page that
 * embeds one (a lecture video) is scanned with `frames`, through AxeBuilder.
 *
 * Only violations are asserted, so only violations are gathered in full (`resultTypes`): axe then
 * skips building a selector and an HTML excerpt for every element that passes, which was 55–65 % of
 * each scan (0.43 → 0.17 s on the assignment list), and only the violations cross back to the test.
 */
const AXE_OPTIONS = {
  runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
  resultTypes: ['violations'],
} satisfies axe.RunOptions;

async function runAxe(page: Page): Promise<Pick<axe.AxeResults, 'violations'>> {
  if (!(await page.evaluate(() => typeof (window as AxeWindow).axe === 'object'))) {
    await page.evaluate(axe.source);
  }
  return page.evaluate(async (options) => {
    const { violations } = await (window as AxeWindow).axe!.run(document, { ...options, iframes: false });
    return { violations };
  }, AXE_OPTIONS as axe.RunOptions);
}

/**
 * Axe with the WCAG 2.0/2.1 A and AA rules; a failure lists each rule with the elements it flagged.
 * `frames`: the page embeds another origin's frame (a video player), scanned too.
 */
export async function expectNoAxeViolations(
  page: Page,
  what: string,
  { frames = false }: { frames?: boolean } = {},
): Promise<void> {
  await settle(page);
  const results = frames ? await new AxeBuilder({ page }).options(AXE_OPTIONS).analyze() : await runAxe(page);
  const found = results.violations.map((violation) => ({
    rule: `${violation.id} (${violation.impact ?? 'unknown'}): ${violation.help}`,
    targets: violation.nodes.map((node) => node.target.join(' ')),
  }));
  expect(found, `axe violations on ${what} (${await colorScheme(page)} scheme)`).toEqual([]);
  await expectNoMissingTexts(page, what);
}

/**
 * Every text the page asked for was in the parts of the dictionary it had loaded: the shell's and the
 * page's, cut at build by vite-page-texts.ts (a missing one brings the whole dictionary, so the page
 * still shows it; this finds the key the build's reading of the source did not).
 */
export async function expectNoMissingTexts(page: Page, what: string): Promise<void> {
  const missing = await page.evaluate(
    () => (globalThis as { __kadaiMissingTexts?: string[] }).__kadaiMissingTexts ?? [],
  );
  expect(missing, `texts missing from the loaded parts on ${what}`).toEqual([]);
}

/** Signs in through the API (no browser): for looking up ids a journey needs to build a URL. */
export async function apiToken(
  request: APIRequestContext,
  email: string,
): Promise<{ token: string; id: number }> {
  const response = await request.post('/api/Auth/Email/Login/', {
    data: { email, password: DEMO_PASSWORD },
  });
  expect(response.status(), `API sign-in of ${email}`).toBe(200);
  const body: { access: string; user: { pk: number } } = await response.json();
  return { token: body.access, id: body.user.pk };
}

export async function userIdOf(request: APIRequestContext, email: string): Promise<number> {
  return (await apiToken(request, email)).id;
}

export async function demoCourseId(request: APIRequestContext): Promise<number> {
  const { token } = await apiToken(request, ACCOUNTS.staff);
  const response = await request.get('/api/Course/', {
    params: { search: DEMO_COURSE },
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.ok()).toBe(true);
  const body: { results: { id: number; title: string }[] } = await response.json();
  const course = body.results.find((candidate) => candidate.title === DEMO_COURSE);
  expect(course, 'the demo course').toBeDefined();
  return course!.id;
}
