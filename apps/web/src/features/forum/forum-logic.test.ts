import { describe, expect, it } from 'vitest';
import { toLocalInput } from '../assignments/dates.ts';
import { DEFAULT_FILTERS, forumListParams, resolveForumTab } from './forum-tabs.ts';
import { nextForumPage } from './forum.queries.ts';
import { filesFit, scheduleProblem } from './post-form.ts';
import { list, record } from './forum-fixtures.ts';

const MB = 1024 * 1024;

describe('forum tabs', () => {
  it('takes the address, then the remembered tab, then announcements; Scheduled only for managers', () => {
    expect(resolveForumTab(null, 'announcement', false)).toBe('announcement');
    expect(resolveForumTab('unread', 'discussion', false)).toBe('unread');
    expect(resolveForumTab('bogus', 'discussion', false)).toBe('discussion');
    expect(resolveForumTab('scheduled', 'unread', false)).toBe('unread');
    expect(resolveForumTab('scheduled', 'unread', true)).toBe('scheduled');
  });

  it('asks each tab’s list with the filters', () => {
    const filters = { ...DEFAULT_FILTERS, search: ' 課題 ', mine: true, pinnedOnly: true };
    expect(forumListParams(1, 'discussion', filters, 4)).toMatchObject({
      endpoint: 'records',
      is_announcement: false,
      user_id: 4,
      pinned_only: true,
      full_text_search: '課題',
    });
    expect(forumListParams(1, 'unread', DEFAULT_FILTERS, 4)).toMatchObject({ unread_only: true });
    const scheduled = forumListParams(1, 'scheduled', filters, 4);
    expect(scheduled).toMatchObject({ endpoint: 'announcements', scheduled_ones: true });
    expect(scheduled).not.toHaveProperty('user_id');
  });

  it('pages by cursor when there is one, else by offset, and stops at a short page', () => {
    const full = (cursor: string | null) => ({
      ...list(
        Array.from({ length: 2 }, (_, i) => record({ id: i + 1, title: 't' })),
        0,
      ),
      count: 10,
      next_cursor: cursor,
    });
    expect(nextForumPage(full('abc'), 2, 2)).toEqual({ cursor: 'abc' });
    expect(nextForumPage(full(null), 4, 2)).toEqual({ offset: 4 });
    expect(nextForumPage(full(null), 10, 2)).toBeNull();
    expect(nextForumPage(full('abc'), 2, 3)).toBeNull();
  });
});

describe('post limits', () => {
  it('allows five files of 5 MB, not a sixth file nor a larger one', () => {
    expect(filesFit(0, [{ size: 5 * MB }])).toBe(true);
    expect(filesFit(4, [{ size: 1 }])).toBe(true);
    expect(filesFit(5, [{ size: 1 }])).toBe(false);
    expect(
      filesFit(
        0,
        Array.from({ length: 6 }, () => ({ size: 1 })),
      ),
    ).toBe(false);
    expect(filesFit(0, [{ size: 5 * MB + 1 }])).toBe(false);
  });

  it('wants a schedule at least 10 minutes and at most a year ahead', () => {
    const now = new Date('2026-05-01T00:00:00.000Z');
    const at = (minutes: number) => toLocalInput(new Date(now.getTime() + minutes * 60_000).toISOString());
    expect(scheduleProblem('', now)).toBe('required');
    expect(scheduleProblem(at(5), now)).toBe('tooSoon');
    expect(scheduleProblem(at(10), now)).toBeNull();
    expect(scheduleProblem(at(367 * 24 * 60), now)).toBe('tooFar');
  });
});
