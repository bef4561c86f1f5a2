import { Group, Progress, Stack, Text } from '@mantine/core';
import type { ReviewQueue } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';

/** How far grading has come: graded of submitted, and how many students see theirs. */
export function QueueProgress({ progress }: { progress: ReviewQueue['progress'] }) {
  const { t } = useTranslation();
  const share = progress.submitted === 0 ? 0 : (progress.graded / progress.submitted) * 100;
  return (
    <Stack gap={6}>
      <Group gap="lg" wrap="wrap">
        <Text size="sm" fw={600}>
          {t('grading.progress.graded', { graded: progress.graded, count: progress.submitted })}
        </Text>
        <Text size="sm">
          {t('grading.progress.toGrade', { count: Math.max(progress.submitted - progress.graded, 0) })}
        </Text>
        <Text size="sm">{t('grading.progress.released', { count: progress.released })}</Text>
        <Text size="sm" c="dimmed">
          {t('grading.progress.notSubmitted', { count: progress.students - progress.submitted })}
        </Text>
      </Group>
      <Progress value={share} aria-label={t('grading.progress.label')} />
    </Stack>
  );
}
