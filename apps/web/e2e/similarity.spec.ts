import { expect, test } from '@playwright/test';
import { apiCall, newStudent } from './api-client.ts';
import { ACCOUNTS, apiToken, expectNoAxeViolations, signedIn, unique } from './support.ts';

/*
 * The similarity report (issue 39, docs/similarity.md) as an editor uses it: two students hand in the
 * same program with other names and another order, a third writes their own; the editor starts a
 * report, finds the copied pair on top and compares it side by side.
 */

const ORIGINAL = [
  'def total(values):',
  '    result = 0',
  '    for value in values:',
  '        result += value',
  '    return result',
  '',
  'def mean(values):',
  '    return total(values) / len(values)',
  '',
  'numbers = [int(x) for x in input().split()]',
  'print(total(numbers), mean(numbers))',
  '',
].join('\n');
const COPY = [
  'def average(xs):',
  '    return summe(xs) / len(xs)',
  '',
  'def summe(xs):',
  '    acc = 0',
  '    for x in xs:',
  '        acc += x',
  '    return acc',
  '',
  'data = [int(t) for t in input().split()]',
  'print(summe(data), average(data))',
  '',
].join('\n');
const OWN = 'nums = list(map(int, input().split()))\nprint(sum(nums), sum(nums) / len(nums))\n';

test('an editor finds a copied pair and compares it', async ({ browser, request }) => {
  test.setTimeout(120_000);
  const staff = await apiToken(request, ACCOUNTS.staff);
  const editor = await apiToken(request, ACCOUNTS.editor);
  const course = await apiCall<{ id: number }>(request, staff, 'POST', '/Course/', {
    title: unique('Similar'),
  });
  await apiCall(request, staff, 'POST', `/EditorList/${course.id}/`, { user_ids: [editor.id] });
  const now = Date.now();
  const assignment = await apiCall<{ id: number }>(request, editor, 'POST', '/Assignment/', {
    title: unique('Sum and mean'),
    statement: 'Print the sum and the mean.',
    courses: [
      {
        course_id: course.id,
        opens_at: new Date(now - 86_400_000).toISOString(),
        due_at: new Date(now + 86_400_000).toISOString(),
      },
    ],
  });
  const authors = [
    ['Aoi', 'Original', ORIGINAL],
    ['Ren', 'Copy', COPY],
    ['Sora', 'Own', OWN],
  ] as const;
  for (const [first, last, code] of authors) {
    const student = await newStudent(request, staff, `similarity-journey-${last.toLowerCase()}`, {
      first_name: first,
      last_name: last,
    });
    await apiCall(request, staff, 'POST', `/StudentList/${course.id}/`, { user_ids: [student.id] });
    await apiCall(request, student, 'POST', '/Submission/Submit/', {
      assignment_id: assignment.id,
      course_id: course.id,
      code,
    });
  }

  const page = await signedIn(browser, ACCOUNTS.editor);
  await page.goto(`/course/${course.id}/assignment/${assignment.id}/similarity`);
  await page.getByRole('button', { name: 'Start a report' }).click();
  const pairs = page.getByRole('table', { name: 'Similar pairs' });
  await expect(pairs).toBeVisible({ timeout: 60_000 });

  await test.step('the copy is the most similar pair', async () => {
    const first = pairs.getByRole('row').nth(1);
    await expect(first).toContainText('Original');
    await expect(first).toContainText('Copy');
    await expectNoAxeViolations(page, 'the similarity report');
  });

  await test.step('the pair side by side, fragments marked on both sides', async () => {
    await pairs
      .getByRole('button', { name: /^Compare .*(Original|Copy).* and .*(Original|Copy)/ })
      .first()
      .click();
    const sides = page.getByLabel(/^Code of similarity-journey-(original|copy)/);
    await expect(sides).toHaveCount(2);
    await expect(page.getByText('for value in values:')).toBeVisible();
    await expect(page.getByText('for x in xs:')).toBeVisible();
    await expectNoAxeViolations(page, 'a pair side by side');
  });
});
