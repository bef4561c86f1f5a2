import { Anchor, Button, Group, Input, Stack, Text } from '@mantine/core';
import { IconPlayerPlay } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { pathTo } from '../../routes/route-table.ts';
import { CodeEditor } from '../../ui/CodeEditor.tsx';
import { errorMessage } from '../../ui/errors.ts';
import { notifyError } from '../../ui/notify.ts';
import { Section } from '../../ui/Section.tsx';
import { EvaluationResults } from '../submissions/EvaluationResults.tsx';
import { StatusBadge } from '../submissions/StatusBadge.tsx';
import { SubmissionStateNote } from '../submissions/SubmissionStateNote.tsx';
import { isInProgress } from '../submissions/status.ts';
import { submissionQuery } from '../submissions/submissions.queries.ts';
import { runReference } from './assignments.api.ts';
import { assignmentKeys } from './assignments.queries.ts';

const NEXT_ORDER = { 2: 3, 3: 4, 4: 5 } as const;

/**
 * "Run against reference solution": grades the code in the box (saved as the reference solution) with
 * every test case, and shows the results as they arrive, before students ever submit.
 */
export function ReferenceRunPanel({
  assignmentId,
  courseId,
  referenceSolution,
  hasTests,
  headingOrder = 2,
}: {
  assignmentId: number;
  courseId: number;
  referenceSolution: string;
  hasTests: boolean;
  /** 4 inside a step of the new-assignment dialog; the results' heading is one below. */
  headingOrder?: 2 | 3 | 4;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [code, setCode] = useState(referenceSolution);
  const [submissionId, setSubmissionId] = useState<number | null>(null);
  const helpId = useId();
  const result = useQuery({ ...submissionQuery(submissionId ?? 0), enabled: submissionId !== null });

  const run = useMutation({
    mutationFn: () => runReference(assignmentId, courseId, code),
    onSuccess: ({ submission_id }) => {
      setSubmissionId(submission_id);
      void queryClient.invalidateQueries({ queryKey: assignmentKeys.detail(assignmentId, courseId) });
    },
    onError: (error) => notifyError(errorMessage(error, t), { title: t('testCases.reference.failed') }),
  });

  // A finished reference run counts again the points of pytest tests that follow their tests: the list
  // of tests above reads them afresh.
  const finished = result.data !== undefined && !isInProgress(result.data.status);
  useEffect(() => {
    if (!finished) return;
    void queryClient.invalidateQueries({ queryKey: assignmentKeys.testCases(assignmentId, courseId) });
  }, [finished, submissionId, queryClient, assignmentId, courseId]);

  return (
    <Section order={headingOrder} title={t('testCases.reference.title')}>
      <Stack gap="sm">
        <Input.Wrapper
          label={t('assignments.fields.referenceSolution')}
          description={t('testCases.reference.help')}
          descriptionProps={{ id: helpId }}
          labelElement="div"
        >
          <CodeEditor
            value={code}
            onChange={setCode}
            label={t('assignments.fields.referenceSolution')}
            describedBy={helpId}
            minHeight={160}
          />
        </Input.Wrapper>
        <Group>
          <Button
            leftSection={<IconPlayerPlay size={16} aria-hidden />}
            onClick={() => run.mutate()}
            loading={run.isPending}
            disabled={!hasTests || code.trim() === ''}
          >
            {t('testCases.reference.run')}
          </Button>
          {!hasTests ? (
            <Text size="sm" c="dimmed">
              {t('testCases.reference.needTests')}
            </Text>
          ) : null}
        </Group>
        {result.data ? (
          <Stack gap="sm" aria-live="polite">
            <Group gap="xs">
              <StatusBadge
                status={result.data.status}
                score={result.data.score}
                max={result.data.max_score}
              />
              <Text ff="monospace" fw={600}>
                {t('submissions.detail.score', {
                  score: result.data.score === null ? '–' : result.data.score,
                  max: result.data.max_score ?? '–',
                })}
              </Text>
              <Anchor
                component={Link}
                size="sm"
                to={pathTo('SubmissionDetail', { course_id: courseId, submission_id: result.data.id })}
              >
                {t('submissions.number', { id: result.data.id })}
              </Anchor>
            </Group>
            <SubmissionStateNote submission={result.data} size="sm" />
            <EvaluationResults submission={result.data} headingOrder={NEXT_ORDER[headingOrder]} />
          </Stack>
        ) : null}
      </Stack>
    </Section>
  );
}
