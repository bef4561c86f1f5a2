import { Alert, Stack, Text, Title } from '@mantine/core';
import { IconEyeOff } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { StudentFeedback, SubmissionDetail } from '@kadai/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/client.ts';
import { useFormatters } from '../../i18n/format.ts';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { Markdown } from '../../ui/Markdown.tsx';
import { Section } from '../../ui/Section.tsx';
import { memberName } from '../courses/member-name.ts';
import { CodeComments } from './CodeComments.tsx';
import { feedbackQuery } from './feedback.api.ts';
import { RegradeDialog } from './RegradeDialog.tsx';
import type { RegradeTarget } from './RegradeControl.tsx';
import { RubricFeedback } from './RubricFeedback.tsx';
import { ScoreBreakdown } from './ScoreBreakdown.tsx';
import { threadsOf } from './threads.ts';

/**
 * The teacher's review of a submission, on its page: for its author once an editor released it, and
 * for editors as a preview (marked as not released yet). Nothing shows to a student before release,
 * not even that a review exists.
 */
export function FeedbackPanel({ submission, isAuthor }: { submission: SubmissionDetail; isAuthor: boolean }) {
  const isEditor = submission.can_manage;
  const feedback = useQuery({ ...feedbackQuery(submission.id), enabled: isAuthor || isEditor });
  if (!isAuthor && !isEditor) return null;
  // No review to see (the feature is off, or this submission is not theirs to read): nothing to say.
  if (isApiError(feedback.error, 404) || isApiError(feedback.error, 403)) return null;
  if (feedback.isError && !feedback.data) {
    return <ErrorState error={feedback.error} onRetry={() => void feedback.refetch()} />;
  }
  if (!feedback.data) return null;
  const data = feedback.data;
  if (!data.released && !isEditor) return null;
  return <FeedbackView feedback={data} submission={submission} isAuthor={isAuthor} isEditor={isEditor} />;
}

function FeedbackView({
  feedback,
  submission,
  isAuthor,
  isEditor,
}: {
  feedback: StudentFeedback;
  submission: SubmissionDetail;
  isAuthor: boolean;
  isEditor: boolean;
}) {
  const { t, i18n } = useTranslation();
  const format = useFormatters();
  const [asking, setAsking] = useState<RegradeTarget | null>(null);
  const threads = threadsOf(feedback.comments);
  const rubricTitles = new Map(feedback.rubric.map((item) => [item.id, item.title]));
  // Only the author asks for a regrade, and only of a released review; editors answer them elsewhere.
  const onAsk = isAuthor && feedback.released ? setAsking : null;
  const canReply = feedback.released ? isAuthor || isEditor : isEditor;
  const hasContent = feedback.score !== null;

  return (
    <Section title={t('feedback.title')}>
      <Stack gap="md">
        {!feedback.released ? (
          <Alert color="gray" icon={<IconEyeOff size={18} aria-hidden />} title={t('feedback.notReleased')}>
            {hasContent ? t('feedback.previewHint') : t('feedback.nothingYet')}
          </Alert>
        ) : null}
        {hasContent ? (
          <>
            <Text size="sm" c="dimmed">
              {[
                feedback.grader
                  ? t('feedback.gradedBy', { name: memberName(feedback.grader, i18n.language) })
                  : null,
                feedback.released_at
                  ? t('feedback.releasedAt', { date: format.dateTime(feedback.released_at) })
                  : null,
              ]
                .filter(Boolean)
                .join(' · ')}
            </Text>
            {feedback.score ? (
              <Stack gap="xs">
                <Title order={3} size="h5">
                  {t('feedback.score.title')}
                </Title>
                <ScoreBreakdown
                  score={feedback.score}
                  settings={feedback.settings}
                  adjustmentReason={feedback.adjustment_reason}
                />
              </Stack>
            ) : null}
            {feedback.comment ? (
              <Stack gap="xs">
                <Title order={3} size="h5">
                  {t('feedback.comment')}
                </Title>
                <Markdown source={feedback.comment} />
              </Stack>
            ) : null}
            <RubricFeedback items={feedback.rubric} requests={feedback.regrade_requests} onAsk={onAsk} />
          </>
        ) : null}
        <CodeComments
          files={submission.files}
          threads={threads}
          submissionId={submission.id}
          rubricTitles={rubricTitles}
          requests={feedback.regrade_requests}
          canReply={canReply}
          onAsk={onAsk}
        />
      </Stack>
      <RegradeDialog submissionId={submission.id} target={asking} onClose={() => setAsking(null)} />
    </Section>
  );
}
