import { expect, test, type APIRequestContext } from '@playwright/test';
import {
  ACCOUNTS,
  DEMO_COURSE,
  STORAGE_STATE,
  chooseLanguage,
  expectNoAxeViolations,
  signIn,
  signedIn,
  unique,
} from './support.ts';

/** The test SMTP server's mailbox (apps/api/test/smtp-server.ts, started by playwright.config.ts). */
const MAILBOX = `http://127.0.0.1:${process.env.E2E_MAILBOX_PORT ?? 3202}`;

interface ReceivedEmail {
  to: string[];
  subject: string;
  text: string;
}

async function waitForEmail(request: APIRequestContext, address: string): Promise<ReceivedEmail> {
  let received: ReceivedEmail[] = [];
  await expect
    .poll(
      async () => {
        const res = await request.get(`${MAILBOX}/messages?to=${encodeURIComponent(address)}`);
        received = (await res.json()) as ReceivedEmail[];
        return received.length;
      },
      { timeout: 30_000, intervals: [250, 500, 1000] },
    )
    .toBe(1);
  return received[0]!;
}

test('an editor invites a student by e-mail; the e-mail arrives over SMTP and its link sets a password', async ({
  browser,
  request,
}) => {
  // Three people and three browsers in one journey.
  test.setTimeout(180_000);
  const editor = await signedIn(browser, ACCOUNTS.editor);
  const email = `${unique('invited')}@example.jp`;
  try {
    await editor.getByRole('link', { name: DEMO_COURSE }).click();
    await expect(editor).toHaveURL(/\/course\/\d+$/);
    const courseUrl = editor.url();
    // Editors have Members in the rail (Settings stays staff-only); it opens on the students.
    const rail = editor.getByRole('navigation', { name: 'Course' });
    await expect(rail.getByRole('link', { name: 'Settings' })).toHaveCount(0);
    await rail.getByRole('link', { name: 'Members' }).click();
    await expect(editor).toHaveURL(`${courseUrl}/members`);
    await editor.getByRole('textbox', { name: 'E-mail addresses' }).fill(email);
    await editor.getByRole('button', { name: 'Add students' }).click();
    const result = editor.getByRole('status').filter({ hasText: 'Result' });
    await expect(result).toContainText('1 new account');
    await expect(result).toContainText(`${email}: invitation e-mailed`);
    // The link reaches the invitee's mailbox only, never the editor's page.
    await expect(result.getByRole('textbox', { name: `Link for ${email}` })).toHaveCount(0);
  } finally {
    await editor.context().close();
  }

  // A new account speaks the default language, Japanese.
  const invitation = await waitForEmail(request, email);
  expect(invitation.subject).toBe('【Kadai】アカウントのご案内');
  expect(invitation.text).toContain(`「${DEMO_COURSE}」`);
  const link = /(http:\/\/127\.0\.0\.1:\d+\/set-password\?\S+)/.exec(invitation.text)?.[1];
  expect(link, invitation.text).toBeDefined();

  const visitor = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  try {
    const student = await visitor.newPage();
    const url = new URL(link!);
    await student.goto(`${url.pathname}${url.search}`);
    await chooseLanguage(student, 'English');
    await expect(student.getByRole('heading', { level: 1, name: 'Set password' })).toBeVisible();
    const password = 'Lantern-harbour-7315';
    await student.getByRole('textbox', { name: 'New password' }).fill(password);
    await student.getByRole('textbox', { name: 'Confirm password' }).fill(password);
    await student.getByRole('button', { name: 'Submit' }).click();
    await expect(student.getByText('Password set successfully')).toBeVisible();
    await expect(student).toHaveURL(/\/login$/, { timeout: 5000 });

    await signIn(student, email, { password, language: 'English' });
    await expect(student).toHaveURL(/\/course$/);
    await expect(student.getByRole('link', { name: DEMO_COURSE })).toBeVisible();
  } finally {
    await visitor.close();
  }

  // Staff find the invitation in the outbox, sent, with its body.
  const staffContext = await browser.newContext({ storageState: STORAGE_STATE.staff });
  try {
    const staff = await staffContext.newPage();
    await staff.goto('/course');
    await chooseLanguage(staff, 'English');
    await staff.getByRole('button', { name: 'Account menu' }).click();
    await staff.getByRole('menuitem', { name: 'Outbox' }).click();
    await expect(staff).toHaveURL(/\/mail\/outbox$/);
    const row = staff.getByRole('row').filter({ hasText: email });
    await expect(row).toContainText('Sent');
    await expect(row).toContainText('Invitation');
    await row.getByRole('button', { name: '【Kadai】アカウントのご案内' }).click();
    const dialog = staff.getByRole('dialog', { name: '【Kadai】アカウントのご案内' });
    await expect(dialog).toContainText('/set-password?uid=');
    await expectNoAxeViolations(staff, 'the outbox with an e-mail open');
  } finally {
    await staffContext.close();
  }
});
