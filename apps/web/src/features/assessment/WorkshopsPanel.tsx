import { Button, Group, Skeleton, Stack, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { Workshop } from '@kadai/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { Pager } from '../../ui/Pager.tsx';
import { PARTICIPANT_PAGE_SIZE } from './assessment.api.ts';
import { workshopsQuery } from './assessment.queries.ts';
import { useAssessmentMutations } from './useAssessmentMutations.tsx';
import { WorkshopCard } from './WorkshopCard.tsx';
import { WorkshopEditorModal } from './WorkshopEditorModal.tsx';

/**
 * Workshops of a course. Editors (`canManage`) see every workshop (or, with `userId`, those of one
 * student), create, edit and delete them and mark attendance; a student sees those they take part in.
 */
export function WorkshopsPanel({
  courseId,
  userId,
  canManage,
}: {
  courseId: number;
  userId: number | null;
  canManage: boolean;
}) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const workshops = useQuery(workshopsQuery(courseId, userId, (page - 1) * PARTICIPANT_PAGE_SIZE));
  const mutations = useAssessmentMutations(courseId);
  const [editing, setEditing] = useState<Workshop | 'new' | null>(null);

  if (workshops.isError)
    return <ErrorState error={workshops.error} onRetry={() => void workshops.refetch()} />;
  const data = workshops.data;
  const totalPages = data ? Math.max(1, Math.ceil(data.count / PARTICIPANT_PAGE_SIZE)) : 1;

  return (
    <Stack>
      {canManage ? (
        <Group justify="flex-end">
          <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setEditing('new')}>
            {t('assessment.workshops.new')}
          </Button>
        </Group>
      ) : null}
      {!data ? (
        <Skeleton height={100} aria-busy="true" />
      ) : data.results.length === 0 ? (
        <Text c="dimmed">
          {canManage ? t('assessment.workshops.emptyManager') : t('assessment.workshops.empty')}
        </Text>
      ) : (
        data.results.map((workshop) => (
          <WorkshopCard
            key={workshop.id}
            workshop={workshop}
            mutations={canManage ? mutations : undefined}
            onEdit={canManage ? () => setEditing(workshop) : undefined}
            onlyUserId={userId ?? undefined}
          />
        ))
      )}
      <Pager total={totalPages} value={page} onChange={setPage} />
      {editing !== null ? (
        <WorkshopEditorModal
          courseId={courseId}
          workshop={editing === 'new' ? null : editing}
          mutations={mutations}
          onClose={() => setEditing(null)}
        />
      ) : null}
    </Stack>
  );
}
