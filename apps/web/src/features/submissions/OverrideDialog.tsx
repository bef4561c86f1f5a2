import { Button, Group, Modal, NumberInput, SegmentedControl, Stack, Text, Textarea } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Evaluation, EvaluationStatus } from '@kadai/contracts';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../ui/errors.ts';
import { notifyError, notifySuccess } from '../../ui/notify.ts';
import { assignmentKeys } from '../assignments/assignments.queries.ts';
import { overrideScore } from './submissions.api.ts';
import { submissionKeys, submissionQuery } from './submissions.queries.ts';

/**
 * An editor sets one test's result by hand (`POST Submission/Score/`); the score is recomputed by the
 * server and the submission fetched again.
 */
export function OverrideDialog({
  evaluation,
  submissionId,
  onClose,
}: {
  evaluation: Evaluation;
  submissionId: number;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<EvaluationStatus>(evaluation.status);
  const [points, setPoints] = useState<number>(evaluation.points);
  const [comment, setComment] = useState(evaluation.comment);
  const labelId = useId();

  const save = useMutation({
    mutationFn: () =>
      overrideScore({
        submission_id: submissionId,
        test_case_id: evaluation.test_case_id,
        status,
        points,
        comment,
      }),
    onSuccess: async () => {
      onClose();
      try {
        await queryClient.fetchQuery({ ...submissionQuery(submissionId), staleTime: 0, retry: false });
        notifySuccess(t('submissions.override.saved'));
      } catch {
        notifyError(t('submissions.scoreFetchFailed'));
      }
      void queryClient.invalidateQueries({ queryKey: submissionKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: assignmentKeys.all });
    },
    onError: (error) => notifyError(errorMessage(error, t), { title: t('submissions.override.failed') }),
  });

  return (
    <Modal
      opened
      onClose={onClose}
      title={t('submissions.override.title', { name: evaluation.test_case_name })}
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          save.mutate();
        }}
      >
        <Stack gap="sm">
          <Stack gap={4}>
            <Text size="sm" fw={500} id={labelId}>
              {t('submissions.override.verdict')}
            </Text>
            <SegmentedControl
              aria-labelledby={labelId}
              value={status}
              onChange={(value) => {
                const next: EvaluationStatus = value === 'Correct' ? 'Correct' : 'Wrong';
                setStatus(next);
                setPoints(next === 'Correct' ? evaluation.max_points : 0);
              }}
              data={[
                { value: 'Correct', label: t('status.Correct') },
                { value: 'Wrong', label: t('status.Wrong') },
              ]}
            />
          </Stack>
          <NumberInput
            label={t('submissions.override.points', { max: evaluation.max_points })}
            value={points}
            onChange={(value) => setPoints(typeof value === 'number' ? value : 0)}
            min={0}
            max={1000}
            allowDecimal={false}
            clampBehavior="strict"
          />
          <Textarea
            label={t('submissions.override.comment')}
            value={comment}
            onChange={(event) => setComment(event.currentTarget.value)}
            autosize
            minRows={2}
            maxLength={5000}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {t('common.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
