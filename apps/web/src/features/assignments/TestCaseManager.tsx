import { Button, Skeleton, Stack, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { Section } from '../../ui/Section.tsx';
import { TestCaseDialog } from './TestCaseDialog.tsx';
import { TestCaseTable } from './TestCaseTable.tsx';
import { useEditorTestCases, type EditorTestCase } from './useEditorTestCases.ts';

/**
 * An assignment's tests in run order, with New test case, move, edit and delete: the TestCase page and
 * the new-assignment dialog show the same list.
 */
export function TestCaseManager({
  assignmentId,
  courseId,
  headingOrder = 2,
}: {
  assignmentId: number;
  courseId: number;
  /** 4 inside a step of the new-assignment dialog (its title is an h2, the step's heading an h3). */
  headingOrder?: 2 | 3 | 4;
}) {
  const { t } = useTranslation();
  const { query, tests, countedTests, drafts, totalPoints } = useEditorTestCases(assignmentId, courseId);
  // null: closed; 'new': a new test; else the test being edited.
  const [editing, setEditing] = useState<EditorTestCase | 'new' | null>(null);

  let body: ReactNode;
  if (query.isError) body = <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  else if (!query.data) body = <Skeleton height={120} />;
  else if (tests.length === 0) body = <Text size="sm">{t('testCases.none')}</Text>;
  else {
    body = (
      <TestCaseTable tests={tests} assignmentId={assignmentId} courseId={courseId} onEdit={setEditing} />
    );
  }

  return (
    <>
      <Section
        order={headingOrder}
        title={t('testCases.listTitle')}
        actions={
          <Button leftSection={<IconPlus size={18} aria-hidden />} onClick={() => setEditing('new')}>
            {t('testCases.new')}
          </Button>
        }
      >
        <Stack gap="sm">
          {query.data ? (
            <Text size="sm" c="dimmed">
              {t('testCases.summary', { count: countedTests, points: totalPoints })}
            </Text>
          ) : null}
          {drafts > 0 ? (
            <Text size="sm" c="dimmed">
              {t('testCases.draftsNotCounted', { count: drafts })}
            </Text>
          ) : null}
          {body}
        </Stack>
      </Section>
      {editing !== null ? (
        <TestCaseDialog
          assignmentId={assignmentId}
          courseId={courseId}
          test={editing === 'new' ? null : editing}
          nextPosition={tests.length}
          onClose={() => setEditing(null)}
        />
      ) : null}
    </>
  );
}
