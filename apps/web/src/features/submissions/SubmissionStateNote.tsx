import { Text } from '@mantine/core';
import type { Submission } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';

/** Where a waiting submission is in the queue, and the server's message (why it waits or failed). */
export function SubmissionStateNote({
  submission,
  size = 'xs',
}: {
  submission: Submission;
  size?: 'xs' | 'sm';
}) {
  const { t } = useTranslation();
  const lines: string[] = [];
  if (submission.status === 'Scheduled' && submission.queue_position !== null) {
    lines.push(t('submissions.queuePosition', { position: submission.queue_position }));
  }
  if (submission.message) lines.push(submission.message);
  if (lines.length === 0) return null;
  return (
    <>
      {lines.map((line) => (
        <Text key={line} size={size} c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {line}
        </Text>
      ))}
    </>
  );
}
