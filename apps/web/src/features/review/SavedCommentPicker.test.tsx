import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { SavedComment } from '@kadai/contracts';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { json, stubFetch } from '../../test/fetch.ts';
import { renderApp } from '../../test/render.tsx';
import { signInAsStudent } from '../../test/session.ts';
import { SavedCommentPicker } from './SavedCommentPicker.tsx';

const saved = (id: number, title: string, body: string, uses: number): SavedComment => ({
  id,
  course_id: 1,
  title,
  body,
  rubric_item_id: null,
  uses,
  created_by: null,
  updated_at: '2026-04-01T09:00:00.000Z',
});
const LIST = [saved(1, 'Naming', 'Name the value you print.', 3), saved(2, 'Tests', 'Add a test.', 9)];

/** The picker alone, its list answered when `release` is called. */
function renderPicker() {
  let release: () => void = () => undefined;
  const answered = new Promise<void>((resolve) => (release = resolve));
  stubFetch(async (request) => {
    if (request.url.startsWith('/api/Course/1/saved-comments/')) {
      await answered;
      return json(200, { count: LIST.length, results: LIST });
    }
    return json(404, { detail: 'Not found.', code: 'not_found' });
  });
  const onPick = vi.fn();
  const element = <SavedCommentPicker courseId={1} onPick={onPick} onClose={() => undefined} />;
  renderApp('/', [{ path: '/', element }]);
  return { onPick, release };
}

// An editor is signed in where the picker shows; the session here only sets the language (English).
beforeEach(() => signInAsStudent());

describe('the saved-comment picker', () => {
  it('inserts the match of what was typed when Enter comes before the list', async () => {
    const { onPick, release } = renderPicker();
    const input = await screen.findByRole('combobox', { name: 'Saved comment' });
    fireEvent.change(input, { target: { value: 'name' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(onPick).not.toHaveBeenCalled();
    release();
    await waitFor(() => expect(onPick).toHaveBeenCalledTimes(1));
    expect(onPick.mock.calls[0]![0]).toMatchObject({ id: 1 });
  });

  it('forgets an early Enter once the search changes, and picks the most used first', async () => {
    const { onPick, release } = renderPicker();
    const input = await screen.findByRole('combobox', { name: 'Saved comment' });
    fireEvent.keyDown(input, { key: 'Enter' });
    fireEvent.change(input, { target: { value: 'a' } });
    release();
    expect(await screen.findByRole('option', { name: /Tests/ })).toHaveProperty('ariaSelected', 'true');
    expect(onPick).not.toHaveBeenCalled();
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(onPick.mock.calls[0]![0]).toMatchObject({ id: 2 });
  });
});
