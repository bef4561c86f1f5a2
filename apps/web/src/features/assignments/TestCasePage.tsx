import { Button, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconPencil, IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { TestCase } from '@kadai/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { isApiError } from '../../api/client.ts';
import { PageLoader } from '../../app/layout/RootLayout.tsx';
import { useCourse } from '../../app/layout/useCourse.ts';
import { NotFoundPage } from '../../app/pages/NotFoundPage.tsx';
import { pathTo } from '../../app/route-table.ts';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { Section } from '../../ui/Section.tsx';
import { AssignmentEditorHost, useAssignmentEditor } from './AssignmentEditorHost.tsx';
import { ReferenceRunPanel } from './ReferenceRunPanel.tsx';
import { TestCaseDialog } from './TestCaseDialog.tsx';
import { TestCaseTable } from './TestCaseTable.tsx';
import { assignmentQuery, parseId, testCasesQuery } from './assignments.queries.ts';
import { canEditCourse } from './permissions.ts';

type EditorTestCase = Extract<TestCase, { view: 'editor' }>;

/** Editors write, order and check the tests of an assignment; everyone else gets NotFound. */
export function TestCasePage() {
  const course = useCourse();
  const assignmentId = parseId(useParams().assignment_id);
  if (!canEditCourse(course) || assignmentId === null) return <NotFoundPage />;
  return <TestCaseEditor assignmentId={assignmentId} courseId={course.id} />;
}

function TestCaseEditor({ assignmentId, courseId }: { assignmentId: number; courseId: number }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const editor = useAssignmentEditor();
  const detail = useQuery(assignmentQuery(assignmentId, courseId));
  const tests = useQuery(testCasesQuery(assignmentId, courseId));
  // null: closed; 'new': a new test; else the test being edited.
  const [editing, setEditing] = useState<EditorTestCase | 'new' | null>(null);

  if (isApiError(detail.error, 404) || isApiError(tests.error, 404) || isApiError(detail.error, 403)) {
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
  const editorTests = (tests.data?.results ?? []).filter(
    (test): test is EditorTestCase => test.view === 'editor',
  );
  const totalPoints = editorTests.reduce((sum, test) => sum + test.points, 0);

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" gap="sm">
        <Stack gap={4}>
          <Title order={1}>{t('testCases.heading', { title: assignment.title })}</Title>
          <Text size="sm" c="dimmed">
            {t('testCases.summary', { count: editorTests.length, points: totalPoints })}
          </Text>
        </Stack>
        <Group gap="xs">
          <Button
            variant="default"
            leftSection={<IconPencil size={16} aria-hidden />}
            onClick={() => editor.openEdit(assignment.id)}
          >
            {t('assignments.edit')}
          </Button>
          <Button leftSection={<IconPlus size={18} aria-hidden />} onClick={() => setEditing('new')}>
            {t('testCases.new')}
          </Button>
        </Group>
      </Group>

      <Section title={t('testCases.listTitle')}>
        {tests.isError ? (
          <ErrorState error={tests.error} onRetry={() => void tests.refetch()} />
        ) : !tests.data ? (
          <Skeleton height={120} />
        ) : editorTests.length === 0 ? (
          <Text size="sm">{t('testCases.none')}</Text>
        ) : (
          <TestCaseTable
            tests={editorTests}
            assignmentId={assignment.id}
            courseId={courseId}
            onEdit={setEditing}
          />
        )}
      </Section>

      <ReferenceRunPanel
        assignmentId={assignment.id}
        courseId={courseId}
        referenceSolution={assignment.reference_solution}
        hasTests={editorTests.length > 0}
      />

      {editing !== null ? (
        <TestCaseDialog
          assignmentId={assignment.id}
          courseId={courseId}
          test={editing === 'new' ? null : editing}
          nextPosition={editorTests.length}
          onClose={() => setEditing(null)}
        />
      ) : null}
      <AssignmentEditorHost
        courseId={courseId}
        onDeleted={() => navigate(pathTo('Assignment', { course_id: courseId }), { replace: true })}
      />
    </Stack>
  );
}
