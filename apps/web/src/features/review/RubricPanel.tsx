import {
  Alert,
  Button,
  Checkbox,
  Group,
  Kbd,
  NumberInput,
  Stack,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { IconAlertTriangle, IconRefresh } from '@tabler/icons-react';
import { MAX_COMMENT_LENGTH, type Review } from '@kadai/contracts';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/client.ts';
import { useFormatters } from '../../i18n/format.ts';
import { errorMessage } from '../../ui/errors.ts';
import { notifySuccess } from '../../ui/notify.ts';
import { Section } from '../../ui/Section.tsx';
import { useGradingKeys } from './grading-keys.ts';
import type { AssignmentRef } from './review.api.ts';
import { useSaveReview } from './review.queries.ts';
import { reviewTotal, tickedPoints } from './review-score.ts';
import { groupRuns } from './rubric-form.ts';

function isConflict(error: unknown): boolean {
  return isApiError(error, 409) && error.body.code === 'review_conflict';
}

/**
 * The rubric of a grading: items to tick (1–9 toggle the first nine), an adjustment with its reason,
 * an overall comment, the total as it will count, and the two saves. A save sends the version read; on
 * 409 `review_conflict` nothing is overwritten: the editor reloads to see the other save.
 */
export function RubricPanel({
  review,
  assignment,
  onDirty,
  onReload,
}: {
  review: Review;
  assignment: AssignmentRef;
  onDirty: (dirty: boolean) => void;
  onReload: () => void;
}) {
  const { t } = useTranslation();
  const format = useFormatters();
  const save = useSaveReview(assignment, review.submission_id);
  const [ticked, setTicked] = useState(() => new Set(review.selected_item_ids));
  const [adjustment, setAdjustment] = useState(review.score.adjustment);
  const [reason, setReason] = useState(review.adjustment_reason);
  const [comment, setComment] = useState(review.comment);
  const [dirty, setDirty] = useState(false);
  const items = [...review.rubric.items].sort((a, b) => a.position - b.position);

  useEffect(() => onDirty(dirty), [dirty, onDirty]);
  const touch = () => setDirty(true);
  const toggle = (id: number) => {
    setTicked((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
    touch();
  };
  useGradingKeys((key) => {
    if (!/^[1-9]$/u.test(key)) return false;
    const item = items[Number(key) - 1];
    if (item) toggle(item.id);
    return item !== undefined;
  });

  const total = reviewTotal(review.rubric.settings, {
    autograde: review.score.autograde_score,
    rubricPoints: tickedPoints(items, ticked),
    adjustment,
    maxScore: review.score.max_score,
  });
  // A save changes the version, which remounts this panel (its key) before `mutate`'s own callbacks
  // would run, so they never did: the promise of `mutateAsync` settles whatever is mounted.
  const submit = (status: 'draft' | 'graded') =>
    save
      .mutateAsync({
        version: review.version,
        status,
        selected_item_ids: items.filter((item) => ticked.has(item.id)).map((item) => item.id),
        adjustment,
        adjustment_reason: reason.trim(),
        comment,
      })
      .then(
        () => {
          onDirty(false);
          notifySuccess(status === 'graded' ? t('grading.done.graded') : t('grading.done.draft'));
        },
        // The failure shows from `save.error` (the conflict with its reload).
        () => undefined,
      );
  const index = new Map(items.map((item, i) => [item.id, i]));

  return (
    <Section title={t('grading.rubric.title')}>
      <Stack gap="sm">
        {items.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('grading.rubric.none')}
          </Text>
        ) : null}
        {groupRuns(items).map((run, runIndex) => (
          <Stack
            key={`${run.group}-${runIndex}`}
            gap={6}
            role="group"
            aria-label={run.group || t('grading.rubric.ungrouped')}
          >
            {run.group ? (
              <Title order={3} size="h6">
                {run.group}
              </Title>
            ) : null}
            {run.items.map((item) => {
              const position = index.get(item.id) ?? 0;
              return (
                <Checkbox
                  key={item.id}
                  checked={ticked.has(item.id)}
                  onChange={() => toggle(item.id)}
                  label={
                    <Group gap={6} wrap="nowrap" align="flex-start">
                      {position < 9 ? <Kbd size="xs">{position + 1}</Kbd> : null}
                      <span>
                        {item.title}{' '}
                        {/* Teal on a checkbox label fell below AA contrast; the sign tells a bonus. */}
                        <Text span size="sm" c={item.points < 0 ? 'red' : undefined} fw={600}>
                          ({item.points > 0 ? '+' : ''}
                          {format.number(item.points)})
                        </Text>
                      </span>
                    </Group>
                  }
                  description={item.description || undefined}
                />
              );
            })}
          </Stack>
        ))}
        <Group gap="xs" align="flex-end" wrap="wrap">
          <NumberInput
            label={t('grading.rubric.adjustment')}
            value={adjustment}
            decimalScale={2}
            min={-1000}
            max={1000}
            w={140}
            onChange={(value) => {
              setAdjustment(typeof value === 'number' ? value : 0);
              touch();
            }}
          />
          <TextInput
            label={t('grading.rubric.reason')}
            value={reason}
            maxLength={500}
            style={{ flex: 1, minWidth: 160 }}
            onChange={(event) => {
              setReason(event.currentTarget.value);
              touch();
            }}
          />
        </Group>
        <Textarea
          label={t('grading.rubric.comment')}
          description={t('grading.markdownHint')}
          autosize
          minRows={3}
          maxLength={MAX_COMMENT_LENGTH}
          value={comment}
          onChange={(event) => {
            setComment(event.currentTarget.value);
            touch();
          }}
        />
        <Group justify="space-between" align="center" wrap="wrap" gap="xs">
          <Text fw={700} size="lg" aria-live="polite">
            {t('grading.rubric.total', {
              score: format.number(total),
              max: format.number(review.score.max_score),
            })}
          </Text>
          <Text size="xs" c="dimmed">
            {review.score.autograde_score === null
              ? t('grading.rubric.noAutograde')
              : t('grading.rubric.autograde', {
                  score: format.number(review.score.autograde_score),
                  max: format.number(review.score.autograde_max ?? 0),
                })}
          </Text>
        </Group>
        {save.isError ? (
          isConflict(save.error) ? (
            <Alert
              color="orange"
              icon={<IconAlertTriangle aria-hidden />}
              role="alert"
              title={t('grading.conflict.title')}
            >
              <Text size="sm">{t('grading.conflict.body')}</Text>
              <Button
                mt="xs"
                size="xs"
                leftSection={<IconRefresh size={14} aria-hidden />}
                onClick={onReload}
              >
                {t('grading.conflict.reload')}
              </Button>
            </Alert>
          ) : (
            <Alert color="red" role="alert">
              {errorMessage(save.error, t)}
            </Alert>
          )
        ) : null}
        <Group justify="flex-end" gap="xs">
          <Button
            variant="default"
            loading={save.isPending && save.variables.status === 'draft'}
            onClick={() => void submit('draft')}
          >
            {t('grading.saveDraft')}
          </Button>
          <Button
            loading={save.isPending && save.variables.status === 'graded'}
            onClick={() => void submit('graded')}
          >
            {t('grading.saveGraded')}
          </Button>
        </Group>
      </Stack>
    </Section>
  );
}
