import { Alert, Button, Group, List, Text } from '@mantine/core';
import { IconPlayerPlay, IconPlayerStop, IconUsers } from '@tabler/icons-react';
import type { WorkbookConfig, WorkbookSession } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';
import { Section } from '../../ui/Section.tsx';
import { formatRemaining } from '../quizzes/timer.ts';
import { msLeft } from './session-time.ts';

/** The person's own running session, above the configurations: resume it or end it. */
export function MySessionCard({
  session,
  config,
  now,
  onResume,
  onEnd,
  ending,
}: {
  session: WorkbookSession;
  config: WorkbookConfig | undefined;
  now: number;
  onResume: () => void;
  onEnd: () => void;
  ending: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Alert
      role="status"
      color="blue"
      variant="light"
      title={t('workbook.mine.title')}
      icon={<IconPlayerPlay aria-hidden />}
    >
      <Text size="sm">
        {t('workbook.mine.text', {
          name: config?.name ?? t('workbook.session.unknownConfig'),
          time: formatRemaining(msLeft(session, now)),
        })}
      </Text>
      <Group gap="xs" mt="sm">
        <Button size="xs" onClick={onResume}>
          {t('workbook.mine.resume')}
        </Button>
        <Button
          size="xs"
          variant="default"
          color="red"
          leftSection={<IconPlayerStop size={14} aria-hidden />}
          onClick={onEnd}
          loading={ending}
        >
          {t('workbook.session.end')}
        </Button>
      </Group>
    </Alert>
  );
}

/** Editors see the other live sessions of the course, and may end one to free a kernel. */
export function OthersSessions({
  sessions,
  configs,
  now,
  onEnd,
}: {
  sessions: readonly WorkbookSession[];
  configs: ReadonlyMap<number, WorkbookConfig>;
  now: number;
  onEnd: (session: WorkbookSession) => void;
}) {
  const { t } = useTranslation();
  if (sessions.length === 0) return null;
  return (
    <Section title={t('workbook.others.title', { count: sessions.length })} order={2}>
      <List spacing="xs" listStyleType="none" p={0} icon={<IconUsers size={16} aria-hidden />}>
        {sessions.map((session) => (
          <List.Item key={session.workbookId}>
            <Group gap="sm" wrap="wrap">
              <Text size="sm">
                {t('workbook.others.row', {
                  user: session.userId,
                  name: configs.get(session.configId)?.name ?? t('workbook.session.unknownConfig'),
                  time: formatRemaining(msLeft(session, now)),
                })}
              </Text>
              <Button
                size="compact-xs"
                variant="subtle"
                color="red"
                onClick={() => onEnd(session)}
                aria-label={t('workbook.others.endFor', { user: session.userId })}
              >
                {t('workbook.session.end')}
              </Button>
            </Group>
          </List.Item>
        ))}
      </List>
    </Section>
  );
}
