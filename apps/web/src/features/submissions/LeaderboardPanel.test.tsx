import { render, screen, within } from '@testing-library/react';
import type { Leaderboard } from '@kadai/contracts';
import { describe, expect, it } from 'vitest';
import { Providers } from '../../app/App.tsx';
import { createQueryClient } from '../../app/query-client.ts';
import { json, stubFetch } from '../../test/fetch.ts';
import { signInAsStudent } from '../../test/session.ts';
import { useSession } from '../auth/session.ts';
import { LeaderboardPanel } from './LeaderboardPanel.tsx';

// As an editor sees it: real names (the server's `name` is given-name first) and their parts.
const BOARD: Leaderboard = {
  assignment_id: 5,
  course_id: 1,
  enabled: true,
  max_score: 10,
  entries: [
    {
      rank: 1,
      name: '陽菜 鈴木',
      first_name: '陽菜',
      last_name: '鈴木',
      user_id: 7,
      score: 10,
      submitted_at: '2026-05-11T01:00:00.000Z',
      is_me: false,
    },
    {
      rank: 2,
      name: 'James Wilson',
      first_name: 'James',
      last_name: 'Wilson',
      user_id: 8,
      score: 9,
      submitted_at: '2026-05-11T02:00:00.000Z',
      is_me: false,
    },
  ],
  my_profile: { nickname: null, opt_out: false },
};

function renderBoard(language: 'ja' | 'en-US') {
  signInAsStudent();
  useSession.setState({ displayLang: language });
  stubFetch(() => json(200, BOARD));
  render(
    <Providers queryClient={createQueryClient()}>
      <LeaderboardPanel assignmentId={5} courseId={1} canEdit />
    </Providers>,
  );
}

/** The name in each row (the cell's first line; the second is when). */
const names = async () =>
  (await screen.findAllByRole('row'))
    .slice(1)
    .map((row) => within(row).getAllByRole('cell')[1]!.firstElementChild?.textContent?.trim());

describe('the leaderboard’s real names', () => {
  it('follow the one rule of each language: family name first in Japanese', async () => {
    renderBoard('ja');
    expect(await names()).toEqual(['鈴木 陽菜', 'Wilson James']);
  });

  it('given name first in English, a kanji name still family first', async () => {
    renderBoard('en-US');
    expect(await names()).toEqual(['鈴木 陽菜', 'James Wilson']);
  });
});
