import { Box, Group, Paper, Text, VisuallyHidden } from '@mantine/core';
import { IconClock } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifications } from '@mantine/notifications';
import { dueWarning, formatRemaining, remainingMs, useNow } from './timer.ts';

/**
 * Stays at the top while the student scrolls: how many questions are answered and, for a timed
 * attempt, the time left. The clock is a `timer` (not read out every second); the warnings at five and
 * one minute and "time is up" are announced once each and shown as notifications.
 */
export function QuizStatusBar({
  answered,
  total,
  deadline,
  onExpire,
}: {
  answered: number;
  total: number;
  /** Null: no time limit. */
  deadline: string | null;
  onExpire: () => void;
}) {
  const { t } = useTranslation();
  const now = useNow(deadline !== null);
  const remaining = deadline === null ? null : remainingMs(deadline, now);
  const [announcement, setAnnouncement] = useState('');
  const lastWarned = useRef<number | null>(null);
  const expired = useRef(false);
  const onExpireRef = useRef(onExpire);
  useEffect(() => {
    onExpireRef.current = onExpire;
  });

  useEffect(() => {
    if (remaining === null) return;
    if (remaining === 0) {
      if (!expired.current) {
        expired.current = true;
        setAnnouncement(t('quiz.take.timeUp'));
        onExpireRef.current();
      }
      return;
    }
    const warning = dueWarning(remaining, lastWarned.current);
    if (warning !== null) {
      lastWarned.current = warning;
      const message = t('quiz.take.timeWarning', { count: Math.round(warning / 60_000) });
      setAnnouncement(message);
      notifications.show({
        color: 'orange',
        message,
        autoClose: 10_000,
        closeButtonProps: { 'aria-label': t('common.dismiss') },
      });
    }
  }, [remaining, t]);

  const percent = total === 0 ? 0 : Math.round((answered / total) * 100);
  const urgent = remaining !== null && remaining <= 60_000;
  return (
    <Paper
      withBorder
      radius="md"
      px="md"
      py="xs"
      shadow="xs"
      style={{ position: 'sticky', top: 'var(--app-shell-header-offset, 0px)', zIndex: 5 }}
    >
      <Group justify="space-between" gap="md" wrap="wrap">
        <Box style={{ flex: 1, minWidth: 180 }}>
          <Text size="sm" fw={600}>
            {t('quiz.take.progress', { answered, total })}
          </Text>
          <Box
            aria-hidden
            mt={4}
            h={6}
            style={{ borderRadius: 3, background: 'var(--mantine-color-default-border)', overflow: 'hidden' }}
          >
            <Box h="100%" w={`${percent}%`} bg="var(--mantine-primary-color-filled)" />
          </Box>
        </Box>
        {remaining !== null ? (
          <Group gap={6} c={urgent ? 'var(--mantine-color-error)' : undefined}>
            <IconClock size={18} aria-hidden />
            <Text size="sm">{t('quiz.take.timeLeft')}</Text>
            <Text fw={700} ff="monospace" size="lg" role="timer">
              {formatRemaining(remaining)}
            </Text>
          </Group>
        ) : null}
      </Group>
      <VisuallyHidden aria-live="polite">{announcement}</VisuallyHidden>
    </Paper>
  );
}
