import { ActionIcon, Badge, Group, Stack, Switch, Table, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconAlertTriangle, IconPencil, IconTrash } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { IdentityProvider, IdpCertificate } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '../../i18n/format.ts';
import { errorMessage } from '../../ui/errors.ts';
import { notifyError, notifySuccess } from '../../ui/notify.ts';
import { providerName } from '../auth/sso.ts';
import { deleteProvider, identityKeys, updateProvider } from './identity.api.ts';
import { certificateState } from './provider-form.ts';

function useProviderMutations() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const refreshLists = () => {
    void queryClient.invalidateQueries({ queryKey: identityKeys.providers() });
    void queryClient.invalidateQueries({ queryKey: ['config'] });
  };
  const toggle = useMutation({
    mutationFn: ({ id, enabled }: { id: number; enabled: boolean }) => updateProvider(id, { enabled }),
    onSuccess: refreshLists,
    onError: (error) => notifyError(errorMessage(error, t), { title: t('identity.saveFailed') }),
  });
  const remove = useMutation({
    mutationFn: (id: number) => deleteProvider(id),
    onSuccess: refreshLists,
    onError: (error) => notifyError(errorMessage(error, t), { title: t('identity.deleteFailed') }),
  });
  return { toggle, remove };
}

function Certificate({ certificate }: { certificate: IdpCertificate }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const state = certificateState(certificate.not_after);
  return (
    <Stack gap={2}>
      <Text size="xs" ff="monospace" style={{ wordBreak: 'break-all' }}>
        {certificate.fingerprint_sha256}
      </Text>
      <Group gap={6}>
        <Text size="xs">
          {t('identity.certificateUntil', { date: format.dateTime(certificate.not_after) })}
        </Text>
        {state === 'ok' ? null : (
          <Badge
            color={state === 'expired' ? 'red' : 'orange'}
            variant="light"
            size="sm"
            leftSection={<IconAlertTriangle size={12} aria-hidden />}
          >
            {t(state === 'expired' ? 'identity.certificateExpired' : 'identity.certificateExpiresSoon')}
          </Badge>
        )}
      </Group>
    </Stack>
  );
}

/** The providers: names, kind, switches, domain, certificates (SAML) and the row's actions. */
export function ProviderTable({
  providers,
  onEdit,
}: {
  providers: IdentityProvider[];
  onEdit: (provider: IdentityProvider) => void;
}) {
  const { t, i18n } = useTranslation();
  const { toggle, remove } = useProviderMutations();

  const confirmDelete = (provider: IdentityProvider) => {
    const name = providerName(provider, i18n.language);
    modals.openConfirmModal({
      title: t('identity.deleteTitle', { name }),
      children: <Text size="sm">{t('identity.deleteNote')}</Text>,
      labels: { confirm: t('common.delete'), cancel: t('common.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () =>
        remove.mutate(provider.id, { onSuccess: () => notifySuccess(t('identity.deleted', { name })) }),
    });
  };

  return (
    <Table.ScrollContainer minWidth={960}>
      <Table verticalSpacing="sm" aria-label={t('identity.providersTitle')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('identity.columns.name')}</Table.Th>
            <Table.Th>{t('identity.columns.kind')}</Table.Th>
            <Table.Th>{t('identity.columns.enabled')}</Table.Th>
            <Table.Th>{t('identity.columns.allowCreate')}</Table.Th>
            <Table.Th>{t('identity.columns.emailDomain')}</Table.Th>
            <Table.Th>{t('identity.columns.certificates')}</Table.Th>
            <Table.Th>{t('identity.columns.actions')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {providers.map((provider) => {
            const name = providerName(provider, i18n.language);
            const isEnv = provider.managed_by === 'env';
            return (
              <Table.Tr key={provider.id}>
                <Table.Td>
                  <Text size="sm" fw={600} lang="ja">
                    {provider.name_ja}
                  </Text>
                  <Text size="sm" lang="en">
                    {provider.name_en}
                  </Text>
                  <Text size="xs" c="dimmed" ff="monospace">
                    {provider.slug}
                  </Text>
                </Table.Td>
                <Table.Td>
                  {/* Never narrower than its word: the table's columns share a phone's width. */}
                  <Badge
                    variant="light"
                    color={provider.kind === 'saml' ? 'indigo' : 'cyan'}
                    miw="max-content"
                  >
                    {t(`identity.kindShort.${provider.kind}`)}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  <Switch
                    checked={provider.enabled}
                    disabled={isEnv || toggle.isPending}
                    onChange={(event) =>
                      toggle.mutate({ id: provider.id, enabled: event.currentTarget.checked })
                    }
                    aria-label={t('identity.enabledFor', { name })}
                  />
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{provider.allow_create ? t('common.yes') : t('common.no')}</Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{provider.email_domain ?? '—'}</Text>
                </Table.Td>
                <Table.Td>
                  {provider.saml ? (
                    <Stack gap="xs" maw={260}>
                      {provider.saml.certificates.map((certificate) => (
                        <Certificate key={certificate.fingerprint_sha256} certificate={certificate} />
                      ))}
                    </Stack>
                  ) : (
                    <Text size="sm">—</Text>
                  )}
                </Table.Td>
                <Table.Td>
                  {isEnv ? (
                    <Badge variant="outline" color="gray">
                      {t('identity.managedByEnv')}
                    </Badge>
                  ) : (
                    <Group gap={4} wrap="nowrap">
                      <ActionIcon
                        variant="subtle"
                        onClick={() => onEdit(provider)}
                        aria-label={t('identity.editLabel', { name })}
                      >
                        <IconPencil size={18} aria-hidden />
                      </ActionIcon>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        onClick={() => confirmDelete(provider)}
                        aria-label={t('identity.deleteLabel', { name })}
                      >
                        <IconTrash size={18} aria-hidden />
                      </ActionIcon>
                    </Group>
                  )}
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
