import { Badge, Skeleton, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { personName, type LeaderboardEntry } from '@kadai/contracts';
import { useFormatters } from '../../i18n/format.ts';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { Section } from '../../ui/Section.tsx';
import { LeaderboardProfileForm } from './LeaderboardProfileForm.tsx';
import { leaderboardQuery } from './submissions.queries.ts';
import classes from './LeaderboardPanel.module.css';

/** A real name (editors, staff) in the reader's order; a nickname as its owner wrote it. */
function entryName(entry: LeaderboardEntry, language: string): string {
  if (entry.first_name === null || entry.last_name === null) return entry.name;
  return personName({ first_name: entry.first_name, last_name: entry.last_name }, language) || entry.name;
}

/**
 * The course's ranking for this assignment: by score, ties to the earlier submission. Students see
 * nicknames and their own row marked; editors see real names. Students set their nickname here.
 */
export function LeaderboardPanel({
  assignmentId,
  courseId,
  canEdit,
}: {
  assignmentId: number;
  courseId: number;
  canEdit: boolean;
}) {
  const { t, i18n } = useTranslation();
  const format = useFormatters();
  const board = useQuery(leaderboardQuery(assignmentId, courseId));

  let body: React.ReactNode;
  if (board.isError) body = <ErrorState error={board.error} onRetry={() => void board.refetch()} />;
  else if (!board.data) body = <Skeleton height={80} />;
  else if (!board.data.enabled) body = <Text size="sm">{t('leaderboard.disabled')}</Text>;
  else if (board.data.entries.length === 0) body = <Text size="sm">{t('leaderboard.empty')}</Text>;
  else {
    body = (
      <Table verticalSpacing={6} horizontalSpacing="xs" aria-label={t('leaderboard.title')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={48}>{t('leaderboard.rank')}</Table.Th>
            <Table.Th>{t('leaderboard.name')}</Table.Th>
            <Table.Th ta="end">{t('leaderboard.score')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {board.data.entries.map((entry) => (
            <Table.Tr
              key={`${entry.rank}-${entry.name}-${entry.submitted_at}`}
              className={entry.is_me ? classes.me : undefined}
              aria-current={entry.is_me ? 'true' : undefined}
            >
              <Table.Td>{entry.rank}</Table.Td>
              <Table.Td>
                <Text size="sm" fw={entry.is_me ? 700 : 400} style={{ overflowWrap: 'anywhere' }}>
                  {entryName(entry, i18n.language)}{' '}
                  {entry.is_me ? (
                    <Badge size="xs" variant="filled" color="blue" component="span">
                      {t('leaderboard.you')}
                    </Badge>
                  ) : null}
                </Text>
                <Text size="xs" c="dimmed">
                  {format.dateTime(entry.submitted_at)}
                </Text>
              </Table.Td>
              <Table.Td ta="end" ff="monospace">
                {entry.score} / {board.data.max_score}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    );
  }

  return (
    <Section title={t('leaderboard.title')}>
      {body}
      {!canEdit ? <LeaderboardProfileForm /> : null}
    </Section>
  );
}
