import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconTrash } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Course } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { pathTo } from '../../routes/route-table.ts';
import { errorMessage } from '../../ui/errors.ts';
import { notifyError, notifySuccess } from '../../ui/notify.ts';
import { deleteCourse } from './courses.api.ts';
import { courseKeys } from './courses.queries.ts';

export function DeleteCourseSection({ course }: { course: Course }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: () => deleteCourse(course.id),
    onSuccess: async () => {
      notifySuccess(t('settings.deleted', { title: course.title }));
      navigate(pathTo('Course'), { replace: true });
      queryClient.removeQueries({ queryKey: courseKeys.detail(course.id) });
      await queryClient.invalidateQueries({ queryKey: courseKeys.lists() });
    },
    onError: (error) => notifyError(errorMessage(error, t), { title: t('settings.deleteFailed') }),
  });

  const confirm = () =>
    modals.openConfirmModal({
      title: t('settings.deleteCourse'),
      children: (
        <Stack gap="xs">
          <Text size="sm">{t('common.confirmDelete')}</Text>
          <Text size="sm" fw={600}>
            {course.title}
          </Text>
        </Stack>
      ),
      labels: { confirm: t('common.delete'), cancel: t('common.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () => remove.mutate(),
    });

  return (
    <Paper withBorder p="lg" radius="md" style={{ borderColor: 'var(--mantine-color-red-outline)' }}>
      <Stack gap="xs">
        <Title order={2} size="h4">
          {t('settings.dangerZone')}
        </Title>
        <Text size="sm">{t('settings.deleteHelp')}</Text>
        <Group>
          <Button
            color="red"
            variant="outline"
            leftSection={<IconTrash size={16} aria-hidden />}
            onClick={confirm}
            loading={remove.isPending}
          >
            {t('settings.deleteCourse')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
