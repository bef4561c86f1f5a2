import {
  ActionIcon,
  Badge,
  Group,
  Paper,
  SegmentedControl,
  Stack,
  Table,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconCalendarEvent, IconEdit, IconMapPin, IconTrash } from '@tabler/icons-react';
import { WORKSHOP_STATUSES, type Workshop, type WorkshopStatus } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '../../i18n/format.ts';
import { errorMessage } from '../../ui/errors.ts';
import { notifyError } from '../../ui/notify.ts';
import { memberName } from '../courses/member-name.ts';
import type { useAssessmentMutations } from './useAssessmentMutations.tsx';
import { withStatus } from './workshop-form.ts';

const STATUS_COLORS: Record<WorkshopStatus, string> = { invited: 'blue', attended: 'teal', absent: 'orange' };

export function StatusBadge({ status }: { status: WorkshopStatus }) {
  const { t } = useTranslation();
  return (
    <Badge variant="light" color={STATUS_COLORS[status]}>
      {t(`assessment.workshops.status.${status}`)}
    </Badge>
  );
}

/**
 * One workshop: when, where, for which skill, and its participants. Editors (`mutations` given) mark
 * each person attended or absent, and edit or delete the workshop; `onlyUserId` shows one person's row.
 */
export function WorkshopCard({
  workshop,
  mutations,
  onEdit,
  onlyUserId,
}: {
  workshop: Workshop;
  mutations?: ReturnType<typeof useAssessmentMutations>;
  onEdit?: () => void;
  onlyUserId?: number;
}) {
  const { t, i18n } = useTranslation();
  const format = useFormatters();
  const people =
    onlyUserId === undefined
      ? workshop.participants
      : workshop.participants.filter((participant) => participant.user.id === onlyUserId);
  const setStatus = (userId: number, status: WorkshopStatus) =>
    mutations?.updateWorkshop.mutate(
      { id: workshop.id, body: { participants: withStatus(workshop, userId, status) } },
      { onError: (error) => notifyError(errorMessage(error, t)) },
    );

  return (
    <Paper withBorder p="md" component="article" aria-label={workshop.title}>
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <Stack gap={4}>
          <Title order={3} size="h5">
            {workshop.title}
          </Title>
          <Group gap="md">
            <Group gap={4} wrap="nowrap">
              <IconCalendarEvent size={14} aria-hidden />
              <Text size="sm">
                {format.dateTimeRange(workshop.starts_at, workshop.ends_at, { zone: true })}
              </Text>
            </Group>
            {workshop.location ? (
              <Group gap={4} wrap="nowrap">
                <IconMapPin size={14} aria-hidden />
                <Text size="sm">{workshop.location}</Text>
              </Group>
            ) : null}
            {workshop.skill ? (
              <Badge variant="outline" color="gray">
                {t('assessment.workshops.forSkill', { skill: workshop.skill })}
              </Badge>
            ) : null}
          </Group>
          {workshop.description ? (
            <Text size="sm" c="dimmed" style={{ whiteSpace: 'pre-wrap' }}>
              {workshop.description}
            </Text>
          ) : null}
        </Stack>
        {mutations && onEdit ? (
          <Group gap={4} wrap="nowrap">
            <Tooltip label={t('assessment.workshops.edit', { title: workshop.title })}>
              <ActionIcon
                variant="subtle"
                aria-label={t('assessment.workshops.edit', { title: workshop.title })}
                onClick={onEdit}
              >
                <IconEdit size={16} aria-hidden />
              </ActionIcon>
            </Tooltip>
            <Tooltip label={t('assessment.workshops.delete', { title: workshop.title })}>
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={t('assessment.workshops.delete', { title: workshop.title })}
                onClick={() => mutations.confirmDeleteWorkshop(workshop)}
              >
                <IconTrash size={16} aria-hidden />
              </ActionIcon>
            </Tooltip>
          </Group>
        ) : null}
      </Group>
      {!mutations ? (
        people.map((participant) => (
          <Group key={participant.user.id} gap="xs" mt="xs">
            <Text size="sm">{t('assessment.workshops.yourStatus')}</Text>
            <StatusBadge status={participant.status} />
          </Group>
        ))
      ) : people.length === 0 ? (
        <Text size="sm" c="dimmed" mt="xs">
          {t('assessment.workshops.nobodyInvited')}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={360} mt="xs">
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('assessment.table.student')}</Table.Th>
                <Table.Th scope="col">{t('assessment.workshops.attendance')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {people.map((participant) => {
                const name = memberName(participant.user, i18n.language);
                return (
                  <Table.Tr key={participant.user.id}>
                    <Table.Th scope="row" fw={400}>
                      {name}
                    </Table.Th>
                    <Table.Td>
                      <SegmentedControl
                        size="xs"
                        aria-label={t('assessment.workshops.attendanceOf', { name })}
                        value={participant.status}
                        onChange={(value) => {
                          const status = WORKSHOP_STATUSES.find((candidate) => candidate === value);
                          if (status) setStatus(participant.user.id, status);
                        }}
                        data={WORKSHOP_STATUSES.map((status) => ({
                          value: status,
                          label: t(`assessment.workshops.status.${status}`),
                        }))}
                      />
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Paper>
  );
}
