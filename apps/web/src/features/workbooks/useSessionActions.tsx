import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { WorkbookConfig, WorkbookSession } from '@kadai/contracts';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/client.ts';
import { formatTime } from '../../i18n/format.ts';
import { errorMessage } from '../../ui/errors.ts';
import { notifyError, notifySuccess } from '../../ui/notify.ts';
import {
  endWorkbookSession,
  extendWorkbookSession,
  interruptKernel,
  restartKernel,
  startWorkbookSession,
} from './workbooks.api.ts';
import { workbookKeys } from './workbooks.queries.ts';

/** Why a session did not open, in words: a full server says when to try again. */
export function startErrorMessage(error: unknown, t: TFunction): string {
  if (isApiError(error, 429))
    return t('workbook.errors.capacity', { seconds: error.retryAfterSeconds ?? 60 });
  return errorMessage(error, t);
}

/**
 * Opening, ending, extending sessions, restarting and interrupting their kernels; each keeps the cached
 * session and list current.
 */
export function useSessionActions(courseId: number) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const refreshList = () => queryClient.invalidateQueries({ queryKey: workbookKeys.sessions(courseId) });
  const remember = (session: WorkbookSession) =>
    queryClient.setQueryData(workbookKeys.session(session.workbookId), session);
  const notify = (error: unknown) => notifyError(errorMessage(error, t));

  const start = useMutation({
    mutationFn: (configId: number) => startWorkbookSession({ course: courseId, config: configId }),
    onSuccess: (session) => {
      remember(session);
      void refreshList();
    },
    onError: (error) => {
      notifyError(startErrorMessage(error, t));
      // Someone (this person in another tab) opened a session meanwhile: show it.
      if (isApiError(error, 409)) void refreshList();
    },
  });

  const end = useMutation({
    mutationFn: (session: WorkbookSession) => endWorkbookSession(session.workbookId),
    onSuccess: (_nothing, session) => {
      remember({ ...session, status: 'ended', ended_at: new Date().toISOString(), kernel_alive: false });
      void refreshList();
      notifySuccess(t('workbook.session.ended'));
    },
    onError: notify,
  });

  const extend = useMutation({
    mutationFn: ({ session, minutes }: { session: WorkbookSession; minutes: number }) =>
      extendWorkbookSession(session.workbookId, minutes),
    onSuccess: (session, { minutes }) => {
      remember(session);
      void refreshList();
      const time = formatTime(session.expires_at, i18n.language);
      notifySuccess(t('workbook.session.extended', { count: minutes, time }));
    },
    onError: notify,
  });

  const restart = useMutation({
    mutationFn: (session: WorkbookSession) => restartKernel(session.workbookId),
    onSuccess: (session) => {
      remember(session);
      notifySuccess(t('workbook.kernel.restarted'));
    },
    onError: notify,
  });

  /** The running cell stops with KeyboardInterrupt; its run's answer then says so under the cell. */
  const interrupt = useMutation({
    mutationFn: (session: WorkbookSession) => interruptKernel(session.workbookId),
    onError: notify,
  });

  const confirmEnd = (session: WorkbookSession, onEnded?: () => void) =>
    modals.openConfirmModal({
      title: t('workbook.session.endTitle'),
      children: <Text size="sm">{t('workbook.session.endConfirm')}</Text>,
      labels: { confirm: t('workbook.session.end'), cancel: t('common.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () => end.mutate(session, { onSuccess: () => onEnded?.() }),
    });

  const confirmRestart = (session: WorkbookSession, onRestarted: () => void) =>
    modals.openConfirmModal({
      title: t('workbook.kernel.restartTitle'),
      children: <Text size="sm">{t('workbook.kernel.restartConfirm')}</Text>,
      labels: { confirm: t('workbook.kernel.restart'), cancel: t('common.cancel') },
      confirmProps: { color: 'orange' },
      onConfirm: () => restart.mutate(session, { onSuccess: onRestarted }),
    });

  /** A person has one live session per course: opening another configuration ends the current one. */
  const confirmSwitch = (
    current: WorkbookSession,
    config: WorkbookConfig,
    onStarted: (session: WorkbookSession) => void,
  ) =>
    modals.openConfirmModal({
      title: t('workbook.session.switchTitle'),
      children: <Text size="sm">{t('workbook.session.switchConfirm', { name: config.name })}</Text>,
      labels: { confirm: t('workbook.session.switch'), cancel: t('common.cancel') },
      onConfirm: () =>
        end.mutate(current, {
          onSuccess: () => start.mutate(config.id, { onSuccess: onStarted }),
        }),
    });

  return { start, end, extend, restart, interrupt, confirmEnd, confirmRestart, confirmSwitch };
}
