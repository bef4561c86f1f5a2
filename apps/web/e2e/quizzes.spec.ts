import { readFile } from 'node:fs/promises';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { ACCOUNTS, apiToken, DEMO_COURSE, signedIn, unique } from './support.ts';

async function openQuizzes(page: Page): Promise<void> {
  await page.getByRole('link', { name: DEMO_COURSE }).click();
  await page.getByRole('navigation', { name: 'Course' }).getByRole('link', { name: 'Quizzes' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Quizzes' })).toBeVisible();
}

/** Picks an option of a Mantine Select by its label. */
async function choose(scope: Locator, label: string, option: string): Promise<void> {
  await scope.getByRole('combobox', { name: label, exact: true }).click();
  await scope.page().getByRole('option', { name: option, exact: true }).click();
}

async function fillOptions(question: Locator, number: number, texts: string[], kind = 'option') {
  for (const [index, text] of texts.entries()) {
    await question
      .getByRole('textbox', { name: `Question ${number}, ${kind} ${index + 1}`, exact: true })
      .fill(text);
  }
}

const question = (scope: Page | Locator, number: number) =>
  scope.getByRole('region', { name: `Question ${number}`, exact: true });

const ORDER = ['Write the code', 'Save the file', 'Run it'];

test('an editor builds a quiz of every kind; a student cannot submit it incomplete, submits once, cannot submit again and sees the answers once the editor releases them', async ({
  browser,
  request,
}) => {
  test.setTimeout(240_000);
  const title = unique('Loops check');
  const editor = await signedIn(browser, ACCOUNTS.editor);
  let quizUrl = '';

  await test.step('the editor writes a question of each kind', async () => {
    await openQuizzes(editor);
    await editor.getByRole('button', { name: 'New quiz' }).click();
    const dialog = editor.getByRole('dialog', { name: 'New quiz' });
    await dialog.getByRole('textbox', { name: 'Title' }).fill(title);
    await dialog.getByRole('textbox', { name: 'Description (Markdown)' }).fill('Six questions, **one** try.');
    // The default window opens now and closes at 23:59 a week from today: students take it at once.
    await expect(dialog.getByLabel('Closes')).toHaveValue(/T23:59$/);
    await choose(dialog, 'Scores visible', 'Right after submitting');
    await choose(dialog, 'Correct answers and explanations visible', 'Not yet (release later)');

    // 1. Single choice (the new quiz starts with one, four empty options).
    const q1 = question(dialog, 1);
    await q1
      .getByRole('textbox', { name: 'Question 1 (Markdown)', exact: true })
      .fill('What does `7 // 2` print?');
    await fillOptions(q1, 1, ['3', '3.5', '4']);
    await q1.getByRole('button', { name: 'Delete Question 1, option 4' }).click();
    await q1.getByRole('radio', { name: 'Question 1, option 1 is correct' }).check();
    await q1
      .getByRole('textbox', { name: 'Explanation of question 1 (Markdown)' })
      .fill('`//` is floor division.');

    const add = async (kind: string) => {
      await dialog.getByRole('button', { name: 'Add question' }).click();
      await editor.getByRole('menuitem', { name: kind, exact: true }).click();
    };

    await add('Multiple choice');
    const q2 = question(dialog, 2);
    await q2.getByRole('textbox', { name: 'Question 2 (Markdown)', exact: true }).fill('Which are mutable?');
    await fillOptions(q2, 2, ['list', 'tuple', 'dict', 'str']);
    await q2.getByRole('checkbox', { name: 'Question 2, option 1 is correct' }).check();
    await q2.getByRole('checkbox', { name: 'Question 2, option 3 is correct' }).check();

    await add('True or false');
    const q3 = question(dialog, 3);
    await q3.getByRole('textbox', { name: 'Question 3 (Markdown)', exact: true }).fill('`"1" + 1` is 2.');
    await q3.getByRole('radio', { name: 'False' }).check();

    await add('Short text');
    const q4 = question(dialog, 4);
    await q4
      .getByRole('textbox', { name: 'Question 4 (Markdown)', exact: true })
      .fill('Which keyword starts a loop over a list?');
    const accepted = q4.getByRole('combobox', { name: 'Accepted answers to question 4' });
    await accepted.fill('for');
    await accepted.press('Enter');

    await add('Number');
    const q5 = question(dialog, 5);
    await q5.getByRole('textbox', { name: 'Question 5 (Markdown)', exact: true }).fill('What is `2 ** 3`?');
    await q5.getByRole('textbox', { name: 'Correct number for question 5' }).fill('8');

    await add('Ordering');
    const q6 = question(dialog, 6);
    await q6
      .getByRole('textbox', { name: 'Question 6 (Markdown)', exact: true })
      .fill('Order the steps to run a script.');
    await fillOptions(q6, 6, ORDER, 'item');

    await dialog.getByRole('tab', { name: 'Preview as a student' }).click();
    await expect(dialog.getByRole('heading', { name: title })).toBeVisible();
    await expect(question(dialog, 6).getByRole('button', { name: 'Move “Run it” up' })).toBeVisible();
    await expect(dialog.getByText('Answered 0 of 6')).toBeVisible();
    await dialog.getByRole('tab', { name: 'Edit' }).click();

    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect(editor.getByText(`Quiz “${title}” created.`)).toBeVisible();
    await expect(editor).toHaveURL(/\/quizzes\/\d+\/quiz-courses\/\d+$/);
    await expect(editor.getByRole('heading', { level: 1, name: title })).toBeVisible();
    await expect(editor.getByText('6 questions, 6 points').first()).toBeVisible();
    quizUrl = new URL(editor.url()).pathname;
  });

  const student = await signedIn(browser, ACCOUNTS.journeyStudent);

  await test.step('the student answers five of six; submitting says what is missing and sends nothing', async () => {
    await openQuizzes(student);
    await student.getByRole('table', { name: /^Open/ }).getByRole('link', { name: title }).click();
    await expect(student.getByRole('heading', { level: 1, name: title })).toBeVisible();
    await question(student, 1).getByRole('radio', { name: '3', exact: true }).check();
    await question(student, 2).getByRole('checkbox', { name: 'list' }).check();
    await question(student, 2).getByRole('checkbox', { name: 'dict' }).check();
    await question(student, 3).getByRole('radio', { name: 'False' }).check();
    await question(student, 4).getByRole('textbox', { name: 'Answer to question 4' }).fill('for');
    await question(student, 5).getByRole('textbox', { name: 'Answer to question 5 (a number)' }).fill('8');
    await expect(student.getByText('Answered 5 of 6')).toBeVisible();

    // A reload keeps the answers (sessionStorage).
    await student.reload();
    await expect(question(student, 1).getByRole('radio', { name: '3', exact: true })).toBeChecked();
    await expect(question(student, 4).getByRole('textbox')).toHaveValue('for');
    await expect(student.getByText('Answered 5 of 6')).toBeVisible();

    let submits = 0;
    student.on('request', (r) => {
      if (r.url().includes('/api/Submission/SubmitQuiz/')) submits += 1;
    });
    await student.getByRole('button', { name: 'Submit answers' }).click();
    await expect(
      student.getByRole('alert').filter({ hasText: 'Please answer all questions before submitting.' }),
    ).toBeVisible();
    await expect(question(student, 6)).toHaveAttribute('data-unanswered', 'true');
    await expect(question(student, 6)).toContainText('Not answered yet.');
    await expect(student.getByRole('dialog')).toHaveCount(0);
    expect(submits).toBe(0);
  });

  await test.step('the student orders the items with the keyboard and submits once', async () => {
    const q6 = question(student, 6);
    // The items come shuffled: move each into place with "Move … up", pressed from the keyboard.
    for (const [target, text] of ORDER.entries()) {
      for (;;) {
        const items = await q6.getByRole('listitem').allTextContents();
        const at = items.findIndex((item) => item.includes(text));
        if (at <= target) break;
        const up = q6.getByRole('button', { name: `Move “${text}” up` });
        await up.focus();
        await student.keyboard.press('Enter');
        await expect(q6.getByText(`“${text}” is now at position ${at} of 3.`)).toBeAttached();
      }
    }
    // Already in order as served: keep it.
    const keep = q6.getByRole('button', { name: 'Keep this order' });
    if (await keep.isVisible()) await keep.click();
    await expect(student.getByText('Answered 6 of 6')).toBeVisible();

    await student.getByRole('button', { name: 'Submit answers' }).click();
    const confirm = student.getByRole('dialog', { name: 'Submit your answers' });
    await expect(confirm).toContainText('Only allow submitting once. Sure to submit your answers?');
    await confirm.getByRole('button', { name: 'OK' }).click();
    await expect(student.getByText('Quiz Submitted Successfully')).toBeVisible();
    await expect(student).toHaveURL(/\/quiz-submissions\/\d+$/);
    await expect(student.getByRole('region', { name: 'Result' })).toContainText('6 / 6');
    await expect(question(student, 1)).toContainText('Correct');
    await expect(
      student.getByText('Correct answers and explanations: Not yet: your instructor will release them.'),
    ).toBeVisible();
    await expect(question(student, 1)).not.toContainText('floor division');
  });

  await test.step('the student cannot submit again: the page shows the submission, the server says 409', async () => {
    await student.goto(quizUrl);
    await expect(student.getByRole('region', { name: 'You submitted this quiz' })).toContainText('6 / 6');
    await expect(student.getByRole('button', { name: 'Submit answers' })).toHaveCount(0);

    const { token } = await apiToken(request, ACCOUNTS.journeyStudent);
    const quizCourse = Number(quizUrl.split('/').pop());
    const again = await request.post('/api/Submission/SubmitQuiz/', {
      headers: { authorization: `Bearer ${token}` },
      data: { quiz_course: quizCourse, answers: [] },
    });
    expect(again.status()).toBe(409);
    expect((await again.json()).code).toBe('already_submitted');
  });

  await test.step('the editor sees the result, downloads the CSV and releases the answers', async () => {
    await editor.goto(`${quizUrl}?tab=results`);
    const students = editor.getByRole('table', { name: 'Students' });
    const row = students.getByRole('row').filter({ hasText: ACCOUNTS.journeyStudent });
    await expect(row).toContainText('Submitted');
    await expect(row).toContainText('6 / 6');
    await expect(editor.getByRole('table', { name: 'Options chosen in question 1' })).toContainText(
      '1 (100%)',
    );

    const download = editor.waitForEvent('download');
    await editor.getByRole('button', { name: 'Download CSV' }).click();
    const csv = (await readFile(await (await download).path(), 'utf8')).replace(/^\uFEFF/, '');
    expect(csv).toContain(ACCOUNTS.journeyStudent);

    await editor.getByRole('button', { name: 'Show correct answers now' }).click();
    await expect(editor.getByText('Saved what students see.')).toBeVisible();
    await expect(editor.getByRole('button', { name: 'Hide correct answers' })).toBeVisible();
  });

  await test.step('the student now sees the correct answers and explanations', async () => {
    await student.getByRole('link', { name: 'View my answers' }).click();
    // Every option, with the student's choice and the correct one marked in words.
    const options = (number: number) =>
      question(student, number)
        .getByRole('list', { name: `Options of question ${number}` })
        .getByRole('listitem');
    const both = (option: string) => new RegExp(`^${option}\\s*Your answer\\s*Correct answer$`);
    await expect(options(1)).toHaveText([both('3'), /^3\.5$/, /^4$/]);
    await expect(options(2)).toHaveText([both('list'), /^tuple$/, both('dict'), /^str$/]);
    await expect(options(3)).toHaveText([/^True$/, both('False')]);
    await expect(question(student, 1)).toContainText('is floor division.');
    await expect(question(student, 6)).toContainText(
      'Correct answer: 1. Write the code → 2. Save the file → 3. Run it',
    );
    await expect(student.getByText('Not everything is visible yet')).toHaveCount(0);
  });
});
