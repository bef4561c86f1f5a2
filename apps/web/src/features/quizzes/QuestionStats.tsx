import { Badge, Box, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import type { QuestionResult } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '../../i18n/format.ts';
import { Markdown } from '../../ui/Markdown.tsx';

/** A share as "72%" in the reader's language; "–" when there is nothing to divide. */
function usePercent() {
  const { i18n } = useTranslation();
  return (fraction: number | null) =>
    fraction === null
      ? '–'
      : new Intl.NumberFormat(i18n.language, { style: 'percent', maximumFractionDigits: 0 }).format(fraction);
}

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={700}>{value}</Text>
    </div>
  );
}

/**
 * Per question: how many answered, how many were right, the mean points, the facility index (mean
 * share of the points earned) and, for choice and true/false questions, how often each option was
 * chosen (share of those who answered), as a table whose bars only repeat its numbers.
 */
export function QuestionStats({ question, number }: { question: QuestionResult; number: number }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const percent = usePercent();
  const largest = Math.max(1, ...question.option_counts.map((option) => option.count));
  const headingId = `question-stats-${question.question_id}`;
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby={headingId}>
      <Stack gap="sm">
        <Group justify="space-between" gap="xs">
          <Title order={3} size="h5" id={headingId}>
            {t('quiz.question.heading', { number })}
          </Title>
          <Group gap={6}>
            <Badge variant="light" color="gray">
              {t(`quiz.kinds.${question.kind}`)}
            </Badge>
            <Badge variant="light">{t('quiz.question.points', { count: question.points })}</Badge>
          </Group>
        </Group>
        <Box fz="sm">
          <Markdown source={question.prompt} />
        </Box>
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
          <Stat label={t('quiz.results.answered')} value={format.number(question.answered)} />
          <Stat label={t('quiz.results.correct')} value={format.number(question.correct)} />
          <Stat
            label={t('quiz.results.meanPoints')}
            value={
              question.mean_points === null
                ? '–'
                : `${format.number(Math.round(question.mean_points * 100) / 100)} / ${format.number(question.points)}`
            }
          />
          <Stat label={t('quiz.results.facility')} value={percent(question.facility)} />
        </SimpleGrid>
        {question.option_counts.length > 0 ? (
          <Table verticalSpacing={4} aria-label={t('quiz.results.distributionOf', { number })} layout="fixed">
            <Table.Thead>
              <Table.Tr>
                <Table.Th w="40%">{t('quiz.results.option')}</Table.Th>
                <Table.Th>{t('quiz.results.chosen')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {question.option_counts.map((option) => (
                <Table.Tr key={option.option_id}>
                  <Table.Td>
                    <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                      {option.option_id === 'true'
                        ? t('quiz.question.true')
                        : option.option_id === 'false'
                          ? t('quiz.question.false')
                          : option.text}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      <Box
                        aria-hidden
                        h={12}
                        miw={2}
                        w={`${(option.count / largest) * 70}%`}
                        bg="var(--mantine-primary-color-filled)"
                        style={{ borderRadius: 2 }}
                      />
                      <Text size="sm" ff="monospace" style={{ whiteSpace: 'nowrap' }}>
                        {t('quiz.results.chosenCount', {
                          count: option.count,
                          share: percent(question.answered === 0 ? null : option.count / question.answered),
                        })}
                      </Text>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        ) : null}
      </Stack>
    </Paper>
  );
}
