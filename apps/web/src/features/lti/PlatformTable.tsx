import { ActionIcon, Badge, Group, Stack, Switch, Table, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { LtiPlatform } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '../../i18n/format.ts';
import { errorMessage } from '../../ui/errors.ts';
import { notifyError, notifySuccess } from '../../ui/notify.ts';
import { deletePlatform, ltiKeys, updatePlatform } from './lti.api.ts';

function usePlatformMutations() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ltiKeys.platforms() });
  const toggle = useMutation({
    mutationFn: ({ id, enabled }: { id: number; enabled: boolean }) => updatePlatform(id, { enabled }),
    onSuccess: refresh,
    onError: (error) => notifyError(errorMessage(error, t), { title: t('lti.platforms.saveFailed') }),
  });
  const remove = useMutation({
    mutationFn: (id: number) => deletePlatform(id),
    onSuccess: refresh,
    onError: (error) => notifyError(errorMessage(error, t), { title: t('lti.platforms.deleteFailed') }),
  });
  return { toggle, remove };
}

/** Long values (issuers, client ids) break anywhere rather than widen the table past a phone. */
const BREAK_ANYWHERE = { wordBreak: 'break-all' } as const;

/** The registered platforms: who they are, how they were registered, their switch and actions. */
export function PlatformTable({
  platforms,
  onEdit,
}: {
  platforms: LtiPlatform[];
  onEdit: (platform: LtiPlatform) => void;
}) {
  const { t } = useTranslation();
  const format = useFormatters();
  const { toggle, remove } = usePlatformMutations();

  const confirmDelete = (platform: LtiPlatform) =>
    modals.openConfirmModal({
      title: t('lti.platforms.deleteTitle', { name: platform.name }),
      children: <Text size="sm">{t('lti.platforms.deleteNote')}</Text>,
      labels: { confirm: t('common.delete'), cancel: t('common.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () =>
        remove.mutate(platform.id, {
          onSuccess: () => notifySuccess(t('lti.platforms.deleted', { name: platform.name })),
        }),
    });

  return (
    <Table.ScrollContainer minWidth={1100}>
      <Table verticalSpacing="sm" aria-label={t('lti.platforms.title')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('lti.platforms.columns.name')}</Table.Th>
            <Table.Th>{t('lti.platforms.columns.issuer')}</Table.Th>
            <Table.Th>{t('lti.platforms.columns.clientId')}</Table.Th>
            <Table.Th>{t('lti.platforms.columns.deployments')}</Table.Th>
            <Table.Th>{t('lti.platforms.columns.source')}</Table.Th>
            <Table.Th>{t('lti.platforms.columns.product')}</Table.Th>
            <Table.Th>{t('lti.platforms.columns.enabled')}</Table.Th>
            <Table.Th>{t('lti.platforms.columns.courses')}</Table.Th>
            <Table.Th>{t('lti.platforms.columns.actions')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {platforms.map((platform) => (
            <Table.Tr key={platform.id}>
              <Table.Td>
                <Text size="sm" fw={600}>
                  {platform.name}
                </Text>
                {platform.allow_staff ? (
                  <Badge size="xs" variant="light" color="orange" mt={4}>
                    {t('lti.platforms.staffAllowed')}
                  </Badge>
                ) : null}
              </Table.Td>
              <Table.Td maw={260}>
                <Text size="sm" style={BREAK_ANYWHERE}>
                  {platform.issuer}
                </Text>
              </Table.Td>
              <Table.Td maw={180}>
                <Text size="xs" ff="monospace" style={BREAK_ANYWHERE}>
                  {platform.client_id}
                </Text>
              </Table.Td>
              <Table.Td maw={200}>
                <Stack gap={2}>
                  {platform.deployment_ids.map((id) => (
                    <Text key={id} size="xs" ff="monospace" style={BREAK_ANYWHERE}>
                      {id}
                    </Text>
                  ))}
                </Stack>
              </Table.Td>
              <Table.Td>
                <Badge
                  variant="light"
                  color={platform.source === 'dynamic' ? 'teal' : 'gray'}
                  miw="max-content"
                >
                  {t(`lti.platforms.source.${platform.source}`)}
                </Badge>
              </Table.Td>
              <Table.Td>
                <Text size="sm">{platform.product || '—'}</Text>
              </Table.Td>
              <Table.Td>
                <Switch
                  checked={platform.enabled}
                  disabled={toggle.isPending}
                  onChange={(event) =>
                    toggle.mutate({ id: platform.id, enabled: event.currentTarget.checked })
                  }
                  aria-label={t('lti.platforms.enabledFor', { name: platform.name })}
                />
              </Table.Td>
              <Table.Td>
                <Text size="sm">{format.number(platform.context_count)}</Text>
              </Table.Td>
              <Table.Td>
                <Group gap={4} wrap="nowrap">
                  <ActionIcon
                    variant="subtle"
                    onClick={() => onEdit(platform)}
                    aria-label={t('lti.platforms.editLabel', { name: platform.name })}
                  >
                    <IconPencil size={18} aria-hidden />
                  </ActionIcon>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    onClick={() => confirmDelete(platform)}
                    aria-label={t('lti.platforms.deleteLabel', { name: platform.name })}
                  >
                    <IconTrash size={18} aria-hidden />
                  </ActionIcon>
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
