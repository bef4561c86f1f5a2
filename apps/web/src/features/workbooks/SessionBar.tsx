import { Alert, Badge, Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconAlarm, IconArrowLeft, IconClock, IconPlayerPlay } from '@tabler/icons-react';
import { WORKBOOK_WARN_BEFORE_MINUTES, type WorkbookConfig, type WorkbookSession } from '@kadai/contracts';
import { useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../i18n/format.ts';
import { formatRemaining, useNow } from '../quizzes/timer.ts';
import { ExtendMenu } from './ExtendMenu.tsx';
import { isEndingSoon, msLeft } from './session-time.ts';

/**
 * The session at the top of the notebook: its configuration, the time left (live), Extend, and a
 * warning in its last minutes. When it is over it says so and offers a new session; the notebook
 * below stays readable and saved.
 */
export function SessionBar({
  session,
  config,
  live,
  onExpire,
  onExtend,
  extending,
  onOpenNew,
  opening,
  onBack,
}: {
  session: WorkbookSession;
  config: WorkbookConfig | undefined;
  live: boolean;
  onExpire: () => void;
  onExtend: (minutes: number) => void;
  extending: boolean;
  onOpenNew: () => void;
  opening: boolean;
  onBack: () => void;
}) {
  const { t, i18n } = useTranslation();
  const labelId = useId();
  const now = useNow(live);
  const left = msLeft(session, now);
  const onExpireRef = useRef(onExpire);
  useEffect(() => {
    onExpireRef.current = onExpire;
  });
  useEffect(() => {
    if (live && left === 0) onExpireRef.current();
  }, [live, left]);

  const endsAt = formatTime(session.expires_at, i18n.language);
  const warning = live && isEndingSoon(left);
  const extend = <ExtendMenu session={session} onExtend={onExtend} extending={extending} />;

  return (
    <Stack gap="xs">
      <Group justify="space-between" gap="sm" wrap="wrap">
        <Group gap="xs" wrap="nowrap">
          <Button
            variant="subtle"
            size="compact-sm"
            leftSection={<IconArrowLeft size={14} aria-hidden />}
            onClick={onBack}
          >
            {t('workbook.session.back')}
          </Button>
          <Title order={2} size="h4">
            {config?.name ?? t('workbook.session.unknownConfig')}
          </Title>
        </Group>
        {live ? (
          <Group gap="xs" wrap="wrap">
            <IconClock size={18} aria-hidden />
            <Text size="sm" id={labelId}>
              {t('workbook.session.timeLeft')}
            </Text>
            <Text
              role="timer"
              aria-labelledby={labelId}
              fw={700}
              ff="monospace"
              c={warning ? 'var(--mantine-color-error)' : undefined}
            >
              {formatRemaining(left)}
            </Text>
            <Text size="xs" c="dimmed">
              {t('workbook.session.endsAt', { time: endsAt })}
            </Text>
            {warning ? null : extend}
          </Group>
        ) : (
          <Badge color="gray" variant="light">
            {session.status === 'ended'
              ? t('workbook.session.statusEnded')
              : t('workbook.session.statusExpired')}
          </Badge>
        )}
      </Group>
      {warning ? (
        <Alert
          color="orange"
          role="alert"
          icon={<IconAlarm aria-hidden />}
          title={t('workbook.session.warningTitle')}
          py="xs"
        >
          <Group justify="space-between" gap="sm" wrap="wrap">
            <Text size="sm">{t('workbook.session.warning', { count: WORKBOOK_WARN_BEFORE_MINUTES })}</Text>
            {extend}
          </Group>
        </Alert>
      ) : null}
      {!live ? (
        <Alert
          color="blue"
          role="status"
          title={
            session.status === 'ended' ? t('workbook.session.endedTitle') : t('workbook.session.expiredTitle')
          }
          py="xs"
        >
          <Text size="sm">{t('workbook.session.overText')}</Text>
          <Group mt="xs">
            <Button
              size="xs"
              leftSection={<IconPlayerPlay size={14} aria-hidden />}
              onClick={onOpenNew}
              loading={opening}
            >
              {t('workbook.session.openNew')}
            </Button>
          </Group>
        </Alert>
      ) : null}
    </Stack>
  );
}
