import {
  ActionIcon,
  Anchor,
  Button,
  Checkbox,
  Group,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconSearch, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Member, MemberKind } from '@kadai/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { pathTo } from '../../routes/route-table.ts';
import { useFormatters } from '../../i18n/format.ts';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { errorMessage } from '../../ui/errors.ts';
import { notifyError, notifySuccess } from '../../ui/notify.ts';
import { useSession } from '../auth/session.ts';
import { AddMembersForm } from './AddMembersForm.tsx';
import { removeMembers } from './courses.api.ts';
import { courseKeys, membersQuery } from './courses.queries.ts';
import { memberName } from './member-name.ts';
import { PendingMembersList } from './PendingMembersList.tsx';
import { Pager } from '../../ui/Pager.tsx';

const ROWS_PER_PAGE = 50;

function matches(member: Member, filter: string): boolean {
  const needle = filter.toLowerCase();
  return [member.email, member.first_name, member.last_name].some((value) =>
    value.toLowerCase().includes(needle),
  );
}

/**
 * The editors or the students of a course: the list, the institutional ids still waiting for their
 * person's first sign-in and, when `canChange`, removal and adding by e-mail, CSV or institutional id
 * (editors of a course read its editor list but only staff change it).
 */
export function MembersPanel({
  courseId,
  kind,
  canChange,
}: {
  courseId: number;
  kind: MemberKind;
  canChange: boolean;
}) {
  const { t, i18n } = useTranslation();
  const format = useFormatters();
  const queryClient = useQueryClient();
  const members = useQuery(membersQuery(courseId, kind));
  // Staff open anyone's profile (to reset a password, fix a name); editors see the list only.
  const isStaff = useSession((s) => s.is_staff);
  const [filter, setFilter] = useState('');
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());

  const remove = useMutation({
    mutationFn: (userIds: number[]) => removeMembers(kind, courseId, { user_ids: userIds }),
    onSuccess: async (result) => {
      setSelected(new Set());
      notifySuccess(t('members.removed', { count: result.removed }));
      await queryClient.invalidateQueries({ queryKey: courseKeys.members(courseId, kind) });
      await queryClient.invalidateQueries({ queryKey: courseKeys.detail(courseId) });
      await queryClient.invalidateQueries({ queryKey: courseKeys.lists() });
    },
    onError: (error) => notifyError(errorMessage(error, t), { title: t('members.removeFailed') }),
  });

  const confirmRemove = (people: Member[]) =>
    modals.openConfirmModal({
      title: t(`members.${kind}.removeTitle`),
      children: (
        <Stack gap="xs">
          <Text size="sm">{t('common.confirmDelete')}</Text>
          <Text size="sm">
            {people.length === 1
              ? memberName(people[0]!, i18n.language)
              : t('members.selectedCount', { count: people.length })}
          </Text>
        </Stack>
      ),
      labels: { confirm: t('members.remove'), cancel: t('common.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () => remove.mutate(people.map((person) => person.id)),
    });

  const all = members.data?.results ?? [];
  const visible = filter.trim() ? all.filter((member) => matches(member, filter.trim())) : all;
  const totalPages = Math.max(1, Math.ceil(visible.length / ROWS_PER_PAGE));
  const currentPage = Math.min(page, totalPages);
  const rows = visible.slice((currentPage - 1) * ROWS_PER_PAGE, currentPage * ROWS_PER_PAGE);
  const selectedMembers = all.filter((member) => selected.has(member.id));
  const allOnPageSelected = rows.length > 0 && rows.every((member) => selected.has(member.id));

  const toggle = (id: number) =>
    setSelected((previous) => {
      const next = new Set(previous);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const togglePage = () =>
    setSelected((previous) => {
      const next = new Set(previous);
      for (const member of rows) {
        if (allOnPageSelected) next.delete(member.id);
        else next.add(member.id);
      }
      return next;
    });

  return (
    <Stack gap="lg">
      <Paper withBorder p="lg" radius="md">
        <Stack gap="sm">
          <Group justify="space-between" align="flex-end">
            <div>
              <Title order={2} size="h4">
                {t(`members.${kind}.title`)}
              </Title>
              {members.data ? (
                <Text size="sm" c="dimmed">
                  {t('members.count', { count: members.data.count })}
                </Text>
              ) : null}
              {canChange ? null : (
                <Text size="sm" c="dimmed">
                  {t(`members.${kind}.readOnly`)}
                </Text>
              )}
            </div>
            <Group gap="sm" align="flex-end">
              <TextInput
                label={t('members.filter')}
                leftSection={<IconSearch size={16} aria-hidden />}
                value={filter}
                onChange={(event) => {
                  setFilter(event.currentTarget.value);
                  setPage(1);
                }}
                type="search"
                w={240}
              />
              {canChange ? (
                <Button
                  color="red"
                  variant="outline"
                  leftSection={<IconTrash size={16} aria-hidden />}
                  disabled={selectedMembers.length === 0}
                  onClick={() => confirmRemove(selectedMembers)}
                  loading={remove.isPending}
                >
                  {t('members.removeSelected', { count: selectedMembers.length })}
                </Button>
              ) : null}
            </Group>
          </Group>

          {members.isError ? (
            <ErrorState error={members.error} onRetry={() => void members.refetch()} />
          ) : members.isPending ? (
            <Text size="sm" c="dimmed">
              {t('common.loading')}
            </Text>
          ) : visible.length === 0 ? (
            <Text size="sm" c="dimmed" py="md">
              {filter.trim() ? t('members.noMatch') : t(`members.${kind}.empty`)}
            </Text>
          ) : (
            <Table.ScrollContainer minWidth={560}>
              <Table striped highlightOnHover verticalSpacing="xs" aria-label={t(`members.${kind}.title`)}>
                <Table.Thead>
                  <Table.Tr>
                    {canChange ? (
                      <Table.Th w={40}>
                        <Checkbox
                          aria-label={t('members.selectPage')}
                          checked={allOnPageSelected}
                          indeterminate={!allOnPageSelected && rows.some((member) => selected.has(member.id))}
                          onChange={togglePage}
                        />
                      </Table.Th>
                    ) : null}
                    <Table.Th>{t('members.name')}</Table.Th>
                    <Table.Th>{t('members.email')}</Table.Th>
                    <Table.Th>{t('members.addedAt')}</Table.Th>
                    {canChange ? (
                      <Table.Th w={60}>
                        <VisuallyHidden>{t('members.actions')}</VisuallyHidden>
                      </Table.Th>
                    ) : null}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.map((member) => {
                    const name = memberName(member, i18n.language);
                    return (
                      <Table.Tr key={member.id}>
                        {canChange ? (
                          <Table.Td>
                            <Checkbox
                              aria-label={t('members.select', { name })}
                              checked={selected.has(member.id)}
                              onChange={() => toggle(member.id)}
                            />
                          </Table.Td>
                        ) : null}
                        <Table.Td>
                          {isStaff ? (
                            <Anchor component={Link} to={pathTo('Profile', { userId: member.id })} size="sm">
                              {name}
                            </Anchor>
                          ) : (
                            name
                          )}
                        </Table.Td>
                        <Table.Td>{member.email}</Table.Td>
                        <Table.Td>{format.dateTime(member.added_at)}</Table.Td>
                        {canChange ? (
                          <Table.Td>
                            <Tooltip label={t('members.removeOne', { name })}>
                              <ActionIcon
                                variant="subtle"
                                color="red"
                                aria-label={t('members.removeOne', { name })}
                                onClick={() => confirmRemove([member])}
                              >
                                <IconTrash size={16} aria-hidden />
                              </ActionIcon>
                            </Tooltip>
                          </Table.Td>
                        ) : null}
                      </Table.Tr>
                    );
                  })}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
          <Pager total={totalPages} value={currentPage} onChange={setPage} />
        </Stack>
      </Paper>
      <PendingMembersList
        courseId={courseId}
        kind={kind}
        canChange={canChange}
        pending={members.data?.pending ?? []}
        count={members.data?.pending_count ?? 0}
      />
      {canChange ? <AddMembersForm courseId={courseId} kind={kind} /> : null}
    </Stack>
  );
}
