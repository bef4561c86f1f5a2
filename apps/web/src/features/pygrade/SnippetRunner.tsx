import { Alert, Button, Group, Input, Loader, Stack, Text, Textarea, VisuallyHidden } from '@mantine/core';
import { IconAlertTriangle, IconPlayerPlay } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { SNIPPET_RUNS_PER_MINUTE, type SnippetRunResult } from '@kadai/contracts';
import type { TFunction } from 'i18next';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/client.ts';
import { useFormatters } from '../../i18n/format.ts';
import { CodeEditor } from '../../ui/CodeEditor.tsx';
import { errorMessage } from '../../ui/errors.ts';
import { OutputBlock } from '../../ui/OutputBlock.tsx';
import { Section } from '../../ui/Section.tsx';
import { runSnippet } from './pygrade.api.ts';

const DEFAULT_SNIPPET = "print('Hello, PyGrade')\n";

/** Why a snippet did not run, in words: a rate limit says how long to wait. */
function snippetErrorMessage(error: unknown, t: TFunction): string {
  if (isApiError(error, 429)) return t('pygrade.snippet.tooMany', { seconds: error.retryAfterSeconds ?? 60 });
  return errorMessage(error, t);
}

/** The one-line outcome: exit code (or signal), time, memory and the limit the run hit. */
function summary(result: SnippetRunResult, t: TFunction, format: ReturnType<typeof useFormatters>): string {
  const parts = [
    result.exit_code === null
      ? t('pygrade.snippet.killed', { signal: result.signal ?? '–' })
      : t('pygrade.snippet.exitCode', { code: result.exit_code }),
    t('pygrade.snippet.time', { ms: format.number(result.time_ms) }),
  ];
  if (result.memory_kb !== null)
    parts.push(t('pygrade.snippet.memory', { size: format.bytes(result.memory_kb * 1024) }));
  if (result.limit) parts.push(t(`pygrade.snippet.limits.${result.limit}`));
  return parts.join(' · ');
}

/**
 * A snippet box: code (CodeMirror) and standard input, run with `POST Pygrade/run/` in a fresh
 * sandbox. Only the one-line outcome is announced; the output follows it, to be read at will.
 */
export function SnippetRunner({ sandboxOk }: { sandboxOk: boolean | undefined }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const helpId = useId();
  const [code, setCode] = useState(DEFAULT_SNIPPET);
  const [stdin, setStdin] = useState('');
  const run = useMutation({ mutationFn: () => runSnippet({ code, stdin }) });
  const isEmpty = code.trim() === '';

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!isEmpty && !run.isPending) run.mutate();
  };

  let announcement = '';
  if (run.isPending) announcement = t('pygrade.snippet.running');
  else if (run.error) announcement = `${t('pygrade.snippet.failed')}: ${snippetErrorMessage(run.error, t)}`;
  else if (run.data) announcement = summary(run.data, t, format);

  return (
    <Section title={t('pygrade.snippet.title')}>
      <Stack gap="sm" component="form" onSubmit={onSubmit}>
        <Text size="sm" id={helpId}>
          {t('pygrade.snippet.help', { max: SNIPPET_RUNS_PER_MINUTE })}
        </Text>
        {sandboxOk === false ? (
          <Text size="sm" c="var(--mantine-color-error)">
            {t('pygrade.snippet.noSandbox')}
          </Text>
        ) : null}
        <Input.Wrapper
          label={t('pygrade.snippet.code')}
          labelElement="div"
          description={t('pygrade.snippet.editorHint')}
        >
          <CodeEditor
            value={code}
            onChange={setCode}
            label={t('pygrade.snippet.code')}
            describedBy={helpId}
            minHeight={160}
            maxHeight={420}
          />
        </Input.Wrapper>
        <Textarea
          label={t('pygrade.snippet.stdin')}
          value={stdin}
          onChange={(event) => setStdin(event.currentTarget.value)}
          autosize
          minRows={2}
          maxRows={8}
          spellCheck={false}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        />
        <Group>
          <Button
            type="submit"
            leftSection={<IconPlayerPlay size={16} aria-hidden />}
            loading={run.isPending}
            disabled={isEmpty}
          >
            {t('pygrade.snippet.run')}
          </Button>
        </Group>
      </Stack>
      <div aria-busy={run.isPending}>
        <VisuallyHidden role="status">{announcement}</VisuallyHidden>
        {run.isPending ? (
          <Group gap="xs" mt="md">
            <Loader size="xs" aria-hidden />
            <Text size="sm">{t('pygrade.snippet.running')}</Text>
          </Group>
        ) : run.error ? (
          <Alert
            color="red"
            mt="md"
            icon={<IconAlertTriangle aria-hidden />}
            title={t('pygrade.snippet.failed')}
          >
            <Text size="sm">{snippetErrorMessage(run.error, t)}</Text>
            {isApiError(run.error, 503) ? (
              <Text size="xs" mt={4}>
                {run.error.body.detail}
              </Text>
            ) : null}
          </Alert>
        ) : run.data ? (
          <SnippetResult result={run.data} outcome={summary(run.data, t, format)} />
        ) : null}
      </div>
    </Section>
  );
}

function SnippetResult({ result, outcome }: { result: SnippetRunResult; outcome: string }) {
  const { t } = useTranslation();
  const headingId = useId();
  return (
    <Stack gap="sm" mt="md" component="section" aria-labelledby={headingId}>
      <Text id={headingId} fw={600} size="sm">
        {t('pygrade.snippet.result')}: {outcome}
      </Text>
      <OutputBlock label={t('pygrade.snippet.stdout')} text={result.stdout} />
      <OutputBlock label={t('pygrade.snippet.stderr')} text={result.stderr} />
    </Stack>
  );
}
