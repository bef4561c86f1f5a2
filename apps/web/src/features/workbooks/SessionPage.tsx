import { Alert, Button, Group, Skeleton, Stack, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { WorkbookSession } from '@kadai/contracts';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { useSession } from '../auth/session.ts';
import { NotebookView } from './NotebookView.tsx';
import { SessionBar } from './SessionBar.tsx';
import { useSessionActions } from './useSessionActions.tsx';
import {
  myNotebookQuery,
  workbookConfigQuery,
  workbookKeys,
  workbookSessionQuery,
} from './workbooks.queries.ts';

/** The page of one session (`?session=ID`): its notebook, or why it cannot be shown. */
export function SessionPage({
  courseId,
  workbookId,
  onOpen,
  onLeave,
}: {
  courseId: number;
  workbookId: number;
  onOpen: (workbookId: number) => void;
  onLeave: () => void;
}) {
  const { t } = useTranslation();
  const userId = useSession((s) => s.userId);
  const session = useQuery(workbookSessionQuery(workbookId));
  const heading = <Title order={1}>{t('routes.workbook')}</Title>;
  const back = (
    <Group>
      <Button variant="default" leftSection={<IconArrowLeft size={16} aria-hidden />} onClick={onLeave}>
        {t('workbook.session.back')}
      </Button>
    </Group>
  );

  if (session.isError) {
    return (
      <>
        {heading}
        <ErrorState error={session.error} onRetry={() => void session.refetch()} />
        {back}
      </>
    );
  }
  if (!session.data) {
    return (
      <>
        {heading}
        <Skeleton height={360} aria-busy="true" />
      </>
    );
  }
  // Editors can see others' sessions in the list, but a notebook page is only ever the person's own.
  if (session.data.userId !== userId || session.data.courseId !== courseId) {
    return (
      <>
        {heading}
        <Alert color="orange">{t('workbook.session.notYours')}</Alert>
        {back}
      </>
    );
  }
  return (
    <>
      {heading}
      <OpenSession session={session.data} onOpen={onOpen} onLeave={onLeave} />
    </>
  );
}

function OpenSession({
  session,
  onOpen,
  onLeave,
}: {
  session: WorkbookSession;
  onOpen: (workbookId: number) => void;
  onLeave: () => void;
}) {
  const queryClient = useQueryClient();
  const config = useQuery(workbookConfigQuery(session.configId));
  const notebook = useQuery(myNotebookQuery(session.courseId, session.configId));
  const actions = useSessionActions(session.courseId);
  // The clock ran out here: over for this page even before the server says so.
  const [expiredId, setExpiredId] = useState<number | null>(null);
  const live = session.status === 'live' && expiredId !== session.workbookId;
  const workbookId = session.workbookId;
  const expire = useCallback(() => {
    setExpiredId(workbookId);
    void queryClient.invalidateQueries({ queryKey: workbookKeys.session(workbookId) });
    void queryClient.invalidateQueries({ queryKey: workbookKeys.sessions(session.courseId) });
  }, [queryClient, workbookId, session.courseId]);

  const header = (
    <SessionBar
      session={session}
      config={config.data}
      live={live}
      onExpire={expire}
      onExtend={(minutes) => actions.extend.mutate({ session, minutes })}
      extending={actions.extend.isPending}
      onOpenNew={() =>
        actions.start.mutate(session.configId, { onSuccess: (next) => onOpen(next.workbookId) })
      }
      opening={actions.start.isPending}
      onBack={onLeave}
    />
  );

  if (notebook.isError) return <ErrorState error={notebook.error} onRetry={() => void notebook.refetch()} />;
  if (!notebook.data) {
    return (
      <Stack>
        {header}
        <Skeleton height={320} aria-busy="true" />
      </Stack>
    );
  }
  return (
    // Keyed by the notebook, not the session: a new session of the same configuration keeps the
    // document being edited (and its unsaved changes) on the page.
    <NotebookView
      key={notebook.data.id}
      initial={notebook.data}
      session={session}
      live={live}
      limits={session}
      header={header}
      actions={actions}
      onLeave={onLeave}
    />
  );
}
