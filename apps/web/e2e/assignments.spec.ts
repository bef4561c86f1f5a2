import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { ACCOUNTS, DEMO_COURSE, signedIn, unique, wakeCodeEditors } from './support.ts';
import { typeCode } from './api-client.ts';

const STARTER = 'a, b = map(int, input().split())\n';
const WRONG = `${STARTER}print(a + b if a < 1000 else 0)\n`;
const RIGHT = `${STARTER}print(a + b)\n`;

test('an editor publishes an assignment with a visible and a hidden test; a student is graded live, picks a final submission and is ranked; the editor downloads the CSV', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const title = unique('Sum of two numbers');
  const editor = await signedIn(browser, ACCOUNTS.editor);

  await test.step('the editor creates the assignment', async () => {
    await editor.getByRole('link', { name: DEMO_COURSE }).click();
    // A course opens on its home; the assignments are the rail's Assignment.
    await editor
      .getByRole('navigation', { name: 'Course' })
      .getByRole('link', { name: 'Assignment' })
      .click();
    await expect(editor.getByRole('heading', { level: 1, name: 'Assignments' })).toBeVisible();
    await editor.getByRole('button', { name: 'New assignment' }).click();
    const dialog = editor.getByRole('dialog', { name: 'New assignment' });
    await dialog.getByRole('textbox', { name: 'Title' }).fill(title);
    await dialog
      .getByRole('textbox', { name: 'Statement (Markdown)' })
      .fill('Read two integers `a` and `b` and print **a + b**.');
    await dialog.getByRole('tab', { name: 'Preview' }).click();
    await expect(dialog.locator('strong', { hasText: 'a + b' })).toBeVisible();
    await typeCode(dialog.getByRole('textbox', { name: 'Starter code' }), STARTER, { exact: true });
    // The default window opens now (and closes at 23:59 a week from today): students see it at once.
    await expect(dialog.getByLabel('Due')).toHaveValue(/T23:59$/);
    // One pass (docs/web.md, "Creating an assignment in one pass"): create, then its tests in the dialog.
    await dialog.getByRole('button', { name: 'Create and add tests' }).click();
    await expect(editor.getByText(`Assignment “${title}” created.`)).toBeVisible();
    await expect(dialog.getByRole('heading', { name: 'Step 2 of 3: Test cases' })).toBeFocused();
  });

  await test.step('the editor adds a visible and a hidden test, checks them with a reference solution and finishes', async () => {
    const wizard = editor.getByRole('dialog', { name: 'New assignment' });
    const tests = [
      { name: 'Small numbers', stdin: '3 4\n', expected: '7\n', visibility: null },
      { name: 'Large numbers', stdin: '1000000 2000000\n', expected: '3000000\n', visibility: 'Hidden' },
    ];
    for (const testCase of tests) {
      await wizard.getByRole('button', { name: 'New test case' }).click();
      const dialog = editor.getByRole('dialog', { name: 'New test case' });
      await dialog.getByRole('textbox', { name: 'Name' }).fill(testCase.name);
      await dialog.getByRole('textbox', { name: 'Input (stdin)' }).fill(testCase.stdin);
      await dialog.getByRole('textbox', { name: 'Expected output' }).fill(testCase.expected);
      await dialog.getByRole('textbox', { name: 'Points' }).fill('5');
      if (testCase.visibility) {
        await dialog.getByRole('combobox', { name: 'Visibility to students' }).click();
        await editor.getByRole('option', { name: testCase.visibility }).click();
      }
      await dialog.getByRole('button', { name: 'Create' }).click();
      await expect(dialog).toBeHidden();
      await expect(editor.getByText(`Test case “${testCase.name}” created.`)).toBeVisible();
    }
    const table = wizard.getByRole('table', { name: 'Test cases, in the order they run' });
    await expect(table.getByRole('row')).toHaveCount(3);
    await expect(table.getByRole('row').nth(2)).toContainText('Hidden');
    await expect(wizard.getByText('2 test cases, 10 points in all')).toBeVisible();

    await wizard.getByRole('button', { name: 'Next: reference run' }).click();
    await expect(wizard.getByRole('heading', { name: 'Step 3 of 3: Reference run' })).toBeFocused();
    const reference = wizard.getByRole('region', { name: 'Run against reference solution' });
    await typeCode(reference.getByRole('textbox', { name: 'Reference solution' }), RIGHT, { exact: true });
    await reference.getByRole('button', { name: 'Run against reference solution' }).click();
    await expect(reference.getByText('Completed')).toBeVisible({ timeout: 30_000 });
    await expect(reference.getByText('10 / 10').first()).toBeVisible();
    await expect(reference.getByText('2 of 2 tests passed')).toBeVisible();

    await wizard.getByRole('button', { name: 'Finish' }).click();
    await expect(editor.getByRole('heading', { level: 1, name: title })).toBeVisible();
    await expect(editor.getByRole('dialog')).toHaveCount(0);
  });

  const student = await signedIn(browser, ACCOUNTS.journeyStudent);
  const mine = student.getByRole('region', { name: 'My submissions' });

  await test.step('the student submits a wrong solution and watches it graded', async () => {
    await student.getByRole('link', { name: DEMO_COURSE }).click();
    await student
      .getByRole('navigation', { name: 'Course' })
      .getByRole('link', { name: 'Assignment' })
      .click();
    await student.getByRole('link', { name: title }).click();
    await expect(student.getByRole('heading', { level: 1, name: title })).toBeVisible();
    await expect(student.getByRole('navigation', { name: 'Breadcrumb' })).toContainText(title);
    // The visible test shows its input; the hidden one does not.
    await student.getByRole('button', { name: /Small numbers/ }).click();
    await expect(student.getByText('3 4', { exact: true })).toBeVisible();
    await student.getByRole('button', { name: /Large numbers/ }).click();
    await expect(
      student.getByText(/A hidden test: its input and expected output are not shown/),
    ).toBeVisible();

    const code = student.getByRole('textbox', { name: 'Code (main.py)' });
    await wakeCodeEditors(student);
    await expect(code).toHaveText(STARTER.trimEnd());
    await typeCode(code, WRONG, { exact: true });
    await student.getByRole('button', { name: 'Submit', exact: true }).click();
    await expect(student.getByText(/Submitted as #\d+/)).toBeVisible();
    await expect(mine.getByRole('listitem')).toHaveCount(1);
    await expect(mine.getByRole('listitem').first()).toContainText(/Pending|Scheduled|Executing|Completed/);
    await expect(mine.getByRole('listitem').first()).toContainText('Completed', { timeout: 30_000 });
    await expect(mine.getByRole('listitem').first()).toContainText('5 / 10');
    const facts = student.getByRole('region', { name: 'Dates and score' });
    await expect(facts).toContainText('5 / 10');
  });

  await test.step('then a right one, without reloading', async () => {
    await typeCode(student.getByRole('textbox', { name: 'Code (main.py)' }), RIGHT, { exact: true });
    await student.getByRole('button', { name: 'Submit', exact: true }).click();
    await expect(mine.getByRole('listitem')).toHaveCount(2);
    await expect(mine.getByRole('listitem').first()).toContainText('Completed', { timeout: 30_000 });
    await expect(mine.getByRole('listitem').first()).toContainText('10 / 10');
    await expect(student.getByRole('region', { name: 'Dates and score' })).toContainText('10 / 10');
  });

  await test.step('the student makes the right one final and sees the results', async () => {
    await mine.getByRole('listitem').first().getByRole('link').click();
    await expect(student.getByRole('heading', { level: 1 })).toContainText(title);
    const results = student.getByRole('region', { name: 'Test results' });
    await expect(results).toContainText('2 of 2 tests passed');
    await results.getByRole('button', { name: /Large numbers/ }).click();
    await expect(results.getByText('A hidden test: only its result is shown.')).toBeVisible();
    await student.getByRole('button', { name: 'Make this my final submission' }).click();
    const confirm = student.getByRole('dialog', { name: 'Final submission' });
    await expect(confirm).toContainText('Sure to submit this final submission?');
    await confirm.getByRole('button', { name: 'OK' }).click();
    await expect(student.getByText('Final submission', { exact: true }).first()).toBeVisible();
    await expect(student.getByRole('button', { name: 'Make this my final submission' })).toHaveCount(0);
  });

  await test.step('the leaderboard ranks the student, marked as them', async () => {
    await student.getByRole('link', { name: 'Back to the assignment' }).click();
    const board = student.getByRole('region', { name: 'Leaderboard' });
    const me = board.locator('tr[aria-current="true"]');
    await expect(me).toContainText('You');
    await expect(me).toContainText('10 / 10');
  });

  await test.step('the editor downloads the CSV with the final submission', async () => {
    await editor
      .getByRole('navigation', { name: 'Course' })
      .getByRole('link', { name: 'Submission' })
      .click();
    await expect(editor.getByRole('heading', { level: 1, name: 'Submissions' })).toBeVisible();
    await editor.getByRole('combobox', { name: 'Assignment' }).click();
    await editor.getByRole('option', { name: title }).click();
    await expect(editor.getByText('2 submissions')).toBeVisible();
    const download = editor.waitForEvent('download');
    await editor.getByRole('button', { name: 'Download CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/\.csv$/);
    const csv = (await readFile(await file.path(), 'utf8')).replace(/^\uFEFF/, '');
    const [header, ...rows] = csv.trim().split(/\r?\n/);
    expect(header).toContain('email');
    const row = rows.find((line) => line.includes(ACCOUNTS.journeyStudent));
    expect(row, csv).toBeDefined();
    expect(row).toContain('final');
    expect(row).toMatch(/,10,10,/);
  });
});
