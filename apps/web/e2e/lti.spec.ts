import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Frame, type Page } from '@playwright/test';
import { startLtiPlatform, type LtiPlatform } from '../../api/test/peers/lti-platform.ts';
import { ROLE } from '../../api/test/peers/lti-shapes.ts';
import { apiCall } from './api-client.ts';
import { ACCOUNTS, apiToken, ja, unique, type LanguageName, type Scheme } from './support.ts';

/*
 * Kadai inside an LMS (issue 38): the emulated platform of apps/api/test/peers/lti-platform.ts shows
 * its course page at http://localhost:<port> with Kadai (http://127.0.0.1:<port>, another site) in an
 * iframe, as Moodle or Canvas would. An instructor links the LMS course and adds two assignments by deep
 * linking; a student opens one from its link. Everything happens inside the frame, with no cookie.
 *
 * LTI_SHOTS=<folder> also saves screenshots of the LMS page at 1280 and 390 px, light and dark, in both
 * languages (for a person to look at; nothing is compared).
 */

test.describe.configure({ mode: 'serial' });

const CLIENT_ID = 'kadai-journey';
const DEPLOYMENT = 'dep-journey';
const contextId = unique('lms-course');
const teacher = {
  sub: unique('teacher'),
  givenName: 'Keiko',
  familyName: 'Tanaka',
  email: `${unique('teacher')}@lms.example.ac.jp`,
};
const student = {
  sub: unique('student'),
  givenName: 'Ren',
  familyName: 'Ito',
  email: `${unique('student')}@lms.example.ac.jp`,
};

let lms: LtiPlatform;
let staff: string;
let platformId: number;
let courseId: number;
const titles = [unique('LTI loops'), unique('LTI lists')];

/** The LMS's page on another site than Kadai's (localhost, not 127.0.0.1). */
const onLmsSite = (url: string) => url.replace('http://127.0.0.1:', 'http://localhost:');

/** Kadai's frame of the LMS page, once it shows a page of Kadai. */
async function kadaiFrame(page: Page, baseURL: string): Promise<Frame> {
  await expect.poll(() => page.frames().some((f) => f.url().startsWith(baseURL))).toBe(true);
  return page.frames().find((f) => f.url().startsWith(baseURL))!;
}

test.beforeAll(async ({ request, baseURL }) => {
  lms = await startLtiPlatform();
  staff = (await apiToken(request, ACCOUNTS.staff)).token;
  const made = await apiCall<{ id: number }>(request, staff, 'POST', '/Lti/Platform/', {
    name: 'Emulated Moodle',
    issuer: lms.issuer,
    client_id: CLIENT_ID,
    auth_url: lms.authUrl,
    token_url: lms.tokenUrl,
    jwks_url: lms.jwksUrl,
    deployment_ids: [DEPLOYMENT],
    frame_origins: [lms.issuer, onLmsSite(lms.issuer)],
  });
  platformId = made.id;
  lms.configureTool({
    clientId: CLIENT_ID,
    deploymentId: DEPLOYMENT,
    loginUrl: `${baseURL}/api/Lti/login/`,
    redirectUris: [`${baseURL}/api/Lti/launch/`],
    jwksUrl: `${baseURL}/api/Lti/jwks/`,
  });
});

test.afterAll(async ({ request }) => {
  // The other journeys' pages are not framed by an LMS that is gone.
  if (platformId) await apiCall(request, staff, 'DELETE', `/Lti/Platform/${platformId}/`);
  await lms?.close();
});

test('an instructor links the LMS course and adds two assignments from inside the LMS', async ({
  page,
  baseURL,
}) => {
  const first = lms.prepareLaunch({
    user: teacher,
    roles: [ROLE.instructor],
    context: { id: contextId, title: 'Python in the LMS' },
  });
  await page.goto(onLmsSite(first.lmsPageUrl));
  let frame = await kadaiFrame(page, baseURL!);
  const create = frame.getByRole('button', { name: ja.lti.context.createSubmit });
  await expect(create).toBeVisible();
  await expect(frame.getByRole('textbox', { name: ja.lti.context.newTitle })).toHaveValue(
    'Python in the LMS',
  );
  await shoot(page, 'lti-link-course');
  await create.click();
  await expect.poll(() => frame.url()).toMatch(/\/course\/\d+$/);
  await expect(frame.getByRole('heading', { name: 'Python in the LMS' }).first()).toBeVisible();
  courseId = Number(/\/course\/(\d+)$/.exec(frame.url())?.[1]);
  expect(courseId).toBeGreaterThan(0);

  const now = Date.now();
  for (const [i, title] of titles.entries()) {
    const assignment = await apiCall<{ id: number }>(page.request, staff, 'POST', '/Assignment/', {
      title,
      statement: 'Print the sum of two numbers.',
      courses: [
        {
          course_id: courseId,
          opens_at: new Date(now - 3_600_000).toISOString(),
          due_at: new Date(now + (7 + i) * 86_400_000).toISOString(),
        },
      ],
    });
    await apiCall(page.request, staff, 'POST', `/Assignment/${assignment.id}/${courseId}/TestCase/`, {
      name: 'Small',
      stdin: '3 4\n',
      expected_stdout: '7\n',
      points: 10,
    });
  }

  const picking = lms.prepareLaunch({
    user: teacher,
    roles: [ROLE.instructor],
    context: { id: contextId },
    messageType: 'LtiDeepLinkingRequest',
  });
  await page.goto(onLmsSite(picking.lmsPageUrl));
  frame = await kadaiFrame(page, baseURL!);
  for (const title of titles) await frame.getByRole('checkbox', { name: new RegExp(title) }).check();
  await shoot(page, 'lti-deep-link');
  await frame.getByRole('button', { name: ja.lti.deepLink.submit }).click();
  // The answer went to the LMS, which shows what it added in the same frame.
  await expect(page.frameLocator('iframe').getByRole('heading', { name: 'Content added' })).toBeVisible();
  expect(lms.deepLinks.at(-1)?.contentItems).toHaveLength(2);
  expect(lms.violations).toEqual([]);
});

test('a student opens an assignment from its link in the LMS', async ({ page, baseURL }) => {
  const link = lms.deepLinks.at(-1)!.resourceLinks[0]!;
  const launch = lms.prepareLaunch({
    user: student,
    roles: [ROLE.learner],
    context: { id: contextId },
    resourceLink: { id: link.id },
  });
  await page.goto(onLmsSite(launch.lmsPageUrl));
  const frame = await kadaiFrame(page, baseURL!);
  await expect(frame.getByRole('heading', { name: titles[0] }).first()).toBeVisible();
  expect(frame.url()).toMatch(new RegExp(`/course/${courseId}/assignment/\\d+$`));
  await page.setViewportSize({ width: 390, height: 844 });
  const widths = await frame.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(widths.scroll, 'sideways scroll at 390 px inside the frame').toBeLessThanOrEqual(widths.client);
  await page.setViewportSize({ width: 1280, height: 720 });
  await shoot(page, 'lti-assignment');
  expect(lms.violations).toEqual([]);
});

const SHOTS = process.env.LTI_SHOTS;
const LANG = { 日本語: 'ja', English: 'en-US' } as const;

/** Language and scheme of the Kadai frame, as another tab of the app would change them. */
async function setFrameLanguageAndScheme(frame: Frame, language: LanguageName, scheme: Scheme) {
  await frame.evaluate(
    ({ displayLang, isDarkMode }) => {
      const key = 'kadai-session';
      const stored = JSON.parse(localStorage.getItem(key) ?? '{"state":{},"version":1}') as {
        state: Record<string, unknown>;
      };
      stored.state = { ...stored.state, displayLang, isDarkMode };
      localStorage.setItem(key, JSON.stringify(stored));
      window.dispatchEvent(new StorageEvent('storage', { key, storageArea: localStorage }));
    },
    { displayLang: LANG[language], isDarkMode: scheme === 'dark' },
  );
  await expect(frame.locator('html')).toHaveAttribute('lang', LANG[language]);
  await expect(frame.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
}

/** With LTI_SHOTS set: the LMS page with Kadai inside, at 1280 and 390 px, light and dark, ja and en. */
async function shoot(page: Page, name: string): Promise<void> {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  const frame = page.frames().find((f) => f !== page.mainFrame())!;
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    for (const scheme of ['light', 'dark'] satisfies Scheme[]) {
      for (const language of ['日本語', 'English'] satisfies LanguageName[]) {
        await setFrameLanguageAndScheme(frame, language, scheme);
        const file = `${name}-${width}-${scheme}-${language === '日本語' ? 'ja' : 'en'}.png`;
        await page.screenshot({ path: path.join(SHOTS, file), fullPage: true });
      }
    }
  }
  await setFrameLanguageAndScheme(frame, '日本語', 'light');
  await page.setViewportSize({ width: 1280, height: 720 });
}
