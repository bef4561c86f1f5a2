import { Badge, Button, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DataExport, DataExportStatus } from '@kadai/contracts';
import { useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { useFormatters } from '../../i18n/format.ts';
import { followDownload } from '../../ui/download.ts';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { errorMessage } from '../../ui/errors.ts';
import { notifyError, notifySuccess } from '../../ui/notify.ts';
import { dataExportsQuery, getDataExport, privacyKeys, requestDataExport } from './privacy.api.ts';

/** The anchor the "your data is ready" e-mail links to (EXPORT_PAGE_PATH of the API). */
export const MY_DATA_ANCHOR = 'my-data';

const STATUS_COLORS: Record<DataExportStatus, string> = {
  pending: 'blue',
  running: 'blue',
  ready: 'teal',
  failed: 'red',
  expired: 'gray',
};

const isPreparing = (e: DataExport | undefined) => e?.status === 'pending' || e?.status === 'running';

/**
 * "Download my data" on one's own profile: ask for a copy of everything Kadai holds about you, see how
 * it is coming along, and download it while signed in (each download gets a fresh short-lived link).
 */
export function MyDataPanel() {
  const { t } = useTranslation();
  const format = useFormatters();
  const headingId = useId();
  const queryClient = useQueryClient();
  const exports = useQuery(dataExportsQuery());
  const latest = exports.data?.results[0];
  const section = useRef<HTMLElement>(null);
  const location = useLocation();

  // The e-mail's link ends in #my-data: bring the section into view once it is there.
  const loaded = exports.data !== undefined;
  useEffect(() => {
    if (loaded && location.hash === `#${MY_DATA_ANCHOR}`) section.current?.scrollIntoView({ block: 'start' });
  }, [loaded, location.hash]);

  const ask = useMutation({
    mutationFn: requestDataExport,
    onSuccess: async () => {
      notifySuccess(t('personalData.export.requested'));
      await queryClient.invalidateQueries({ queryKey: privacyKeys.exports() });
    },
    onError: (error) =>
      notifyError(errorMessage(error, t), { title: t('personalData.export.requestFailed') }),
  });
  const download = useMutation({
    mutationFn: async (id: number) => {
      const fresh = await getDataExport(id);
      if (!fresh.download_url) throw new Error(t('personalData.export.notReady'));
      // The server's Content-Disposition names it the same way.
      followDownload(fresh.download_url, `kadai-data-${fresh.created_at.slice(0, 10)}.zip`);
    },
    onError: async (error) => {
      notifyError(errorMessage(error, t), { title: t('personalData.export.downloadFailed') });
      await queryClient.invalidateQueries({ queryKey: privacyKeys.exports() });
    },
  });

  return (
    <Paper
      withBorder
      p="lg"
      radius="md"
      component="section"
      id={MY_DATA_ANCHOR}
      ref={section}
      aria-labelledby={headingId}
    >
      <Stack gap="sm">
        <Title order={2} size="h4" id={headingId}>
          {t('personalData.export.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('personalData.export.help')}
        </Text>
        {exports.isError ? (
          <ErrorState error={exports.error} onRetry={() => void exports.refetch()} />
        ) : !exports.data ? (
          <Skeleton height={36} />
        ) : latest ? (
          <Group gap="sm" wrap="wrap">
            <Badge color={STATUS_COLORS[latest.status]} variant="light">
              {t(`personalData.export.status.${latest.status}`)}
            </Badge>
            <Text size="sm">
              {latest.status === 'ready' && latest.expires_at
                ? t('personalData.export.readyUntil', {
                    date: format.dateTime(latest.expires_at),
                    size: format.bytes(latest.size ?? 0),
                  })
                : t(`personalData.export.statusHelp.${latest.status}`, {
                    date: format.dateTime(latest.created_at),
                  })}
            </Text>
          </Group>
        ) : null}
        <Group gap="sm">
          {latest?.status === 'ready' ? (
            <Button
              leftSection={<IconDownload size={16} aria-hidden />}
              onClick={() => download.mutate(latest.id)}
              loading={download.isPending}
            >
              {t('personalData.export.download')}
            </Button>
          ) : null}
          <Button
            variant={latest?.status === 'ready' ? 'default' : 'filled'}
            onClick={() => ask.mutate()}
            loading={ask.isPending}
            disabled={!exports.data || isPreparing(latest)}
          >
            {latest ? t('personalData.export.requestAgain') : t('personalData.export.request')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
