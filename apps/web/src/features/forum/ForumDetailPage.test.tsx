import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { stubFetch, type RecordedRequest } from '../../test/fetch.ts';
import { renderApp } from '../../test/render.tsx';
import { signInAsStudent } from '../../test/session.ts';
import { file, forumServer, record, type FakeForum } from './forum-fixtures.ts';

beforeEach(() => {
  signInAsStudent();
});

const SLOW = { timeout: 10_000 };

function topic(): FakeForum {
  return {
    role: 'student',
    unread: 1,
    records: [
      record({
        id: 7,
        title: 'Week 1',
        content: 'Read **chapter 1**.\n\n```python\nprint("hi")\n```\n\n<img src=x onerror=alert(1)>',
        is_read: false,
        upvotes: 1,
        comment_count: 1,
        attachments: [file({ id: 30, filename: 'slides.pdf', record_id: 7 })],
      }),
    ],
    comments: [
      record({
        id: 8,
        parent_record: 7,
        title: '',
        content: 'Thanks!',
        is_announcement: false,
        author: {
          id: 4,
          display_name: 'Bob Student',
          first_name: 'Bob',
          last_name: 'Student',
          role: 'student',
        },
        can_edit: true,
      }),
    ],
  };
}

const statusCalls = (requests: RecordedRequest[]) =>
  requests.filter((r) => r.url === '/api/Forum/ForumUserStatus/7/' && r.method === 'PUT');

describe('a forum post', { timeout: 30_000 }, () => {
  it('is marked read on opening, and the side rail’s unread badge goes', async () => {
    const { requests } = stubFetch(forumServer(topic()));
    renderApp('/course/1/forum/7');
    expect(await screen.findByRole('heading', { level: 1, name: 'Week 1' }, SLOW)).toBeTruthy();
    await waitFor(() => expect(statusCalls(requests)).toHaveLength(1));
    expect(statusCalls(requests)[0]!.body).toEqual({ is_read: true });
    const rail = screen.getByRole('navigation', { name: 'Course' });
    await waitFor(() => expect(within(rail).getByRole('link', { name: 'Forum' })).toBeTruthy());

    // The Markdown is rendered, highlighted and sanitised.
    const post = screen.getByRole('article', { name: 'Week 1' });
    expect(within(post).getByText('chapter 1').tagName).toBe('STRONG');
    // (Python is highlighted once its parser has loaded.)
    await waitFor(() =>
      expect(post.querySelector('pre code .tok-keyword, pre code .tok-variableName')).toBeTruthy(),
    );
    expect(post.querySelector('[onerror]')).toBeNull();
    expect(within(post).getByRole('button', { name: 'Download slides.pdf' })).toBeTruthy();

    // "Mark as unread" sticks: the page does not read it again.
    fireEvent.click(await within(post).findByRole('button', { name: 'Mark as unread' }));
    expect(await within(post).findByRole('button', { name: 'Mark as read' })).toBeTruthy();
    expect(statusCalls(requests).map((r) => r.body)).toEqual([{ is_read: true }, { is_read: false }]);
    expect(await within(rail).findByRole('link', { name: 'Forum (1 unread)' })).toBeTruthy();
  });

  it('toggles the upvote and lists who upvoted', async () => {
    const { requests } = stubFetch(forumServer(topic()));
    renderApp('/course/1/forum/7');
    const post = await screen.findByRole('article', { name: 'Week 1' }, SLOW);
    const upvote = within(post).getByRole('button', { name: 'Upvote' });
    expect(upvote.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(upvote);
    await waitFor(() => expect(upvote.getAttribute('aria-pressed')).toBe('true'));
    expect(requests.some((r) => r.url === '/api/Forum/Record/7/upvote/' && r.method === 'PUT')).toBe(true);
    fireEvent.click(within(post).getByRole('button', { name: '2 upvotes: show who' }));
    expect(await within(post).findByText('Bob Student')).toBeTruthy();

    fireEvent.click(upvote);
    await waitFor(() => expect(upvote.getAttribute('aria-pressed')).toBe('false'));
    expect(requests.some((r) => r.url === '/api/Forum/Record/7/upvote/' && r.method === 'DELETE')).toBe(true);
  });

  it('shows the comments, with edit and delete for their author only', async () => {
    stubFetch(forumServer(topic()));
    renderApp('/course/1/forum/7');
    const comments = await screen.findByRole('list', { name: 'Comments' }, SLOW);
    expect(within(comments).getByText('Thanks!')).toBeTruthy();
    expect(within(comments).getByRole('button', { name: 'Edit comment' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Edit' })).toBeNull();
    expect(screen.getByRole('region', { name: 'Write a comment' })).toBeTruthy();
  });

  it('shows files named in any script as given, on the post and in the editor’s tray', async () => {
    const forum = topic();
    forum.records[0] = {
      ...forum.records[0]!,
      can_edit: true,
      attachments: [
        file({ id: 31, filename: '資料.pdf', record_id: 7 }),
        file({ id: 32, filename: '第1回 課題.py', record_id: 7 }),
      ],
    };
    stubFetch(forumServer(forum));
    renderApp('/course/1/forum/7');
    const post = await screen.findByRole('article', { name: 'Week 1' }, SLOW);
    const files = within(post).getByRole('region', { name: 'Attachments' });
    expect(within(files).getByRole('button', { name: 'Download 資料.pdf' }).textContent).toBe('資料.pdf');
    expect(within(files).getByRole('button', { name: 'Download 第1回 課題.py' }).textContent).toBe(
      '第1回 課題.py',
    );

    fireEvent.click(within(post).getByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit post' });
    const tray = within(dialog).getByRole('list', { name: 'Attachments' });
    expect(within(tray).getByText('資料.pdf')).toBeTruthy();
    expect(within(tray).getByText('第1回 課題.py')).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Remove 第1回 課題.py' })).toBeTruthy();
  });

  it('says so when the post does not exist', async () => {
    stubFetch(forumServer(topic()));
    renderApp('/course/1/forum/99');
    expect(await screen.findByRole('heading', { level: 1, name: 'Post not found' }, SLOW)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to the forum' }).getAttribute('href')).toBe(
      '/course/1/forum',
    );
  });
});
