import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { WorkbookConfig, WorkbookConfigCreate, WorkbookConfigUpdate } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../ui/errors.ts';
import { notifyError, notifySuccess } from '../../ui/notify.ts';
import { createWorkbookConfig, deleteWorkbookConfig, updateWorkbookConfig } from './workbooks.api.ts';
import { workbookKeys } from './workbooks.queries.ts';

/** Editors' changes to the course's configurations; each refreshes the list and the changed one. */
export function useConfigMutations(courseId: number) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const refresh = (config?: WorkbookConfig) => {
    if (config) queryClient.setQueryData(workbookKeys.config(config.id), config);
    return queryClient.invalidateQueries({ queryKey: workbookKeys.configs(courseId) });
  };

  const create = useMutation({
    mutationFn: (body: WorkbookConfigCreate) => createWorkbookConfig(body),
    onSuccess: refresh,
  });
  const update = useMutation({
    mutationFn: ({ id, body }: { id: number; body: WorkbookConfigUpdate }) => updateWorkbookConfig(id, body),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (config: WorkbookConfig) => deleteWorkbookConfig(config.id),
    onSuccess: (_nothing, config) => {
      queryClient.removeQueries({ queryKey: workbookKeys.config(config.id) });
      notifySuccess(t('workbook.configs.deleted', { name: config.name }));
      return refresh();
    },
    onError: (error) => notifyError(errorMessage(error, t)),
  });

  const confirmDelete = (config: WorkbookConfig) =>
    modals.openConfirmModal({
      title: t('workbook.configs.deleteTitle', { name: config.name }),
      children: (
        <Text size="sm">
          {t('common.confirmDelete')} {t('workbook.configs.deleteNote')}
        </Text>
      ),
      labels: { confirm: t('common.delete'), cancel: t('common.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () => remove.mutate(config),
    });

  return { create, update, confirmDelete };
}
