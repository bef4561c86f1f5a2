import { Button, Menu, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconEye, IconEyeOff } from '@tabler/icons-react';
import type { ReviewQueue } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../ui/errors.ts';
import { notifyError, notifySuccess } from '../../ui/notify.ts';
import type { AssignmentRef } from './review.api.ts';
import { useReleaseMutations } from './review.queries.ts';

/**
 * Release (the graded reviews, or the drafts too) and hide again. Each asks first, saying how many
 * students it concerns, since students see their grading the moment it is released.
 */
export function ReleaseButtons({ queue, assignment }: { queue: ReviewQueue; assignment: AssignmentRef }) {
  const { t } = useTranslation();
  const { release, retract } = useReleaseMutations(assignment);
  const unreleased = queue.rows.filter((row) => row.released_at === null && row.status !== 'none');
  const graded = unreleased.filter((row) => row.status === 'graded').length;
  const counts = { graded: graded, all: unreleased.length };

  const confirmRelease = (scope: 'graded' | 'all') =>
    modals.openConfirmModal({
      title: t('grading.release.title'),
      children: (
        <Text size="sm">
          {scope === 'graded'
            ? t('grading.release.confirmGraded', { count: counts.graded })
            : t('grading.release.confirmAll', { count: counts.all })}
        </Text>
      ),
      labels: { confirm: t('grading.release.action'), cancel: t('common.cancel') },
      onConfirm: () =>
        release.mutate(scope, {
          onSuccess: (result) => notifySuccess(t('grading.release.done', { count: result.released })),
          onError: (error) => notifyError(errorMessage(error, t)),
        }),
    });

  const confirmRetract = () =>
    modals.openConfirmModal({
      title: t('grading.retract.title'),
      children: <Text size="sm">{t('grading.retract.confirm', { count: queue.progress.released })}</Text>,
      labels: { confirm: t('grading.retract.action'), cancel: t('common.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () =>
        retract.mutate(undefined, {
          onSuccess: (result) => notifySuccess(t('grading.retract.done', { count: result.retracted })),
          onError: (error) => notifyError(errorMessage(error, t)),
        }),
    });

  return (
    <>
      <Menu position="bottom-end">
        <Menu.Target>
          <Button
            leftSection={<IconEye size={16} aria-hidden />}
            loading={release.isPending}
            disabled={counts.all === 0}
          >
            {t('grading.release.action')}
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item onClick={() => confirmRelease('graded')} disabled={counts.graded === 0}>
            {t('grading.release.graded', { count: counts.graded })}
          </Menu.Item>
          <Menu.Item onClick={() => confirmRelease('all')}>
            {t('grading.release.all', { count: counts.all })}
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <Button
        variant="default"
        leftSection={<IconEyeOff size={16} aria-hidden />}
        loading={retract.isPending}
        disabled={queue.progress.released === 0}
        onClick={confirmRetract}
      >
        {t('grading.retract.action')}
      </Button>
    </>
  );
}
