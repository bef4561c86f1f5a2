import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { startOidcProvider, type OidcProvider } from '../../api/test/peers/oidc-op.ts';
import { startSimpleSamlIdp, type SimpleSamlIdp } from '../../api/test/peers/simplesamlphp.ts';
import { apiCall, newStudent } from './api-client.ts';
import {
  ACCOUNTS,
  apiToken,
  chooseLanguage,
  colorScheme,
  currentLanguage,
  expectNoAxeViolations,
  ja,
  setLanguageAndScheme,
  signedIn,
  unique,
  type LanguageName,
  type Scheme,
} from './support.ts';

/*
 * University sign-in (issue 37) against real identity providers started here: SimpleSAMLphp (SAML 2.0,
 * apps/api/test/peers/simplesamlphp.ts, `php -S`) and oidc-provider (OpenID Connect,
 * apps/api/test/peers/oidc-op.ts), both on 127.0.0.1 beside the journeys' server, whose PUBLIC_URL is
 * the origin the browser uses (playwright.config.ts). Staff add the providers through the API; the
 * journeys click the login page's buttons and sign in on the providers' own forms.
 *
 * SSO_SHOTS=<folder> also saves screenshots of the pages at 1280 and 390 px, light and dark, in both
 * languages (for a person to look at; nothing is compared).
 */

test.describe.configure({ mode: 'serial' });

const OID = {
  mail: 'urn:oid:0.9.2342.19200300.100.1.3',
  eppn: 'urn:oid:1.3.6.1.4.1.5923.1.1.1.6',
  sn: 'urn:oid:2.5.4.4',
  givenName: 'urn:oid:2.5.4.42',
  jasn: 'urn:oid:1.3.6.1.4.1.32264.1.1.1',
  jaGivenName: 'urn:oid:1.3.6.1.4.1.32264.1.1.2',
};
const IDP_PASSWORD = 'idp-pass-42';
const UNIVERSITY = 'u.example.ac.jp';

/** Unique per run: a server whose data is kept (E2E_DATA_DIR) sees new people every time. */
const people = {
  samlNew: unique('saml-new'),
  samlStranger: unique('saml-stranger'),
  samlExisting: unique('saml-existing'),
  oidcNew: unique('oidc-new'),
};
const NAMES = {
  saml: { ja: 'テスト大学', en: 'Test University' },
  closed: { ja: '招待制大学', en: 'Invitation University' },
  oidc: { ja: 'テスト研究所', en: 'Test Institute' },
};

let idp: SimpleSamlIdp | undefined;
let op: OidcProvider | undefined;
const providerIds: number[] = [];
/** The existing account the SAML person with the same e-mail links to (the /login/sso link page). */
let existing: { email: string; password: string };

function samlPerson(username: string, email: string) {
  return {
    password: IDP_PASSWORD,
    attributes: {
      [OID.eppn]: [`${username}@${UNIVERSITY}`],
      [OID.mail]: [email],
      [OID.sn]: ['Yamada'],
      [OID.givenName]: ['Taro'],
      [OID.jasn]: ['山田'],
      [OID.jaGivenName]: ['太郎'],
    },
  };
}

async function addProvider(request: APIRequestContext, token: string, body: Record<string, unknown>) {
  const made = await apiCall<{ id: number }>(request, token, 'POST', '/IdentityProvider/', body);
  providerIds.push(made.id);
  return made;
}

test.beforeAll(async ({ request, baseURL }) => {
  test.setTimeout(120_000);
  const staff = (await apiToken(request, ACCOUNTS.staff)).token;
  const student = await newStudent(request, staff, 'sso-existing');
  existing = { email: student.email, password: student.password };

  // The SP's certificate: what its metadata publishes (the key pair is made on first use).
  const metadata = await request.get('/api/Auth/Saml/metadata/');
  expect(metadata.ok()).toBe(true);
  const xml = await metadata.text();
  const certificate = /<(?:\w+:)?X509Certificate\b[^>]*>([^<]+)</.exec(xml)?.[1];
  expect(certificate, `a certificate in the SP metadata:\n${xml}`).toBeTruthy();

  idp = await startSimpleSamlIdp({
    sp: {
      entityId: `${baseURL}/api/Auth/Saml/metadata/`,
      acsUrl: `${baseURL}/api/Auth/Saml/acs/`,
      sloUrl: `${baseURL}/api/Auth/Saml/slo/`,
      certificate: `-----BEGIN CERTIFICATE-----\n${certificate!.trim()}\n-----END CERTIFICATE-----\n`,
    },
    users: {
      [people.samlNew]: samlPerson(people.samlNew, `${people.samlNew}@${UNIVERSITY}`),
      [people.samlStranger]: samlPerson(people.samlStranger, `${people.samlStranger}@${UNIVERSITY}`),
      [people.samlExisting]: samlPerson(people.samlExisting, student.email),
    },
  });
  const client = { client_id: unique('kadai'), client_secret: unique('secret') };
  op = await startOidcProvider({
    client: { ...client, redirect_uris: [`${baseURL}/api/Auth/Oidc/callback/`] },
    accounts: {
      [people.oidcNew]: {
        sub: unique('sub'),
        password: IDP_PASSWORD,
        claims: {
          email: `${people.oidcNew}@${UNIVERSITY}`,
          email_verified: true,
          given_name: 'Hanako',
          family_name: 'Sato',
        },
      },
    },
  });

  const names = (which: keyof typeof NAMES) => ({ name_ja: NAMES[which].ja, name_en: NAMES[which].en });
  await addProvider(request, staff, {
    kind: 'saml',
    slug: unique('saml'),
    ...names('saml'),
    metadata_url: idp.metadataUrl,
    allow_create: true,
  });
  await addProvider(request, staff, {
    kind: 'saml',
    slug: unique('closed'),
    ...names('closed'),
    metadata_url: idp.metadataUrl,
    email_domain: UNIVERSITY,
    allow_create: false,
  });
  await addProvider(request, staff, {
    kind: 'oidc',
    slug: unique('oidc'),
    ...names('oidc'),
    issuer: op.issuer,
    ...client,
    allow_create: true,
  });
});

test.afterAll(async ({ request }) => {
  if (providerIds.length > 0) {
    const staff = (await apiToken(request, ACCOUNTS.staff)).token;
    for (const id of providerIds.splice(0)) {
      await apiCall(request, staff, 'DELETE', `/IdentityProvider/${id}/`);
    }
  }
  await Promise.all([idp?.stop(), op?.stop()]);
});

/** The login page's button of a provider (a link: the browser leaves for the server, then the IdP). */
function providerButton(page: Page, name: string, language: LanguageName) {
  const label = language === '日本語' ? `${name}でログイン` : `Sign in with ${name}`;
  return page.getByRole('link', { name: label, exact: true });
}

/** SimpleSAMLphp's own username/password page. */
async function samlLogin(page: Page, username: string): Promise<void> {
  await expect(page).toHaveURL(/\/simplesaml\/module\.php\/core\/loginuserpass\.php/);
  await page.locator('input[name="username"]').fill(username);
  await page.locator('input[name="password"]').fill(IDP_PASSWORD);
  await page.locator('input[name="password"]').press('Enter');
}

/** oidc-provider's sign-in form (/interaction/<uid>). */
async function oidcLogin(page: Page, login: string): Promise<void> {
  await expect(page).toHaveURL(/\/interaction\/[^/]+$/);
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill(IDP_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

async function expectCourseListIn(page: Page, language: LanguageName): Promise<void> {
  await expect(page).toHaveURL(/\/course$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    language === '日本語' ? ja.routes.course : 'Courses',
  );
  await expect(page.locator('html')).toHaveAttribute('lang', language === '日本語' ? 'ja' : 'en-US');
  // Signed in: the header has the account menu.
  await expect(
    page.getByRole('button', { name: language === '日本語' ? ja.header.userMenu : 'Account menu' }),
  ).toBeVisible();
}

test('a new student signs in through the university (SAML) in Japanese and lands on the course list', async ({
  page,
}) => {
  await page.goto('/login');
  await chooseLanguage(page, '日本語');
  await providerButton(page, NAMES.saml.ja, '日本語').click();
  await samlLogin(page, people.samlNew);
  await expectCourseListIn(page, '日本語');

  // The second time the linked identity signs in to the same account.
  await page.context().clearCookies();
  await page.evaluate(() => localStorage.clear());
  await page.goto('/login');
  await providerButton(page, NAMES.saml.ja, '日本語').click();
  await samlLogin(page, people.samlNew);
  await expectCourseListIn(page, '日本語');
});

test('a new student signs in through the OpenID Connect provider in Japanese', async ({ page }) => {
  await page.goto('/login');
  await chooseLanguage(page, '日本語');
  await providerButton(page, NAMES.oidc.ja, '日本語').click();
  await oidcLogin(page, people.oidcNew);
  await expectCourseListIn(page, '日本語');
});

test('the language picked on the login page survives the trip to the provider', async ({ page }) => {
  // The account made above says Japanese; English picked before signing in wins, as with a password.
  await page.goto('/login');
  await chooseLanguage(page, 'English');
  await providerButton(page, NAMES.oidc.en, 'English').click();
  await oidcLogin(page, people.oidcNew);
  await expectCourseListIn(page, 'English');
});

test('a provider that creates no accounts sends an unknown person back with the no_account message', async ({
  page,
}) => {
  await page.goto('/login');
  await chooseLanguage(page, '日本語');
  await providerButton(page, NAMES.closed.ja, '日本語').click();
  await samlLogin(page, people.samlStranger);
  await expect(page).toHaveURL(/\/login\?sso_error=no_account$/);
  const alert = page.getByRole('alert').filter({ hasText: ja.auth.sso.errorTitle });
  await expect(alert).toContainText(ja.auth.sso.errors.no_account);
  await expectNoAxeViolations(page, 'the login page with the no_account message');

  await chooseLanguage(page, 'English');
  await expect(page.getByRole('alert')).toContainText(
    'There is no Kadai account for you yet. Ask your instructor to add you.',
  );
});

test('an existing account links the university identity with its password once', async ({ page }) => {
  await page.goto('/login');
  await chooseLanguage(page, '日本語');
  await providerButton(page, NAMES.saml.ja, '日本語').click();
  await samlLogin(page, people.samlExisting);
  // The one-time code leaves the address bar at once.
  await expect(page).toHaveURL(/\/login\/sso$/);
  await expect(page.getByRole('heading', { level: 1, name: ja.auth.sso.linkTitle })).toBeVisible();
  await expect(page.getByText(existing.email)).toBeVisible();
  await expectNoAxeViolations(page, 'the link page');
  await shoot(page, 'link');

  const password = page.getByRole('textbox', { name: ja.auth.login.password, exact: true });
  await password.fill('not-the-password');
  await page.getByRole('button', { name: ja.auth.sso.linkSubmit }).click();
  await expect(page.getByText(ja.auth.sso.wrongPassword)).toBeVisible();
  await password.fill(existing.password);
  await page.getByRole('button', { name: ja.auth.sso.linkSubmit }).click();
  await expectCourseListIn(page, '日本語');
});

test('the login page with the providers passes axe in both schemes and languages', async ({ page }) => {
  await page.goto('/login');
  await expect(providerButton(page, NAMES.saml.ja, '日本語')).toBeVisible();
  for (const [language, scheme] of [
    ['日本語', 'light'],
    ['English', 'dark'],
  ] as const) {
    await setLanguageAndScheme(page, language, scheme);
    await expectNoAxeViolations(page, `the login page with providers (${language})`);
  }
  await shoot(page, 'login');
  // The domain hint under the invitation-only university's button, and nothing wider than a phone.
  await setLanguageAndScheme(page, '日本語', 'light');
  await expect(page.getByText(`${UNIVERSITY} のアドレスの方`)).toBeVisible();
  await expectFitsPhone(page);
});

test('staff see the providers on the sign-in settings page, which passes axe', async ({ browser }) => {
  const page = await signedIn(browser, ACCOUNTS.staff);
  await page.goto('/admin/sign-in');
  const table = page.getByRole('table', { name: 'Identity providers' });
  await expect(table).toBeVisible();
  await expect(table.getByText(NAMES.saml.en, { exact: true })).toBeVisible();
  await expect(table.getByText(NAMES.oidc.en, { exact: true })).toBeVisible();
  for (const [language, scheme] of [
    ['English', 'light'],
    ['日本語', 'dark'],
  ] as const) {
    await setLanguageAndScheme(page, language, scheme);
    await expectNoAxeViolations(page, `the sign-in settings (${language})`);
  }
  await shoot(page, 'admin-sign-in');
  await expectFitsPhone(page);
  await page.context().close();
});

/** At 390 px the page does not scroll sideways (a wide table scrolls inside its own box). */
async function expectFitsPhone(page: Page): Promise<void> {
  await page.setViewportSize({ width: 390, height: 844 });
  const widths = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(widths.scroll, 'sideways scroll at 390 px').toBeLessThanOrEqual(widths.client);
  await page.setViewportSize({ width: 1280, height: 720 });
}

const SHOTS = process.env.SSO_SHOTS;

/**
 * With SSO_SHOTS set: full-page screenshots of what is showing at 1280 and 390 px, light and dark, in
 * both languages (`<name>-<width>-<scheme>-<ja|en>.png`).
 */
async function shoot(page: Page, name: string): Promise<void> {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  const before = {
    viewport: page.viewportSize() ?? { width: 1280, height: 720 },
    language: await currentLanguage(page),
    scheme: await colorScheme(page),
  };
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    for (const scheme of ['light', 'dark'] satisfies Scheme[]) {
      for (const language of ['日本語', 'English'] satisfies LanguageName[]) {
        await setLanguageAndScheme(page, language, scheme);
        // No tooltip or hover colour left by the pointer.
        await page.mouse.move(1, 700);
        await page.waitForFunction(() =>
          document.getAnimations().every((animation) => animation.playState !== 'running'),
        );
        const file = `${name}-${width}-${scheme}-${language === '日本語' ? 'ja' : 'en'}.png`;
        await page.screenshot({ path: path.join(SHOTS, file), fullPage: true });
      }
    }
  }
  await page.setViewportSize(before.viewport);
  await setLanguageAndScheme(page, before.language, before.scheme);
}
