import { expect, test } from '@playwright/test';
import { ACCOUNTS, DEMO_COURSE, apiToken, demoCourseId, signedIn, unique } from './support.ts';
import { typeCode } from './api-client.ts';

const TESTS = `from main import mean


def test_one_number():
    assert mean([4]) == 4


def test_several_numbers():
    assert mean([1, 2, 3, 4]) == 2.5


def test_empty_list_is_zero():
    assert mean([]) == 0
`;
const RIGHT = 'def mean(numbers):\n    return sum(numbers) / len(numbers) if numbers else 0\n';
/** Integer division: right for [4], wrong for [1, 2, 3, 4] (2, not 2.5), a crash for []. */
const WRONG = 'def mean(numbers):\n    return sum(numbers) // len(numbers)\n';

test('an editor adds a pytest test file and checks it with a reference solution; a student runs the visible tests, submits and reads the failing test’s diff', async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const title = unique('Mean of a list');
  // The assignment itself is made through the API: assignments.spec.ts walks its dialog.
  const courseId = await demoCourseId(request);
  const editorToken = (await apiToken(request, ACCOUNTS.editor)).token;
  const now = Date.now();
  const created = await request.post('/api/Assignment/', {
    headers: { authorization: `Bearer ${editorToken}` },
    data: {
      title,
      statement: 'Write `mean(numbers)` in `main.py`; the mean of an empty list is 0.',
      starter_code: 'def mean(numbers):\n    pass\n',
      courses: [
        {
          course_id: courseId,
          opens_at: new Date(now - 3_600_000).toISOString(),
          due_at: new Date(now + 7 * 86_400_000).toISOString(),
        },
      ],
    },
  });
  expect(created.status()).toBe(201);
  const assignmentId = ((await created.json()) as { id: number }).id;

  const editor = await signedIn(browser, ACCOUNTS.editor);
  await test.step('the editor adds a pytest test file', async () => {
    await editor.goto(`/course/${courseId}/testcase/${assignmentId}`);
    await expect(editor.getByRole('heading', { level: 1, name: `Test cases: ${title}` })).toBeVisible();
    await editor.getByRole('button', { name: 'New test case' }).click();
    const dialog = editor.getByRole('dialog', { name: 'New test case' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('mean() unit tests');
    await dialog.getByText('pytest test file', { exact: true }).click();
    await expect(dialog.getByRole('textbox', { name: 'Input (stdin)' })).toHaveCount(0);
    await expect(dialog.getByRole('textbox', { name: 'Test file name' })).toHaveValue('test_main.py');
    await typeCode(dialog.getByRole('textbox', { name: 'Test module' }), TESTS);
    // A new pytest test's points follow its tests: left as they are, they are counted when it is saved.
    await expect(dialog.getByRole('switch', { name: 'Follow the tests' })).toBeChecked();
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect(editor.getByText('Test case “mean() unit tests” created.')).toBeVisible();
    // Saved, the dialog stays on the test with the module's check: collected against the starter code.
    const saved = editor.getByRole('dialog', { name: 'Edit mean() unit tests' });
    const check = saved.getByRole('region', { name: 'Check of the test file' });
    await expect(check.getByText('Collected 3 tests (3 points)')).toBeVisible();
    await expect(check.getByRole('list', { name: 'Collected tests' }).getByRole('listitem')).toHaveCount(3);
    await expect(check.getByText('Checked against the starter code.')).toBeVisible();
    await expect(saved.getByRole('textbox', { name: 'Points' })).toHaveValue('3');
    await saved.getByRole('button', { name: 'Done' }).click();
    await expect(saved).toBeHidden();
    const table = editor.getByRole('table', { name: 'Test cases, in the order they run' });
    await expect(table.getByRole('row').nth(1)).toContainText('test_main.py');
    await expect(table.getByRole('row').nth(1)).toContainText('3 points (follow tests)');
  });

  await test.step('the reference solution passes each collected test', async () => {
    const reference = editor.getByRole('region', { name: 'Run against reference solution' });
    await typeCode(reference.getByRole('textbox', { name: 'Reference solution' }), RIGHT);
    await reference.getByRole('button', { name: 'Run against reference solution' }).click();
    await expect(reference.getByText('Completed')).toBeVisible({ timeout: 30_000 });
    await expect(reference.getByText('3 / 3').first()).toBeVisible();
    await reference.getByRole('button', { name: /mean\(\) unit tests 3 of 3 tests passed/ }).click();
    const items = reference.getByRole('list', { name: 'Tests in mean() unit tests' });
    await expect(items.getByRole('listitem')).toHaveCount(3);
    await expect(items).toContainText('test_empty_list_is_zero');
  });

  const student = await signedIn(browser, ACCOUNTS.journeyStudent);
  await test.step('the student runs the visible tests without submitting', async () => {
    await student.getByRole('link', { name: DEMO_COURSE }).click();
    await student
      .getByRole('navigation', { name: 'Course' })
      .getByRole('link', { name: 'Assignment' })
      .click();
    await student.getByRole('link', { name: title }).click();
    await expect(student.getByRole('heading', { level: 1, name: title })).toBeVisible();
    await typeCode(student.getByRole('textbox', { name: 'Code (main.py)' }), WRONG);
    await student.getByRole('button', { name: 'Run visible tests' }).click();
    const result = student.getByRole('region', { name: 'Result of the visible tests' });
    await expect(result).toBeVisible({ timeout: 30_000 });
    await expect(result.getByText('1 of 3 visible tests passed · 1/3 points')).toBeVisible();
    await expect(student.getByRole('status')).toHaveText('1 of 3 visible tests passed · 1/3 points');
    await expect(result.getByText('Some tests failed')).toBeVisible();
    // The first failing test is open, with pytest's assertion and its values.
    await expect(result.getByText(/assert 2 == 2\.5/)).toBeVisible();
    await expect(student.getByRole('region', { name: 'My submissions' })).toContainText('No submissions yet');
  });

  await test.step('then submits, and reads the failing test’s diff on the submission', async () => {
    await student.getByRole('button', { name: 'Submit', exact: true }).click();
    await expect(student.getByText(/Submitted as #\d+/)).toBeVisible();
    const mine = student.getByRole('region', { name: 'My submissions' });
    await expect(mine.getByRole('listitem').first()).toContainText('Completed', { timeout: 30_000 });
    await expect(mine.getByRole('listitem').first()).toContainText('1 / 3');
    await mine.getByRole('listitem').first().getByRole('link').click();
    const results = student.getByRole('region', { name: 'Test results' });
    // The first failing test case opens by itself, as on the assignment page.
    await expect(results.getByRole('button', { name: /mean\(\) unit tests/ })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
    const items = results.getByRole('list', { name: 'Tests in mean() unit tests' });
    await expect(items.locator('li[data-outcome="passed"]')).toHaveCount(1);
    await expect(items.locator('li[data-outcome="failed"]')).toHaveCount(1);
    await expect(items.locator('li[data-outcome="error"]')).toContainText('test_empty_list_is_zero');
    await expect(items.getByText(/assert 2 == 2\.5/)).toBeVisible();
    await items.getByRole('button', { name: 'Details of test_empty_list_is_zero' }).click();
    await expect(items.getByText(/ZeroDivisionError/)).toBeVisible();
  });
});
