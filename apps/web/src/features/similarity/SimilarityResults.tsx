import {
  Badge,
  Button,
  Group,
  SegmentedControl,
  Skeleton,
  Stack,
  Table,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import { IconDownload, IconEye } from '@tabler/icons-react';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { useDeferredValue, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  DEFAULT_SIMILARITY_THRESHOLD,
  personName,
  type SimilarityPair,
  type SimilarityReport,
  type SimilarityReportSummary,
} from '@kadai/contracts';
import { saveBlob } from '../../ui/download.ts';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { notifyError } from '../../ui/notify.ts';
import { Section } from '../../ui/Section.tsx';
import { SimilarityPairPanel } from './SimilarityPairPanel.tsx';
import { downloadSimilarityCsv, similarityReportQuery } from './similarity.api.ts';

export const percent = (value: number) => `${Math.round(value * 100)} %`;

/**
 * The thresholds a reader picks from. A segmented control rather than a slider: its styles are already
 * in the shell's stylesheet, and a few steps are all a reader needs to narrow the list.
 */
const THRESHOLDS = [0, 0.25, 0.5, 0.7, 0.8, 0.9] as const;

/**
 * A finished report: the threshold, the clusters, the pairs by similarity and one pair side by side. A
 * report that includes another course names each student's course (`courseTitles`: id → title).
 */
export function SimilarityResults({
  summary,
  courseTitles,
}: {
  summary: SimilarityReportSummary;
  courseTitles: ReadonlyMap<number, string>;
}) {
  const { t, i18n } = useTranslation();
  const [threshold, setThreshold] = useState(DEFAULT_SIMILARITY_THRESHOLD);
  const asked = useDeferredValue(threshold);
  const report = useQuery({ ...similarityReportQuery(summary.id, asked), placeholderData: keepPreviousData });
  const [chosen, setChosen] = useState<SimilarityPair | null>(null);
  const thresholdLabel = useId();
  const download = useMutation({
    mutationFn: () => downloadSimilarityCsv(summary.id, asked),
    onSuccess: ({ blob, filename }) => {
      if (!saveBlob(blob, filename ?? `similarity-report-${summary.id}.csv`))
        notifyError(t('common.downloadDenied'));
    },
    onError: () => notifyError(t('common.downloadFailed')),
  });

  if (report.isError) return <ErrorState error={report.error} onRetry={() => void report.refetch()} />;
  if (!report.data) return <Skeleton height={240} aria-busy="true" />;
  const data = report.data;
  const name = (user: SimilarityPair['left']['user']) => personName(user, i18n.language) || user.email;
  const twoCourses = data.include_course_id !== null;

  return (
    <Stack gap="lg">
      <Text>{t('similarity.summary', { submissions: data.submission_count, pairs: data.pair_count })}</Text>
      <Group align="flex-end" gap="xl" wrap="wrap">
        <Stack gap={4}>
          <Text id={thresholdLabel} size="sm" fw={500}>
            {t('similarity.thresholdLabel')}
          </Text>
          <SegmentedControl
            aria-labelledby={thresholdLabel}
            data={THRESHOLDS.map((value) => ({ value: String(value), label: percent(value) }))}
            value={String(threshold)}
            onChange={(value) => setThreshold(Number(value))}
          />
        </Stack>
        <Button
          variant="default"
          leftSection={<IconDownload size={16} aria-hidden />}
          loading={download.isPending}
          onClick={() => download.mutate()}
        >
          {t('similarity.csv')}
        </Button>
      </Group>
      <Clusters report={data} name={name} />
      <Section title={t('similarity.pairs', { count: data.pairs_at_threshold })}>
        {data.pairs.length === 0 ? (
          <Text c="dimmed">{t('similarity.noPairs')}</Text>
        ) : (
          <Table.ScrollContainer minWidth={640}>
            <Table striped highlightOnHover aria-label={t('similarity.pairsTable')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('similarity.columns.left')}</Table.Th>
                  <Table.Th>{t('similarity.columns.right')}</Table.Th>
                  <Table.Th>{t('similarity.columns.similarity')}</Table.Th>
                  <Table.Th>{t('similarity.columns.longest')}</Table.Th>
                  <Table.Th>{t('similarity.columns.overlap')}</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>{t('similarity.columns.view')}</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.pairs.map((pair) => (
                  <Table.Tr key={`${pair.left.submission_id}-${pair.right.submission_id}`}>
                    <Table.Td>
                      <Person side={pair.left} name={name} courseTitles={twoCourses ? courseTitles : null} />
                    </Table.Td>
                    <Table.Td>
                      <Person side={pair.right} name={name} courseTitles={twoCourses ? courseTitles : null} />
                    </Table.Td>
                    <Table.Td>
                      <Badge
                        variant="light"
                        color={pair.similarity >= 0.8 ? 'red' : pair.similarity >= 0.5 ? 'orange' : 'gray'}
                      >
                        {percent(pair.similarity)}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      {t('similarity.longestValue', {
                        tokens: pair.longest_fragment.tokens,
                        lines: pair.longest_fragment.lines,
                      })}
                    </Table.Td>
                    <Table.Td>{t('similarity.tokens', { count: pair.overlap.tokens })}</Table.Td>
                    <Table.Td>
                      <Button
                        size="xs"
                        variant="default"
                        leftSection={<IconEye size={14} aria-hidden />}
                        onClick={() => setChosen(pair)}
                        aria-label={t('similarity.viewPair', {
                          left: name(pair.left.user),
                          right: name(pair.right.user),
                        })}
                      >
                        {t('similarity.columns.view')}
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Section>
      {chosen ? (
        <SimilarityPairPanel
          reportId={summary.id}
          left={chosen.left.submission_id}
          right={chosen.right.submission_id}
          onClose={() => setChosen(null)}
        />
      ) : null}
    </Stack>
  );
}

/** A student of a pair, with the course under the name when the report compares two courses. */
function Person({
  side,
  name,
  courseTitles,
}: {
  side: SimilarityPair['left'];
  name: (user: SimilarityPair['left']['user']) => string;
  courseTitles: ReadonlyMap<number, string> | null;
}) {
  if (!courseTitles) return <>{name(side.user)}</>;
  return (
    <Stack gap={0}>
      <Text size="sm">{name(side.user)}</Text>
      <Text size="xs" c="dimmed">
        {courseTitles.get(side.course_id) ?? `#${side.course_id}`}
      </Text>
    </Stack>
  );
}

function Clusters({
  report,
  name,
}: {
  report: SimilarityReport;
  name: (user: SimilarityPair['left']['user']) => string;
}) {
  const { t } = useTranslation();
  const people = new Map<number, string>();
  for (const pair of report.pairs) {
    people.set(pair.left.user.id, name(pair.left.user));
    people.set(pair.right.user.id, name(pair.right.user));
  }
  return (
    <Section title={t('similarity.clusters', { count: report.clusters.length })}>
      {report.clusters.length === 0 ? (
        <Text c="dimmed">{t('similarity.noClusters')}</Text>
      ) : (
        <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {report.clusters.map((cluster) => (
            <Group component="li" key={cluster.user_ids.join('-')} gap="xs">
              <Badge variant="light">{percent(cluster.max_similarity)}</Badge>
              <Text size="sm">{cluster.user_ids.map((id) => people.get(id) ?? `#${id}`).join(', ')}</Text>
            </Group>
          ))}
        </Stack>
      )}
    </Section>
  );
}
