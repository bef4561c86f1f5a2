import { Button, Group, Select, Skeleton, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconCircleCheck, IconDownload, IconSearch } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { VIDEO_TABLE_ORDERINGS, type VideoTableQuery } from '@kadai/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '../../i18n/format.ts';
import { saveBlob } from '../../ui/download.ts';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { notifyError } from '../../ui/notify.ts';
import { memberName } from '../courses/member-name.ts';
import { percent } from './video-format.ts';
import { downloadVideoTableCsv } from './videos.api.ts';
import { videoTableQuery } from './videos.queries.ts';
import { Pager } from '../../ui/Pager.tsx';

const PAGE_SIZE = 50;
type Ordering = VideoTableQuery['ordering'];

/** Editors: every student × every video, with progress and when they last watched; the CSV has them all. */
export function VideoStatsTable({ courseId }: { courseId: number }) {
  const { t, i18n } = useTranslation();
  const format = useFormatters();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const [ordering, setOrdering] = useState<Ordering>('name');
  const [page, setPage] = useState(1);
  const table = useQuery(
    videoTableQuery(courseId, {
      search: debounced || undefined,
      ordering,
      limit: PAGE_SIZE,
      offset: (page - 1) * PAGE_SIZE,
    }),
  );
  const download = useMutation({
    mutationFn: () => downloadVideoTableCsv(courseId),
    onSuccess: ({ blob, filename }) => {
      if (!saveBlob(blob, filename ?? `course-${courseId}-video-stats.csv`))
        notifyError(t('common.downloadDenied'));
    },
    onError: () => notifyError(t('common.downloadFailed')),
  });

  if (table.isError) return <ErrorState error={table.error} onRetry={() => void table.refetch()} />;
  const data = table.data;
  const totalPages = data ? Math.max(1, Math.ceil(data.count / PAGE_SIZE)) : 1;

  return (
    <Stack>
      <Group justify="space-between" align="flex-end">
        <Group align="flex-end">
          <TextInput
            label={t('videos.stats.search')}
            leftSection={<IconSearch size={16} aria-hidden />}
            value={search}
            onChange={(event) => {
              setSearch(event.currentTarget.value);
              setPage(1);
            }}
          />
          <Select
            label={t('videos.stats.sort')}
            value={ordering}
            allowDeselect={false}
            onChange={(value) => {
              if (value) setOrdering(value as Ordering);
              setPage(1);
            }}
            data={VIDEO_TABLE_ORDERINGS.map((value) => ({
              value,
              label: t(`videos.stats.orderings.${value}`),
            }))}
          />
        </Group>
        <Button
          variant="default"
          leftSection={<IconDownload size={16} aria-hidden />}
          loading={download.isPending}
          onClick={() => download.mutate()}
        >
          {t('videos.stats.csv')}
        </Button>
      </Group>
      {!data ? (
        <Skeleton height={160} aria-busy="true" />
      ) : data.results.length === 0 ? (
        <Text c="dimmed">{t('videos.stats.empty')}</Text>
      ) : (
        <Table.ScrollContainer minWidth={480}>
          <Table striped withTableBorder stickyHeader>
            <Table.Caption>
              {t('videos.stats.caption', { percent: data.completion_percent, count: data.count })}
            </Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('videos.stats.student')}</Table.Th>
                <Table.Th scope="col">{t('videos.stats.completed')}</Table.Th>
                <Table.Th scope="col">{t('videos.stats.lastWatched')}</Table.Th>
                {data.videos.map((video) => (
                  <Table.Th key={video.id} scope="col" style={{ minWidth: 96 }}>
                    <Text size="xs" lineClamp={2} title={video.name}>
                      {video.name}
                    </Text>
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.results.map((row) => (
                <Table.Tr key={row.user.id}>
                  <Table.Th scope="row" fw={400}>
                    <Text size="sm">{memberName(row.user, i18n.language)}</Text>
                    <Text size="xs" c="dimmed">
                      {row.user.email}
                    </Text>
                  </Table.Th>
                  <Table.Td>
                    {t('videos.stats.completedOf', { completed: row.completed, total: data.videos.length })}
                  </Table.Td>
                  <Table.Td>{row.last_watched_at ? format.dateTime(row.last_watched_at) : '–'}</Table.Td>
                  {row.cells.map((cell, index) => (
                    <Table.Td key={data.videos[index]!.id}>
                      {cell ? (
                        <Group gap={4} wrap="nowrap">
                          {cell.completed ? (
                            <IconCircleCheck
                              size={14}
                              color="var(--mantine-color-teal-6)"
                              aria-label={t('videos.completed')}
                            />
                          ) : null}
                          <Text size="sm" title={format.dateTime(cell.last_watched_at)}>
                            {percent(cell.progress)}%
                          </Text>
                        </Group>
                      ) : (
                        <Text size="sm" c="dimmed" aria-label={t('videos.notStarted')}>
                          –
                        </Text>
                      )}
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Pager total={totalPages} value={page} onChange={setPage} />
    </Stack>
  );
}
