import { Anchor, Group, Paper, SegmentedControl, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { pathTo } from '../../routes/route-table.ts';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { NotFoundPage } from '../../ui/NotFoundPage.tsx';
import { parseId } from '../assignments/assignments.queries.ts';
import { memberName } from '../courses/member-name.ts';
import { RegradeAnswer } from './RegradeAnswer.tsx';
import { regradeRequestsQuery } from './review.queries.ts';
import { useReviewPage } from './useReviewPage.ts';

/**
 * The course's regrade requests (issue 39), open or answered (`?status=answered`), of one assignment
 * with `?assignment=`; each links to its grading, where the grade is changed. Editors and staff.
 */
export function RegradeRequestsPage() {
  const { t, i18n } = useTranslation();
  const { course, isEditor } = useReviewPage();
  const [searchParams, setSearchParams] = useSearchParams();
  const status = searchParams.get('status') === 'answered' ? 'answered' : 'open';
  const assignmentId = parseId(searchParams.get('assignment') ?? undefined);
  const list = useQuery({
    ...regradeRequestsQuery(course.id, { status, ...(assignmentId ? { assignment_id: assignmentId } : {}) }),
    enabled: isEditor,
  });
  if (!isEditor) return <NotFoundPage />;

  return (
    <Stack gap="lg">
      <Title order={1}>{t('routes.regradeRequests')}</Title>
      <Group>
        <SegmentedControl
          aria-label={t('grading.regrade.filter')}
          value={status}
          data={[
            { value: 'open', label: t('grading.regrade.status.open') },
            { value: 'answered', label: t('grading.regrade.status.answered') },
          ]}
          onChange={(value) => {
            const next = new URLSearchParams(searchParams);
            if (value === 'answered') next.set('status', value);
            else next.delete('status');
            setSearchParams(next, { replace: true });
          }}
        />
      </Group>
      {list.isError ? <ErrorState error={list.error} onRetry={() => void list.refetch()} /> : null}
      {!list.data ? (
        list.isError ? null : (
          <Skeleton height={160} aria-busy="true" />
        )
      ) : list.data.results.length === 0 ? (
        <Text c="dimmed">
          {status === 'open' ? t('grading.regrade.noneOpen') : t('grading.regrade.noneAnswered')}
        </Text>
      ) : (
        <Stack
          gap="sm"
          component="ul"
          p={0}
          m={0}
          style={{ listStyle: 'none' }}
          aria-label={t('routes.regradeRequests')}
        >
          {list.data.results.map((request) => (
            <Paper key={request.id} component="li" withBorder p="md" radius="md">
              <Stack gap="xs">
                <Group justify="space-between" wrap="wrap" gap="xs">
                  <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                    {memberName(request.user, i18n.language)} · {request.assignment_title}
                  </Text>
                  <Anchor
                    component={Link}
                    size="sm"
                    to={pathTo('GradeSubmission', {
                      course_id: request.course_id,
                      assignment_id: request.assignment_id,
                      submission_id: request.submission_id,
                    })}
                  >
                    {t('grading.regrade.open', { name: memberName(request.user, i18n.language) })}
                  </Anchor>
                </Group>
                <RegradeAnswer request={request} />
              </Stack>
            </Paper>
          ))}
        </Stack>
      )}
    </Stack>
  );
}
