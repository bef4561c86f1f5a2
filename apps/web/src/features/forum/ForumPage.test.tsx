import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { stubFetch } from '../../test/fetch.ts';
import { renderApp } from '../../test/render.tsx';
import { signInAsStudent } from '../../test/session.ts';
import { toLocalInput } from '../assignments/dates.ts';
import { useSession } from '../auth/session.ts';
import { FILE_INPUT_TEST_ID } from './AttachmentTray.tsx';
import { forumServer, record, type FakeForum } from './forum-fixtures.ts';

beforeEach(() => {
  signInAsStudent();
});

const SLOW = { timeout: 10_000 };

function announcements(role: FakeForum['role']): FakeForum {
  return {
    role,
    unread: 2,
    records: [
      record({ id: 1, title: 'Welcome', is_read: true, comment_count: 3, upvotes: 2 }),
      record({ id: 2, title: 'Exam room', pinned: true, is_read: false }),
      record({ id: 3, title: 'Lab 1 help', is_announcement: false, is_read: false }),
    ],
  };
}

const posts = (requests: { url: string; method: string }[]) =>
  requests.filter((r) => r.method === 'POST' && r.url === '/api/Forum/Record/');
const uploads = (requests: { url: string; method: string }[]) =>
  requests.filter((r) => r.method === 'POST' && r.url.startsWith('/api/Forum/ForumFileUpload/'));

function sized(name: string, bytes: number): File {
  const made = new File(['x'], name, { type: 'text/plain' });
  Object.defineProperty(made, 'size', { value: bytes });
  return made;
}

describe('the forum list', { timeout: 30_000 }, () => {
  it('opens on announcements, pinned first, with unread markers and the unread count', async () => {
    stubFetch(forumServer(announcements('student')));
    const { router } = renderApp('/course/1/forum');
    expect(await screen.findByRole('heading', { level: 1, name: 'Forum' }, SLOW)).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Announcements' }).getAttribute('aria-selected')).toBe('true');
    expect(await screen.findByRole('tab', { name: 'Unread (2 topics)' })).toBeTruthy();
    expect(screen.queryByRole('tab', { name: 'Scheduled' })).toBeNull();

    const rows = within(await screen.findByRole('list', { name: 'Posts' })).getAllByRole('listitem');
    expect(rows.map((row) => within(row).getByRole('link').textContent)).toEqual(['Exam room', 'Welcome']);
    expect(within(rows[0]!).getByRole('link', { name: 'Unread: Exam room' })).toBeTruthy();
    expect(within(rows[0]!).getByRole('img', { name: 'Pinned' })).toBeTruthy();
    expect(within(rows[0]!).getByText('Instructor')).toBeTruthy();
    expect(within(rows[1]!).getByRole('link', { name: 'Welcome' })).toBeTruthy();
    expect(within(rows[1]!).getByText('3 comments')).toBeTruthy();
    expect(within(rows[1]!).getByText('2 upvotes')).toBeTruthy();
    expect(rows[0]!.querySelector('a')?.getAttribute('href')).toBe('/course/1/forum/2');

    // Another tab is remembered on this device and shown in the address.
    fireEvent.click(screen.getByRole('tab', { name: 'Discussions' }));
    expect(await screen.findByRole('link', { name: 'Unread: Lab 1 help' })).toBeTruthy();
    expect(useSession.getState().forumActiveTab).toBe('discussion');
    expect(router.state.location.search).toBe('?tab=discussion');
  });

  it('searches what a Japanese IME commits, not the kana of an unfinished conversion', async () => {
    const { requests } = stubFetch(forumServer(announcements('student')));
    renderApp('/course/1/forum');
    const box = await screen.findByRole('searchbox', { name: 'Search posts' }, SLOW);
    const searched = () =>
      requests
        .map((r) => new URL(r.url, 'http://x').searchParams.get('full_text_search'))
        .filter((text) => text !== null);
    fireEvent.compositionStart(box);
    fireEvent.input(box, { target: { value: 'ないほう' }, isComposing: true });
    expect((box as HTMLInputElement).value).toBe('ないほう');
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(searched()).toEqual([]);
    fireEvent.input(box, { target: { value: '内包' }, isComposing: true });
    fireEvent.compositionEnd(box);
    await waitFor(() => expect(searched()).toContain('内包'));
    expect(searched()).not.toContain('ないほう');
  });

  it('gives editors the Scheduled tab with the time each announcement goes out', async () => {
    const state = announcements('editor');
    state.records.push(
      record({ id: 9, title: 'Midterm', published_at: null, scheduled_at: '2026-06-01T00:00:00.000Z' }),
    );
    stubFetch(forumServer(state));
    renderApp('/course/1/forum?tab=scheduled');
    const row = (await screen.findByRole('link', { name: 'Midterm' }, SLOW)).closest('li')!;
    expect(within(row).getByText(/^Goes out /)).toBeTruthy();
  });
});

describe('the post editor', { timeout: 30_000 }, () => {
  async function openEditor(role: FakeForum['role']) {
    const fetched = stubFetch(forumServer(announcements(role)));
    renderApp('/course/1/forum');
    fireEvent.click(await screen.findByRole('button', { name: 'New post' }, SLOW));
    const dialog = await screen.findByRole('dialog', { name: 'New post' });
    return { ...fetched, dialog };
  }

  it('shows the upload limits first and refuses a sixth file or a file over 5 MB before sending', async () => {
    const { dialog, requests } = await openEditor('student');
    expect(within(dialog).getByText('Up to 5 files, 5 MB each')).toBeTruthy();
    const input = within(dialog).getByTestId(FILE_INPUT_TEST_ID);
    const six = Array.from({ length: 6 }, (_, i) => sized(`f${i}.txt`, 10));
    fireEvent.change(input, { target: { files: six } });
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'Failed. Please check the limit for file size and the number of files.',
    );
    fireEvent.change(input, { target: { files: [sized('big.bin', 6 * 1024 * 1024)] } });
    expect(within(dialog).getByRole('alert').textContent).toContain('Please check the limit');
    expect(uploads(requests)).toHaveLength(0);

    // Within the limits the file goes up and is listed, removable; a name in any script is sent as it
    // is (the server decides: docs/storage.md, "Names and limits of uploads").
    fireEvent.change(input, { target: { files: [sized('第1回 課題.py', 10)] } });
    expect(await within(dialog).findByText('upload-101.txt')).toBeTruthy();
    expect(uploads(requests)).toHaveLength(1);
    expect(within(dialog).getByRole('button', { name: 'Remove upload-101.txt' })).toBeTruthy();
  });

  it('refuses empty content, and asks before discarding changes', async () => {
    const { dialog, requests } = await openEditor('student');
    expect(within(dialog).queryByRole('checkbox', { name: 'Post as announcement' })).toBeNull();
    fireEvent.change(within(dialog).getByRole('textbox', { name: /Title/ }), { target: { value: 'Q1' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Post' }));
    expect(await within(dialog).findByText('Post content is empty.')).toBeTruthy();
    expect(posts(requests)).toHaveLength(0);

    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByText('Sure to discard the changes?')).toBeTruthy();
  });

  it('refuses a schedule less than 10 minutes ahead, then posts the announcement', async () => {
    const { dialog, requests } = await openEditor('editor');
    const asAnnouncement = within(dialog).getByRole('checkbox', { name: 'Post as announcement' });
    expect(asAnnouncement).toHaveProperty('checked', true);
    fireEvent.change(within(dialog).getByRole('textbox', { name: /Title/ }), { target: { value: 'Exam' } });
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Content' }), {
      target: { value: 'Room 101' },
    });
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Schedule' }));
    const at = within(dialog).getByLabelText(/Publish at/);
    fireEvent.change(at, {
      target: { value: toLocalInput(new Date(Date.now() + 5 * 60_000).toISOString()) },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Post' }));
    expect(
      await within(dialog).findByText('The scheduled time must be at least 10 minutes from now.'),
    ).toBeTruthy();
    expect(posts(requests)).toHaveLength(0);

    const later = toLocalInput(new Date(Date.now() + 60 * 60_000).toISOString());
    fireEvent.change(at, { target: { value: later } });
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Pin' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Post' }));
    await waitFor(() => expect(posts(requests)).toHaveLength(1));
    expect(posts(requests)[0]).toMatchObject({
      body: {
        course: 1,
        title: 'Exam',
        content: 'Room 101',
        is_announcement: true,
        pinned: true,
        scheduled_at: new Date(later).toISOString(),
        attachments: [],
      },
    });
  });
});
