import { expect, test, type Locator, type Page } from '@playwright/test';
import { ACCOUNTS, DEMO_COURSE, demoCourseId, localInput, signedIn, unique } from './support.ts';
import { createTopic, forumClient, forumPath } from './forum-data.ts';

/** From the course list through the side rail (whose Forum entry carries the unread dot). */
async function openForum(page: Page): Promise<void> {
  await page.getByRole('link', { name: DEMO_COURSE }).click();
  const link = page.getByRole('navigation', { name: 'Course' }).getByRole('link', { name: /^Forum/ });
  await link.click();
  await expect(page.getByRole('heading', { level: 1, name: 'Forum' })).toBeVisible();
}

const posts = (page: Page) => page.getByRole('list', { name: 'Posts' });
const row = (page: Page, title: string) => posts(page).getByRole('listitem').filter({ hasText: title });

/** The side rail's Forum link says how many topics are unread: "Forum (3 unread)". */
async function railUnread(page: Page): Promise<number> {
  const link = page.getByRole('navigation', { name: 'Course' }).getByRole('link', { name: /^Forum/ });
  const name = (await link.getAttribute('aria-label')) ?? 'Forum';
  return Number(/\((\d+) unread\)/.exec(name)?.[1] ?? 0);
}

/** The Unread tab's name says how many: "Unread (1 topic)", "Unread (3 topics)". */
const unreadTab = (count: number) => `Unread (${count} topic${count === 1 ? '' : 's'})`;

/** Writes a topic in the page's editor ("New post"); `fill` sets the managers' options. */
async function writePost(
  page: Page,
  post: { title: string; content: string },
  fill?: (dialog: Locator) => Promise<void>,
): Promise<void> {
  await page.getByRole('button', { name: 'New post' }).click();
  const dialog = page.getByRole('dialog', { name: 'New post' });
  await dialog.getByRole('textbox', { name: 'Title' }).fill(post.title);
  await dialog.getByRole('textbox', { name: 'Content' }).fill(post.content);
  await fill?.(dialog);
  await dialog.getByRole('button', { name: 'Post', exact: true }).click();
  await expect(page.getByText('Posted.').last()).toBeVisible();
  await expect(dialog).toBeHidden();
}

test('an editor schedules an announcement and pins another; a student sees the pinned one first and not the scheduled one, comments, upvotes, attaches a file, searches in Japanese and reads the unread count down', async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const courseId = await demoCourseId(request);
  const scheduled = unique('Exam room change');
  const pinned = unique('Office hours');
  const newer = unique('Reading list');
  const editor = await signedIn(browser, ACCOUNTS.editor);
  await openForum(editor);

  await test.step('the editor schedules an announcement 30 minutes ahead', async () => {
    await expect(editor.getByRole('tab', { name: 'Announcements' })).toHaveAttribute('aria-selected', 'true');
    await writePost(
      editor,
      { title: scheduled, content: 'The exam moves to **Hall B**.' },
      async (dialog) => {
        await expect(dialog.getByRole('checkbox', { name: 'Post as announcement' })).toBeChecked();
        await dialog.getByRole('checkbox', { name: 'Schedule' }).check();
        await dialog.getByLabel('Publish at').fill(localInput(new Date(Date.now() + 30 * 60_000)));
      },
    );
    await editor.getByRole('tab', { name: 'Scheduled' }).click();
    await expect(row(editor, scheduled)).toContainText('Goes out');
  });

  await test.step('the editor posts another announcement and pins it on its page', async () => {
    await editor.getByRole('tab', { name: 'Announcements' }).click();
    await writePost(editor, { title: pinned, content: 'Tuesdays 14:00–15:00, room 301.' });
    await row(editor, pinned).getByRole('link', { name: pinned }).click();
    await expect(editor.getByRole('heading', { level: 1, name: pinned })).toBeVisible();
    await editor.getByRole('button', { name: 'Pin', exact: true }).click();
    await expect(editor.getByText('Pinned.')).toBeVisible();
    await expect(editor.getByRole('button', { name: 'Unpin' })).toBeVisible();
    // A newer announcement, not pinned: the pinned one must still come first.
    await createTopic(request, await forumClient(request, ACCOUNTS.editor), {
      course: courseId,
      title: newer,
      content: 'Chapter 3 before Friday.',
      is_announcement: true,
    });
  });

  const student = await signedIn(browser, ACCOUNTS.journeyStudent);
  let unreadBefore = 0;

  await test.step('the student sees the pinned announcement above a newer one, and not the scheduled one', async () => {
    await openForum(student);
    await expect(student.getByRole('tab', { name: 'Announcements' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await expect(row(student, newer)).toBeVisible();
    const titles = await posts(student).getByRole('listitem').allTextContents();
    const at = (title: string) => titles.findIndex((text) => text.includes(title));
    expect(at(pinned), 'the pinned announcement is listed').toBeGreaterThanOrEqual(0);
    expect(at(pinned), 'pinned first').toBeLessThan(at(newer));
    await expect(row(student, pinned).getByRole('img', { name: 'Pinned' })).toBeVisible();
    await expect(row(student, scheduled)).toHaveCount(0);
    await expect(student.getByRole('tab', { name: 'Scheduled' })).toHaveCount(0);

    unreadBefore = await railUnread(student);
    expect(unreadBefore, 'both new announcements are unread').toBeGreaterThanOrEqual(2);
    await expect(student.getByRole('tab', { name: unreadTab(unreadBefore) })).toBeVisible();
  });

  await test.step('the student reads the pinned one: the unread count drops by one', async () => {
    await row(student, pinned).getByRole('link', { name: pinned }).click();
    await expect(student.getByRole('heading', { level: 1, name: pinned })).toBeVisible();
    await expect(student.getByRole('button', { name: 'Mark as unread' })).toBeVisible();
    await expect.poll(() => railUnread(student)).toBe(unreadBefore - 1);
  });

  await test.step('the student comments and upvotes; the upvoters list shows them', async () => {
    const comment = `Will it be online too? ${unique('q')}`;
    await student.getByRole('textbox', { name: 'Your comment' }).fill(comment);
    await student.getByRole('button', { name: 'Comment', exact: true }).click();
    await expect(student.getByText('Posted.').last()).toBeVisible();
    await expect(student.getByRole('list', { name: 'Comments' }).getByText(comment)).toBeVisible();

    const upvote = student.getByRole('button', { name: 'Upvote', exact: true }).first();
    await expect(upvote).toHaveAttribute('aria-pressed', 'false');
    await expect(student.getByRole('button', { name: '0 upvotes: show who' }).first()).toBeVisible();
    await upvote.click();
    await expect(upvote).toHaveAttribute('aria-pressed', 'true');
    await student.getByRole('button', { name: '1 upvote: show who' }).first().click();
    await expect(student.getByRole('list', { name: 'Upvoted by' })).toContainText(/太郎|山田/);
  });

  await test.step('back on the forum, the Unread tab counts one less as well', async () => {
    await student.getByRole('link', { name: 'Back to the forum' }).click();
    await expect(student.getByRole('tab', { name: unreadTab(unreadBefore - 1) })).toBeVisible();
    await student.getByRole('tab', { name: /^Unread/ }).click();
    await expect(row(student, newer)).toBeVisible();
    await expect(row(student, pinned)).toHaveCount(0);
  });

  const question = unique('Recursion question');
  // Japanese has no spaces: the search must find a word from the middle of the run.
  const japanese = '再帰関数でスタックオーバーフローが起きる理由を教えてください';
  await test.step('the student writes a discussion with a file attached', async () => {
    await student.getByRole('tab', { name: 'Discussions' }).click();
    await student.getByRole('button', { name: 'New post' }).click();
    const dialog = student.getByRole('dialog', { name: 'New post' });
    await expect(dialog.getByRole('checkbox', { name: 'Post as announcement' })).toHaveCount(0);
    await expect(dialog.getByText('Up to 5 files, 5 MB each')).toBeVisible();
    await dialog.getByRole('textbox', { name: 'Title' }).fill(question);
    await dialog
      .getByRole('textbox', { name: 'Content' })
      .fill(`${japanese}\n\n\`\`\`python\ndef f(n):\n    return f(n + 1)\n\`\`\``);
    await dialog.getByTestId('forum-file-input').setInputFiles({
      name: 'traceback.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('RecursionError: maximum recursion depth exceeded\n'),
    });
    await expect(dialog.getByRole('button', { name: 'Remove traceback.txt' })).toBeVisible();
    await dialog.getByRole('button', { name: 'Post', exact: true }).click();
    await expect(student.getByText('Posted.').last()).toBeVisible();
    await expect(row(student, question)).toBeVisible();
  });

  await test.step('the student finds it by a Japanese word from the middle of a sentence', async () => {
    await student.getByRole('searchbox', { name: 'Search posts' }).fill('オーバーフロー');
    await expect(row(student, question)).toBeVisible();
    await student.getByRole('searchbox', { name: 'Search posts' }).fill('オーバーフロー 存在しない語');
    await expect(student.getByText('No matching posts')).toBeVisible();
    await student.getByRole('searchbox', { name: 'Search posts' }).fill('スタック');
    await row(student, question).getByRole('link', { name: question }).click();
    await expect(student.getByRole('heading', { level: 1, name: question })).toBeVisible();
    await expect(student.getByText(japanese)).toBeVisible();
    await expect(
      student
        .getByRole('region', { name: 'Attachments' })
        .getByRole('button', { name: 'Download traceback.txt' }),
    ).toBeVisible();
  });

  await test.step('the scheduled announcement is not found by the student', async () => {
    const { token } = await forumClient(request, ACCOUNTS.editor);
    const waiting = await request.get('/api/Forum/Record/announcements/', {
      params: { course: courseId, scheduled_ones: 'true' },
      headers: { authorization: `Bearer ${token}` },
    });
    const body = (await waiting.json()) as { results: { id: number; title: string }[] };
    const record = body.results.find((candidate) => candidate.title === scheduled);
    expect(record, 'the scheduled announcement waits').toBeDefined();
    await student.goto(`${forumPath(courseId)}/${record!.id}`);
    await expect(student.getByRole('heading', { level: 1, name: 'Post not found' })).toBeVisible();
  });
});
