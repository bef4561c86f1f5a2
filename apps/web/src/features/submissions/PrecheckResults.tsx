import { Alert, Group, Loader, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { IconAlertTriangle, IconEyeOff, IconHistory } from '@tabler/icons-react';
import type { PrecheckResult } from '@kadai/contracts';
import type { TFunction } from 'i18next';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/client.ts';
import { errorMessage } from '../../ui/errors.ts';
import { countTests } from '../../ui/test-count.ts';
import { FullEvaluationDetails } from './FullEvaluationDetails.tsx';
import { ResultOutcome } from './ResultOutcome.tsx';
import { TestResultList } from './TestResultList.tsx';

/** Why a precheck did not run, in words: a rate limit says how long to wait. */
export function precheckErrorMessage(error: unknown, t: TFunction): string {
  if (isApiError(error, 429)) {
    return t('submissions.precheck.tooMany', { seconds: error.retryAfterSeconds ?? 60 });
  }
  return errorMessage(error, t);
}

/**
 * What "Run visible tests" found, under the editor: running, the reason it could not run, or the
 * outcome and each visible test with its details. Only a one-line status is live (running, then the
 * outcome or why it failed), so a screen reader announces the result without reading every test.
 * `outdated`: the code or files have changed since it ran; the result says it is of the earlier code
 * (and nothing is announced: the reader is typing).
 */
export function PrecheckResults({
  pending,
  result,
  error,
  outdated = false,
}: {
  pending: boolean;
  result: PrecheckResult | undefined;
  error: unknown;
  outdated?: boolean;
}) {
  const { t } = useTranslation();
  let body: React.ReactNode = null;
  if (pending) {
    body = (
      <Group gap="xs">
        <Loader size="xs" aria-hidden />
        <Text size="sm">{t('submissions.precheck.running')}</Text>
      </Group>
    );
  } else if (error) {
    body = (
      <Alert color="red" icon={<IconAlertTriangle aria-hidden />} title={t('submissions.precheck.failed')}>
        <Text size="sm">{precheckErrorMessage(error, t)}</Text>
      </Alert>
    );
  } else if (result) {
    body = <PrecheckResultView result={result} outdated={outdated} />;
  }
  return (
    <div aria-busy={pending}>
      <VisuallyHidden role="status">
        {outdated && !pending ? '' : announcement(pending, result, error, t)}
      </VisuallyHidden>
      {body}
    </div>
  );
}

function announcement(
  pending: boolean,
  result: PrecheckResult | undefined,
  error: unknown,
  t: TFunction,
): string {
  if (pending) return t('submissions.precheck.running');
  if (error) return `${t('submissions.precheck.failed')}: ${precheckErrorMessage(error, t)}`;
  if (!result) return '';
  if (result.status === 'InvalidFormat') return t('status.InvalidFormat');
  const { passed, count } = countTests(result.tests);
  return t('submissions.precheck.summary', { passed, count, score: result.score, max: result.max_score });
}

function PrecheckResultView({ result, outdated }: { result: PrecheckResult; outdated: boolean }) {
  const { t } = useTranslation();
  const { passed, count } = countTests(result.tests);
  const headingId = useId();
  return (
    <Stack gap="sm" component="section" aria-labelledby={headingId} data-outdated={outdated}>
      <Title order={3} size="h5" id={headingId}>
        {outdated ? t('submissions.precheck.titleOutdated') : t('submissions.precheck.title')}
      </Title>
      {outdated ? (
        <Alert color="gray" variant="light" icon={<IconHistory aria-hidden />} p="xs">
          <Text size="sm">{t('submissions.precheck.outdated')}</Text>
        </Alert>
      ) : null}
      {result.status === 'InvalidFormat' ? (
        <Alert color="orange" icon={<IconAlertTriangle aria-hidden />} title={t('status.InvalidFormat')}>
          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
            {result.message || t('submissions.detail.noMessage')}
          </Text>
        </Alert>
      ) : count === 0 ? (
        <Text size="sm">{t('submissions.precheck.noVisible')}</Text>
      ) : (
        <ResultOutcome
          passed={passed}
          count={count}
          score={result.score}
          max={result.max_score}
          scope="visible"
        />
      )}
      <Group gap="xs" wrap="nowrap" align="flex-start">
        <IconEyeOff size={16} aria-hidden style={{ flexShrink: 0, marginTop: 2 }} />
        <Text size="sm">
          {result.not_run > 0
            ? t('submissions.precheck.notRun', { count: result.not_run })
            : t('submissions.precheck.nothingStored')}
        </Text>
      </Group>
      {result.status === 'Completed' && count > 0 ? (
        <TestResultList
          results={result.tests}
          renderBody={(test) => <FullEvaluationDetails result={test} />}
        />
      ) : null}
    </Stack>
  );
}
