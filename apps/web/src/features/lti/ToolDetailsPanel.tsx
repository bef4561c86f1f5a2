import { Badge, Button, Group, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconRefresh } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { LtiToolInfo } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '../../i18n/format.ts';
import { CopyField } from '../../ui/CopyField.tsx';
import { errorMessage } from '../../ui/errors.ts';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { notifyError, notifySuccess } from '../../ui/notify.ts';
import { Section } from '../../ui/Section.tsx';
import { ltiKeys, rotateToolKey, toolInfoQuery } from './lti.api.ts';

/** Kadai's side of a registration, to give the LMS's administrator, and the keys it signs with. */
export function ToolDetailsPanel() {
  const { t } = useTranslation();
  const info = useQuery(toolInfoQuery());
  return (
    <Section title={t('lti.tool.title')}>
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {t('lti.tool.help')}
        </Text>
        {info.isError ? (
          <ErrorState error={info.error} onRetry={() => void info.refetch()} />
        ) : !info.data ? (
          <Skeleton height={260} aria-busy="true" />
        ) : (
          <>
            <CopyField label={t('lti.tool.loginUrl')} value={info.data.login_url} />
            <CopyField label={t('lti.tool.launchUrl')} value={info.data.launch_url} />
            <CopyField label={t('lti.tool.jwksUrl')} value={info.data.jwks_url} />
            <CopyField label={t('lti.tool.deepLinkUrl')} value={info.data.deep_link_url} />
            <CopyField label={t('lti.tool.canvasConfigUrl')} value={info.data.canvas_config_url} />
            <ToolKeys info={info.data} />
          </>
        )}
      </Stack>
    </Section>
  );
}

function ToolKeys({ info }: { info: LtiToolInfo }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const queryClient = useQueryClient();
  const rotate = useMutation({
    mutationFn: rotateToolKey,
    onSuccess: (result) => {
      queryClient.setQueryData(ltiKeys.tool(), result);
      notifySuccess(t('lti.tool.rotated'));
    },
    onError: (error) => notifyError(errorMessage(error, t), { title: t('lti.tool.rotateFailed') }),
  });
  const confirmRotate = () =>
    modals.openConfirmModal({
      title: t('lti.tool.rotateTitle'),
      children: <Text size="sm">{t('lti.tool.rotateNote')}</Text>,
      labels: { confirm: t('lti.tool.rotate'), cancel: t('common.cancel') },
      onConfirm: () => rotate.mutate(),
    });
  return (
    <Stack gap="xs" mt="sm">
      <Group justify="space-between" gap="xs">
        <Title order={3} size="h5">
          {t('lti.tool.keys')}
        </Title>
        <Button
          size="xs"
          variant="light"
          leftSection={<IconRefresh size={14} aria-hidden />}
          onClick={confirmRotate}
          loading={rotate.isPending}
        >
          {t('lti.tool.rotate')}
        </Button>
      </Group>
      {/* Two narrow columns, the key ids broken anywhere: it fits a phone without scrolling. */}
      <Table verticalSpacing="xs" aria-label={t('lti.tool.keys')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('lti.tool.kid')}</Table.Th>
            <Table.Th>{t('lti.tool.created')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {info.keys.map((key) => (
            <Table.Tr key={key.kid}>
              <Table.Td>
                <Group gap="xs" wrap="wrap">
                  <Text size="xs" ff="monospace" style={{ wordBreak: 'break-all' }}>
                    {key.kid}
                  </Text>
                  {key.current ? (
                    <Badge size="sm" variant="light" color="teal">
                      {t('lti.tool.current')}
                    </Badge>
                  ) : null}
                </Group>
              </Table.Td>
              <Table.Td>
                <Text size="sm">{format.dateTime(key.created_at)}</Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}
