import { Badge, Button, Group, Stack, Text, Textarea } from '@mantine/core';
import type { RegradeRequest } from '@kadai/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '../../i18n/format.ts';
import { errorMessage } from '../../ui/errors.ts';
import { memberName } from '../courses/member-name.ts';
import { useAnswerRegrade } from './review.queries.ts';

/** What a request is about: a rubric item by title, or a comment thread. */
export function RegradeSubject({ request }: { request: RegradeRequest }) {
  const { t } = useTranslation();
  return (
    <Text size="sm" fw={600}>
      {request.rubric_item_id !== null
        ? t('grading.regrade.aboutItem', { title: request.rubric_item_title ?? '' })
        : t('grading.regrade.aboutComment')}
    </Text>
  );
}

/** One request: who asked what and why, and the answer, or a form to give it. */
export function RegradeAnswer({ request }: { request: RegradeRequest }) {
  const { t, i18n } = useTranslation();
  const format = useFormatters();
  const answer = useAnswerRegrade(request.course_id);
  const [text, setText] = useState('');
  return (
    <Stack gap={6}>
      <Group gap="xs" justify="space-between" wrap="wrap">
        <RegradeSubject request={request} />
        <Badge color={request.status === 'open' ? 'orange' : 'gray'} variant="light">
          {t(`grading.regrade.status.${request.status}`)}
        </Badge>
      </Group>
      <Text size="xs" c="dimmed">
        {t('grading.regrade.asked', {
          name: memberName(request.user, i18n.language),
          when: format.dateTime(request.created_at),
        })}
      </Text>
      <Text size="sm" style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
        {request.reason}
      </Text>
      {request.status === 'answered' ? (
        <Stack gap={2} pl="sm" style={{ borderLeft: '3px solid var(--mantine-color-default-border)' }}>
          <Text size="xs" c="dimmed">
            {t('grading.regrade.answeredBy', {
              name: request.answered_by ? memberName(request.answered_by, i18n.language) : '–',
              when: request.answered_at ? format.dateTime(request.answered_at) : '',
            })}
          </Text>
          <Text size="sm" style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
            {request.answer}
          </Text>
        </Stack>
      ) : (
        <Stack gap={4}>
          <Textarea
            label={t('grading.regrade.answer')}
            description={t('grading.regrade.answerHint')}
            autosize
            minRows={2}
            maxLength={2000}
            value={text}
            error={answer.isError ? errorMessage(answer.error, t) : null}
            onChange={(event) => setText(event.currentTarget.value)}
          />
          <Group justify="flex-end">
            <Button
              size="xs"
              loading={answer.isPending}
              disabled={!text.trim()}
              onClick={() => answer.mutate({ id: request.id, answer: text.trim() })}
            >
              {t('grading.regrade.send')}
            </Button>
          </Group>
        </Stack>
      )}
    </Stack>
  );
}
