import { Badge, Group, SimpleGrid, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { OutputBlock } from '../../ui/OutputBlock.tsx';
import { EvaluationItems } from './EvaluationItems.tsx';
import { OutputDiff } from './OutputDiff.tsx';
import { isPytestResult, type FullTestResult } from './test-results.ts';

/**
 * Everything about one test the reader may see. An io or script test: input, expected vs actual with a
 * line diff, error output, the checker's message. A pytest test: its collected tests, and pytest's own
 * message when the file could not run them.
 */
export function FullEvaluationDetails({ result }: { result: FullTestResult }) {
  const { t } = useTranslation();
  if (isPytestResult(result)) {
    return (
      <Stack gap="sm">
        {result.items.length > 0 ? (
          <EvaluationItems
            items={result.items}
            testName={result.test_case_name}
            maxPoints={result.max_points}
          />
        ) : null}
        {/* With items the message is only the server's English count of them, shown above already. */}
        {result.checker_message && result.items.length === 0 ? (
          <OutputBlock
            label={
              result.reason === 'collection_error'
                ? t('submissions.results.pytestMessage')
                : t('submissions.results.checker')
            }
            text={result.checker_message}
          />
        ) : null}
        {result.stderr ? <OutputBlock label={t('submissions.results.stderr')} text={result.stderr} /> : null}
      </Stack>
    );
  }
  return (
    <Stack gap="sm">
      <OutputDiff expected={result.expected_stdout} actual={result.stdout} />
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <OutputBlock label={t('assignments.tests.stdin')} text={result.stdin} />
        <OutputBlock label={t('submissions.results.stderr')} text={result.stderr} />
      </SimpleGrid>
      {result.checker_message ? (
        <OutputBlock label={t('submissions.results.checker')} text={result.checker_message} />
      ) : null}
      <Group gap="xs">
        <Badge variant="light" color="gray">
          {t('submissions.results.exitCode', { code: result.exit_code ?? '–' })}
        </Badge>
        {result.signal ? (
          <Badge variant="light" color="red">
            {t('submissions.results.signal', { signal: result.signal })}
          </Badge>
        ) : null}
      </Group>
    </Stack>
  );
}
