import { Badge, Button, Stack, Text } from '@mantine/core';
import { IconMessageQuestion } from '@tabler/icons-react';
import type { RegradeRequest } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '../../i18n/format.ts';
import { memberName } from '../courses/member-name.ts';

/** What a regrade request is about: a rubric item or a comment thread (its first comment). */
export type RegradeAbout = { rubricItemId: number } | { commentId: number };

/** A regrade the student is about to ask for: what about, and how the dialog names it. */
export interface RegradeTarget {
  about: RegradeAbout;
  name: string;
}

/**
 * Under a rubric item or a thread: the student's request and the editor's answer once there is one;
 * else, for the author of a released review, the action that asks (one request per item).
 */
export function RegradeControl({
  request,
  target,
  onAsk,
}: {
  request: RegradeRequest | undefined;
  target: RegradeTarget;
  /** Null: the reader may not ask (an editor previewing, or not released). */
  onAsk: ((target: RegradeTarget) => void) | null;
}) {
  const { t } = useTranslation();
  if (request) return <RegradeStatus request={request} />;
  if (!onAsk) return null;
  return (
    <Button
      variant="subtle"
      size="compact-sm"
      leftSection={<IconMessageQuestion size={16} aria-hidden />}
      aria-label={t('feedback.regrade.actionNamed', { name: target.name })}
      onClick={() => onAsk(target)}
      style={{ alignSelf: 'flex-start' }}
    >
      {t('feedback.regrade.action')}
    </Button>
  );
}

function RegradeStatus({ request }: { request: RegradeRequest }) {
  const { t, i18n } = useTranslation();
  const format = useFormatters();
  const isAnswered = request.status === 'answered';
  return (
    <Stack gap={4}>
      <Badge variant="light" color={isAnswered ? 'teal' : 'orange'} style={{ alignSelf: 'flex-start' }}>
        {isAnswered ? t('feedback.regrade.answered') : t('feedback.regrade.requested')}
      </Badge>
      <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {t('feedback.regrade.yourReason', {
          date: format.dateTime(request.created_at),
          reason: request.reason,
        })}
      </Text>
      {isAnswered ? (
        <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {t('feedback.regrade.answer', {
            name: request.answered_by ? memberName(request.answered_by, i18n.language) : '–',
            date: request.answered_at ? format.dateTime(request.answered_at) : '–',
            answer: request.answer,
          })}
        </Text>
      ) : null}
    </Stack>
  );
}
