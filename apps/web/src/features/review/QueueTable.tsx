import { Anchor, Badge, Table, Text } from '@mantine/core';
import type { ReviewQueueRow } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useFormatters } from '../../i18n/format.ts';
import { pathTo } from '../../routes/route-table.ts';
import { memberName } from '../courses/member-name.ts';
import type { AssignmentRef } from './review.api.ts';
import { ReviewStatusBadge } from './ReviewStatusBadge.tsx';

/** One row per student: their counted submission, its grading's state, and a link to grade it. */
export function QueueTable({ rows, assignment }: { rows: ReviewQueueRow[]; assignment: AssignmentRef }) {
  const { t, i18n } = useTranslation();
  const format = useFormatters();
  const dash = '–';
  return (
    <Table.ScrollContainer minWidth={880}>
      <Table striped highlightOnHover aria-label={t('grading.queue.table')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('grading.queue.student')}</Table.Th>
            <Table.Th>{t('grading.queue.submittedAt')}</Table.Th>
            <Table.Th>{t('grading.queue.autograde')}</Table.Th>
            <Table.Th>{t('grading.queue.status')}</Table.Th>
            <Table.Th>{t('grading.queue.grader')}</Table.Th>
            <Table.Th>{t('grading.queue.total')}</Table.Th>
            <Table.Th>{t('grading.queue.released')}</Table.Th>
            <Table.Th>{t('grading.queue.regrades')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => {
            const name = memberName(row.user, i18n.language);
            return (
              <Table.Tr key={row.user.id}>
                <Table.Td>
                  {row.submission_id === null ? (
                    <Text size="sm">{name}</Text>
                  ) : (
                    <Anchor
                      component={Link}
                      size="sm"
                      to={pathTo('GradeSubmission', {
                        course_id: assignment.courseId,
                        assignment_id: assignment.assignmentId,
                        submission_id: row.submission_id,
                      })}
                    >
                      {name}
                    </Anchor>
                  )}
                </Table.Td>
                <Table.Td>
                  <Text size="sm">
                    {row.submitted_at ? format.dateTime(row.submitted_at) : t('grading.queue.notSubmitted')}
                  </Text>
                </Table.Td>
                <Table.Td>
                  {row.autograde_score === null ? dash : format.number(row.autograde_score)}
                </Table.Td>
                <Table.Td>
                  <ReviewStatusBadge status={row.status} />
                </Table.Td>
                <Table.Td>{row.grader ? memberName(row.grader, i18n.language) : dash}</Table.Td>
                <Table.Td>{row.total === null ? dash : format.number(row.total)}</Table.Td>
                <Table.Td>{row.released_at ? format.dateTime(row.released_at) : dash}</Table.Td>
                <Table.Td>
                  {row.open_regrade_requests > 0 ? (
                    <Badge color="orange" variant="light">
                      {t('grading.queue.openRegrades', { count: row.open_regrade_requests })}
                    </Badge>
                  ) : (
                    dash
                  )}
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
