import { expect, test, type Page } from '@playwright/test';
import { ACCOUNTS, apiToken, chooseLanguage, unique } from './support.ts';

/*
 * Google sign-in against the fake Google (apps/api/test/fake-google.ts, started by the config with
 * GOOGLE_SCRIPT_URL, GOOGLE_TOKENINFO_URL and GOOGLE_USERINFO_URL pointing at it). Its identity script
 * answers `requestAccessToken()` with the token in localStorage `fake-google-token`; a token is `fg.` +
 * base64url(JSON of the Google account), which its tokeninfo and userinfo read back.
 */

interface GoogleAccount {
  sub: string;
  email: string;
  email_verified: boolean;
  given_name?: string;
}

const googleToken = (account: GoogleAccount) =>
  `fg.${Buffer.from(JSON.stringify(account)).toString('base64url')}`;

/** The next "Sign in with Google" on this page comes back as `account`. */
async function asGoogleAccount(page: Page, account: GoogleAccount): Promise<void> {
  await page.addInitScript((token) => localStorage.setItem('fake-google-token', token), googleToken(account));
}

interface StoredSession {
  state: { authToken: string | null; refreshToken: string | null; emailAddress: string | null };
}

function storedSession(page: Page): Promise<StoredSession['state']> {
  return page.evaluate(() => {
    const raw = localStorage.getItem('kadai-session');
    const parsed: StoredSession | null = raw ? JSON.parse(raw) : null;
    return parsed?.state ?? { authToken: null, refreshToken: null, emailAddress: null };
  });
}

/** A new account made by staff, as a course's students are: no password yet. */
async function newAccount(page: Page): Promise<string> {
  const { token } = await apiToken(page.request, ACCOUNTS.staff);
  const email = `${unique('google')}@example.com`;
  const response = await page.request.post('/api/Auth/User/', {
    data: { email, first_name: 'Gen', last_name: 'Google' },
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.status()).toBe(201);
  return email;
}

test('a student signs in with Google: the image button, the verified e-mail links the account, Course replaces Login', async ({
  page,
}) => {
  const email = await newAccount(page);
  const sub = unique('google-sub');
  await asGoogleAccount(page, { sub, email, email_verified: true, given_name: 'Gen' });

  await page.goto('/about');
  await page.goto('/login');
  await chooseLanguage(page, 'English');
  const button = page.getByRole('button', { name: 'Sign in with Google' });
  await expect(button).toBeEnabled();
  const image = button.locator('img');
  await expect(image).toHaveAttribute('data-variant', 'light-normal');
  await button.hover();
  await expect(image).toHaveAttribute('data-variant', 'light-pressed');
  // The identity script came from the configured URL, with the server's client id.
  expect(await page.evaluate(() => document.querySelector('script[src$="/gsi/client"]') !== null)).toBe(true);

  await button.click();
  await expect(page).toHaveURL(/\/course$/);
  expect(await storedSession(page)).toMatchObject({ emailAddress: email });
  expect((await storedSession(page)).refreshToken).toBeTruthy();
  expect(await page.evaluate(() => Reflect.get(window, '__fakeGoogle'))).toEqual({
    clientId: 'fake-google-client.apps.googleusercontent.com',
    scope: 'openid email profile',
  });
  // Login was replaced in the history: Back goes to the page before it.
  await page.goBack();
  await expect(page).toHaveURL(/\/about$/);
});

test('an unverified Google e-mail is refused: the notice says why and both tokens are cleared', async ({
  page,
}) => {
  const email = await newAccount(page);
  await asGoogleAccount(page, { sub: unique('google-sub'), email, email_verified: false });

  await page.goto('/login');
  await chooseLanguage(page, 'English');
  await page.getByRole('button', { name: 'Sign in with Google' }).click();
  await expect(page.getByText(/has not verified the e-mail address of this Google account/)).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  expect(await storedSession(page)).toMatchObject({ authToken: null, refreshToken: null });

  // In Japanese the button and the notice follow the language.
  await chooseLanguage(page, '日本語');
  await page.getByRole('button', { name: 'Google でログイン' }).click();
  await expect(page.getByText(/Google で確認されていません/)).toBeVisible();
});
