import { Button, Group, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconNotebook, IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { WorkbookConfig, WorkbookSession } from '@kadai/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { useSession } from '../auth/session.ts';
import { useNow } from '../quizzes/timer.ts';
import { ConfigCard } from './ConfigCard.tsx';
import { ConfigEditorModal } from './ConfigEditorModal.tsx';
import { MySessionCard, OthersSessions } from './LiveSessions.tsx';
import { findMyLiveSession, othersLiveSessions } from './session-time.ts';
import { useConfigMutations } from './useConfigMutations.tsx';
import { useSessionActions } from './useSessionActions.tsx';
import { workbookConfigsQuery, workbookSessionsQuery } from './workbooks.queries.ts';

/**
 * The course's configurations, each opening a session; the person's running session on top. Editors
 * and staff also create, edit and delete configurations and see who else has a kernel running.
 */
export function ConfigList({ courseId, onOpen }: { courseId: number; onOpen: (workbookId: number) => void }) {
  const { t } = useTranslation();
  const userId = useSession((s) => s.userId);
  const configs = useQuery(workbookConfigsQuery(courseId));
  const sessions = useQuery(workbookSessionsQuery(courseId));
  const now = useNow(true);
  const actions = useSessionActions(courseId);
  const { confirmDelete } = useConfigMutations(courseId);
  const [editing, setEditing] = useState<WorkbookConfig | 'new' | null>(null);

  const data = configs.data;
  const allSessions = sessions.data?.results ?? [];
  const mine = findMyLiveSession(allSessions, userId, now);
  const byId = new Map((data?.results ?? []).map((config) => [config.id, config]));
  const openedFrom = (session: WorkbookSession) => onOpen(session.workbookId);

  const open = (config: WorkbookConfig) => {
    if (mine?.configId === config.id) onOpen(mine.workbookId);
    else if (mine) actions.confirmSwitch(mine, config, openedFrom);
    else actions.start.mutate(config.id, { onSuccess: openedFrom });
  };

  const heading = (
    <Group justify="space-between" align="flex-end">
      <Title order={1}>{t('routes.workbook')}</Title>
      {data?.can_manage ? (
        <Button leftSection={<IconPlus size={18} aria-hidden />} onClick={() => setEditing('new')}>
          {t('workbook.configs.new')}
        </Button>
      ) : null}
    </Group>
  );

  if (configs.isError) {
    return (
      <>
        {heading}
        <ErrorState error={configs.error} onRetry={() => void configs.refetch()} />
      </>
    );
  }

  return (
    <>
      {heading}
      {mine ? (
        <MySessionCard
          session={mine}
          config={byId.get(mine.configId)}
          now={now}
          onResume={() => onOpen(mine.workbookId)}
          onEnd={() => actions.confirmEnd(mine)}
          ending={actions.end.isPending}
        />
      ) : null}
      {!data ? (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} aria-busy="true">
          {Array.from({ length: 3 }, (_, i) => (
            <Skeleton key={i} height={180} />
          ))}
        </SimpleGrid>
      ) : data.results.length === 0 ? (
        <Stack align="center" py="xl" gap="xs">
          <IconNotebook size={40} aria-hidden color="var(--mantine-color-dimmed)" />
          <Text c="dimmed">
            {data.can_manage ? t('workbook.configs.emptyManager') : t('workbook.configs.empty')}
          </Text>
        </Stack>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
          {data.results.map((config) => (
            <ConfigCard
              key={config.id}
              config={config}
              onOpen={() => open(config)}
              opening={actions.start.isPending && actions.start.variables === config.id}
              manage={
                data.can_manage
                  ? { onEdit: () => setEditing(config), onDelete: () => confirmDelete(config) }
                  : undefined
              }
            />
          ))}
        </SimpleGrid>
      )}
      {data?.can_manage ? (
        <OthersSessions
          sessions={othersLiveSessions(allSessions, userId, now)}
          configs={byId}
          now={now}
          onEnd={(session) => actions.confirmEnd(session)}
        />
      ) : null}
      {editing !== null ? (
        <ConfigEditorModal
          courseId={courseId}
          config={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
        />
      ) : null}
    </>
  );
}
