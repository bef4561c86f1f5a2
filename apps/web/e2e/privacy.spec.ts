import { readFileSync } from 'node:fs';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { newStudent } from './api-client.ts';
import { ACCOUNTS, apiToken, expectNoAxeViolations, signedIn } from './support.ts';

/** The test SMTP server's mailbox (apps/api/test/smtp-server.ts, started by playwright.config.ts). */
const MAILBOX = `http://127.0.0.1:${process.env.E2E_MAILBOX_PORT ?? 3202}`;

/** The e-mail to `address` with `subject` (the account's invitation came before it). */
async function waitForEmail(
  request: APIRequestContext,
  address: string,
  subject: string,
): Promise<{ subject: string; text: string }> {
  let found: { subject: string; text: string } | undefined;
  await expect
    .poll(
      async () => {
        const res = await request.get(`${MAILBOX}/messages?to=${encodeURIComponent(address)}`);
        const received = (await res.json()) as { subject: string; text: string }[];
        found = received.find((mail) => mail.subject === subject);
        return found !== undefined;
      },
      // The export is a background job: the queue's poll, the gathering, then the e-mail's own job.
      { timeout: 60_000, intervals: [500, 1000, 2000] },
    )
    .toBe(true);
  return found!;
}

test('a person downloads their data from the page the e-mail links to; staff then erase them', async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const staff = await apiToken(request, ACCOUNTS.staff);
  const person = await newStudent(request, staff.token, 'privacy', {
    first_name: 'Nadia',
    last_name: 'Leaver',
  });

  const page = await signedIn(browser, person.email, { password: person.password });
  try {
    await page.goto('/profile');
    const section = page.getByRole('region', { name: 'Download my data' });
    await section.getByRole('button', { name: 'Request a copy of my data' }).click();
    await expect(section.getByText(/Waiting|Being prepared|Ready/)).toBeVisible();
    await expect(section.getByRole('button', { name: 'Request a new copy' })).toBeDisabled();

    const mail = await waitForEmail(request, person.email, '[Kadai] Your personal data is ready to download');
    const link = /(http:\/\/127\.0\.0\.1:\d+\/profile#my-data)/.exec(mail.text)?.[1];
    expect(link, mail.text).toBeDefined();
    expect(mail.text).not.toContain('/api/Download/');

    const url = new URL(link!);
    await page.goto(`${url.pathname}${url.hash}`);
    await expect(section.getByText(/Ready to download until/)).toBeVisible();
    await expectNoAxeViolations(page, 'the profile with a ready export');
    const downloading = page.waitForEvent('download');
    await section.getByRole('button', { name: 'Download (zip)' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^kadai-data-\d{4}-\d{2}-\d{2}\.zip$/);
    const zip = readFileSync((await download.path())!);
    expect(zip.subarray(0, 2).toString('latin1')).toBe('PK');
    expect(zip.includes(Buffer.from('data/profile.json'))).toBe(true);
  } finally {
    await page.context().close();
  }

  const admin = await signedIn(browser, ACCOUNTS.staff);
  try {
    await admin.goto(`/profile/${person.id}`);
    const panel = admin.getByRole('region', { name: 'Erase this person' });
    await panel.getByRole('button', { name: 'Erase this person…' }).click();
    const dialog = admin.getByRole('dialog', { name: "Erase this person's personal data" });
    const erase = dialog.getByRole('button', { name: 'Erase', exact: true });
    await expect(erase).toBeDisabled();
    await expectNoAxeViolations(admin, 'the erase dialog');
    await dialog.getByRole('textbox', { name: /type their e-mail address/ }).fill(person.email);
    await erase.click();
    await expect(panel.getByText("This person's personal data has been erased.")).toBeVisible();
    await expect(admin.getByText(/@erased\.invalid/)).toBeVisible();
  } finally {
    await admin.context().close();
  }

  const login = await request.post('/api/Auth/Email/Login/', {
    data: { email: person.email, password: person.password },
  });
  expect(login.status()).toBe(401);
});
