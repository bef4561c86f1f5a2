import {
  ActionIcon,
  Button,
  Group,
  Paper,
  Select,
  Skeleton,
  Stack,
  Text,
  Textarea,
  Tooltip,
} from '@mantine/core';
import { IconEdit, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { Feedback } from '@kadai/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '../../i18n/format.ts';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { errorMessage } from '../../ui/errors.ts';
import { notifyError, notifySuccess } from '../../ui/notify.ts';
import { memberName } from '../courses/member-name.ts';
import { feedbackQuery, skillsQuery } from './assessment.queries.ts';
import { useAssessmentMutations } from './useAssessmentMutations.tsx';

const MAX_BODY = 5000;

/** Write feedback (`editing` null) or change one; editors only. */
function FeedbackForm({
  courseId,
  userId,
  editing,
  onDone,
}: {
  courseId: number;
  userId: number;
  editing: Feedback | null;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const { saveFeedback } = useAssessmentMutations(courseId);
  const skills = useQuery(skillsQuery(courseId));
  const [body, setBody] = useState(editing?.body ?? '');
  const [skill, setSkill] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!body.trim()) {
      setError(t('assessment.feedback.empty'));
      return;
    }
    saveFeedback.mutate(
      {
        id: editing?.id ?? null,
        body: { course: courseId, user: userId, skill: skill === null ? null : Number(skill), body },
      },
      {
        onSuccess: () => {
          notifySuccess(t('assessment.feedback.saved'));
          setBody('');
          setSkill(null);
          onDone();
        },
        onError: (failure) => notifyError(errorMessage(failure, t)),
      },
    );
  };

  return (
    <form noValidate onSubmit={submit}>
      <Stack gap="xs">
        <Textarea
          label={editing ? t('assessment.feedback.editLabel') : t('assessment.feedback.write')}
          autosize
          minRows={3}
          maxLength={MAX_BODY}
          value={body}
          error={error}
          onChange={(event) => {
            setBody(event.currentTarget.value);
            setError(null);
          }}
        />
        <Group align="flex-end" justify="space-between">
          {editing ? (
            <span />
          ) : (
            <Select
              label={t('assessment.feedback.skill')}
              placeholder={t('assessment.feedback.noSkill')}
              clearable
              data={(skills.data?.results ?? []).map((item) => ({
                value: String(item.id),
                label: item.name,
              }))}
              value={skill}
              onChange={setSkill}
            />
          )}
          <Group gap="xs">
            {editing ? (
              <Button variant="default" onClick={onDone}>
                {t('common.cancel')}
              </Button>
            ) : null}
            <Button type="submit" loading={saveFeedback.isPending}>
              {editing ? t('common.save') : t('assessment.feedback.send')}
            </Button>
          </Group>
        </Group>
      </Stack>
    </form>
  );
}

/** Feedback to one student, newest first: the student reads it, editors also write, edit and delete. */
export function FeedbackSection({
  courseId,
  userId,
  canManage,
}: {
  courseId: number;
  userId: number;
  canManage: boolean;
}) {
  const { t, i18n } = useTranslation();
  const format = useFormatters();
  const feedback = useQuery(feedbackQuery(courseId, userId));
  const mutations = useAssessmentMutations(courseId);
  const [editing, setEditing] = useState<Feedback | null>(null);

  if (feedback.isError) return <ErrorState error={feedback.error} onRetry={() => void feedback.refetch()} />;
  const list = feedback.data?.results;

  return (
    <Stack>
      {!list ? (
        <Skeleton height={80} aria-busy="true" />
      ) : list.length === 0 ? (
        <Text c="dimmed">{t('assessment.feedback.none')}</Text>
      ) : (
        <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
          {list.map((item) => (
            <Paper key={item.id} withBorder p="sm" component="li">
              {editing?.id === item.id ? (
                <FeedbackForm
                  courseId={courseId}
                  userId={userId}
                  editing={item}
                  onDone={() => setEditing(null)}
                />
              ) : (
                <>
                  <Group justify="space-between" align="flex-start" wrap="nowrap">
                    <Text size="xs" c="dimmed">
                      {t('assessment.feedback.byline', {
                        author: item.author
                          ? memberName(item.author, i18n.language)
                          : t('assessment.feedback.unknownAuthor'),
                        date: format.dateTime(item.updated_at),
                      })}
                      {item.skill ? ` · ${t('assessment.workshops.forSkill', { skill: item.skill })}` : ''}
                    </Text>
                    {canManage ? (
                      <Group gap={4} wrap="nowrap">
                        <Tooltip label={t('assessment.feedback.edit')}>
                          <ActionIcon
                            variant="subtle"
                            aria-label={t('assessment.feedback.edit')}
                            onClick={() => setEditing(item)}
                          >
                            <IconEdit size={16} aria-hidden />
                          </ActionIcon>
                        </Tooltip>
                        <Tooltip label={t('assessment.feedback.delete')}>
                          <ActionIcon
                            variant="subtle"
                            color="red"
                            aria-label={t('assessment.feedback.delete')}
                            onClick={() => mutations.confirmDeleteFeedback(item)}
                          >
                            <IconTrash size={16} aria-hidden />
                          </ActionIcon>
                        </Tooltip>
                      </Group>
                    ) : null}
                  </Group>
                  <Text size="sm" style={{ whiteSpace: 'pre-wrap' }} mt={4}>
                    {item.body}
                  </Text>
                </>
              )}
            </Paper>
          ))}
        </Stack>
      )}
      {canManage && editing === null ? (
        <FeedbackForm courseId={courseId} userId={userId} editing={null} onDone={() => undefined} />
      ) : null}
    </Stack>
  );
}
