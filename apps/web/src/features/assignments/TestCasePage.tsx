import { Button, Group, Stack, Title } from '@mantine/core';
import { IconPencil } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { isApiError } from '../../api/client.ts';
import { PageLoader } from '../../ui/PageLoader.tsx';
import { useCourse } from '../courses/useCourse.ts';
import { NotFoundPage } from '../../ui/NotFoundPage.tsx';
import { pathTo } from '../../routes/route-table.ts';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { AssignmentEditorHost, useAssignmentEditor } from './AssignmentEditorHost.tsx';
import { ReferenceRunPanel } from './ReferenceRunPanel.tsx';
import { TestCaseManager } from './TestCaseManager.tsx';
import { assignmentQuery, parseId } from './assignments.queries.ts';
import { canEditCourse } from './permissions.ts';
import { useEditorTestCases } from './useEditorTestCases.ts';

/** Editors write, order and check the tests of an assignment; everyone else gets NotFound. */
export function TestCasePage() {
  const course = useCourse();
  const assignmentId = parseId(useParams().assignment_id);
  if (!canEditCourse(course) || assignmentId === null) return <NotFoundPage />;
  return <TestCaseEditor assignmentId={assignmentId} courseId={course.id} timeZone={course.time_zone} />;
}

function TestCaseEditor({
  assignmentId,
  courseId,
  timeZone,
}: {
  assignmentId: number;
  courseId: number;
  timeZone: string;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const editor = useAssignmentEditor();
  const detail = useQuery(assignmentQuery(assignmentId, courseId));
  const tests = useEditorTestCases(assignmentId, courseId);

  if (isApiError(detail.error, 404) || isApiError(tests.query.error, 404) || isApiError(detail.error, 403)) {
    return <NotFoundPage />;
  }
  if (detail.isError) {
    return (
      <>
        <Title order={1}>{t('routes.testCase')}</Title>
        <ErrorState error={detail.error} onRetry={() => void detail.refetch()} />
      </>
    );
  }
  if (!detail.data) return <PageLoader />;
  const assignment = detail.data.assignment;
  if (assignment.view !== 'editor') return <NotFoundPage />;

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" gap="sm">
        <Title order={1}>{t('testCases.heading', { title: assignment.title })}</Title>
        <Button
          variant="default"
          leftSection={<IconPencil size={16} aria-hidden />}
          onClick={() => editor.openEdit(assignment.id)}
        >
          {t('assignments.edit')}
        </Button>
      </Group>

      <TestCaseManager assignmentId={assignment.id} courseId={courseId} />

      <ReferenceRunPanel
        assignmentId={assignment.id}
        courseId={courseId}
        referenceSolution={assignment.reference_solution}
        hasTests={tests.tests.length > 0}
      />

      <AssignmentEditorHost
        courseId={courseId}
        timeZone={timeZone}
        onDeleted={() => navigate(pathTo('Assignment', { course_id: courseId }), { replace: true })}
      />
    </Stack>
  );
}
