import { Button, Grid, Group, Stack, Text, Title } from '@mantine/core';
import { IconChecklist, IconCopy, IconPencil } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useDeferredValue } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { isApiError } from '../../api/client.ts';
import { PageLoader } from '../../ui/PageLoader.tsx';
import { useCourse } from '../courses/useCourse.ts';
import { NotFoundPage } from '../../ui/NotFoundPage.tsx';
import { pathTo } from '../../routes/route-table.ts';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { Markdown } from '../../ui/Markdown.tsx';
import { Section } from '../../ui/Section.tsx';
import { ReviewEntryButtons } from '../review/ReviewEntryButtons.tsx';
import { LatestResult } from '../submissions/LatestResult.tsx';
import { LeaderboardPanel } from '../submissions/LeaderboardPanel.tsx';
import { MySubmissions } from '../submissions/MySubmissions.tsx';
import { SubmitPanel } from '../submissions/SubmitPanel.tsx';
import { AssignmentEditorHost, useAssignmentEditor } from './AssignmentEditorHost.tsx';
import { AssignmentFacts } from './AssignmentFacts.tsx';
import { AttachmentList } from './AttachmentList.tsx';
import { AvailabilityBadge } from './AvailabilityBadge.tsx';
import { ExportBundleButton } from './BundleActions.tsx';
import { TestCaseOverview } from './TestCaseOverview.tsx';
import { pointsAndTests } from './assignment-text.ts';
import { assignmentQuery, parseId } from './assignments.queries.ts';

/** One assignment: statement, attachments, visible tests, the editor to submit, my results, the ranking. */
export function AssignmentDetailPage() {
  const { t } = useTranslation();
  const course = useCourse();
  const navigate = useNavigate();
  const editor = useAssignmentEditor();
  const assignmentId = parseId(useParams().assignment_id);
  const detail = useQuery({
    ...assignmentQuery(assignmentId ?? 0, course.id),
    enabled: assignmentId !== null,
  });

  // The page is drawn from the answer in a background render cut into slices, not in the one blocking
  // task in which the query store announces it (docs/first-load.md).
  const data = useDeferredValue(detail.data);

  if (assignmentId === null || isApiError(detail.error, 404)) return <NotFoundPage />;
  if (detail.isError) {
    return (
      <>
        <Title order={1}>{t('routes.assignmentDetail')}</Title>
        <ErrorState error={detail.error} onRetry={() => void detail.refetch()} />
      </>
    );
  }
  if (!data) return <PageLoader />;
  const { assignment, course: dates, files, can_edit: canEdit } = data;

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-start" gap="sm">
        <Stack gap={6}>
          <Title order={1}>{assignment.title}</Title>
          <Group gap="xs">
            <AvailabilityBadge dates={dates} />
            <Text size="sm" c="dimmed">
              {pointsAndTests(t, assignment.total_points, assignment.test_case_count)}
            </Text>
          </Group>
        </Stack>
        {canEdit ? (
          <Group gap="xs">
            <Button
              variant="default"
              leftSection={<IconPencil size={16} aria-hidden />}
              onClick={() => editor.openEdit(assignment.id)}
            >
              {t('assignments.edit')}
            </Button>
            <Button
              variant="default"
              component={Link}
              to={pathTo('TestCase', { course_id: course.id, assignment_id: assignment.id })}
              leftSection={<IconChecklist size={16} aria-hidden />}
            >
              {t('assignments.testCases')}
            </Button>
            <Button
              variant="default"
              component={Link}
              to={pathTo('SimilarityReport', { course_id: course.id, assignment_id: assignment.id })}
              leftSection={<IconCopy size={16} aria-hidden />}
            >
              {t('similarity.open')}
            </Button>
            <ExportBundleButton assignmentId={assignment.id} courseId={course.id} />
            <ReviewEntryButtons courseId={course.id} assignmentId={assignment.id} />
          </Group>
        ) : null}
      </Group>

      <Grid gap="lg">
        <Grid.Col span={{ base: 12, lg: 8 }}>
          <Stack gap="lg">
            <Section title={t('assignments.detail.statement')}>
              {assignment.statement.trim() ? (
                <Markdown source={assignment.statement} />
              ) : (
                <Text size="sm" c="dimmed">
                  {t('assignments.detail.noStatement')}
                </Text>
              )}
            </Section>
            {files.length > 0 ? <AttachmentList files={files} /> : null}
            <TestCaseOverview assignmentId={assignment.id} courseId={course.id} />
            <SubmitPanel key={`${assignment.id}-${course.id}`} detail={data} />
            <LatestResult assignmentId={assignment.id} courseId={course.id} />
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 4 }}>
          <Stack gap="lg">
            <AssignmentFacts detail={data} />
            <MySubmissions assignmentId={assignment.id} courseId={course.id} />
            <LeaderboardPanel assignmentId={assignment.id} courseId={course.id} canEdit={canEdit} />
          </Stack>
        </Grid.Col>
      </Grid>
      <AssignmentEditorHost
        courseId={course.id}
        timeZone={course.time_zone}
        onDeleted={() => navigate(pathTo('Assignment', { course_id: course.id }), { replace: true })}
      />
    </Stack>
  );
}
