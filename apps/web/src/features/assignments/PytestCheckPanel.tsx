import { Alert, Button, Code, List, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconInfoCircle } from '@tabler/icons-react';
import { MAX_TEST_ITEMS, type PytestCheck, type PytestCheckReason } from '@kadai/contracts';
import type { TFunction } from 'i18next';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '../../i18n/format.ts';

/** Past this many collected tests the list shows its first ones and a button for the rest. */
const SHOWN_AT_FIRST = 8;
/*
 * An Alert's body is a flex item that grows to its widest line: a long line of pytest's message would
 * push it past the alert, which clips it, on a phone. Allowed to shrink, the message block scrolls.
 */
const SHRINKING_BODY = { body: { minWidth: 0 } };
/*
 * pytest's and Python's words, as written: monospace, line breaks kept (a traceback's lines), long lines
 * wrapped rather than scrolled sideways — the point of a long line is often at its end.
 */
const RAW_TEXT = { whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' } as const;

/** The sentence of a check's reason, in the reader's language, with the facts it names. */
export function checkReasonText(t: TFunction, reason: PytestCheckReason): string {
  const file = reason.file ?? '';
  return t(`testCases.check.reason.${reason.code}`, {
    place:
      reason.line === undefined
        ? t('testCases.check.placeFile', { file })
        : t('testCases.check.place', { file, line: reason.line }),
    file,
    module: reason.module ?? '',
    name: reason.name ?? '',
    files: reason.files?.length ? reason.files.join(', ') : t('testCases.check.noFiles'),
    max: MAX_TEST_ITEMS,
  });
}

/**
 * What a pytest module's check found when it was saved (docs/grading.md, "Checking a module when it is
 * saved"): the tests it collects, or why it does not run (a draft), or that nothing could check it, and
 * what it was checked against. `stale`: the module in the form has changed since.
 */
export function PytestCheckPanel({
  check,
  points,
  pointsAuto,
  stale,
}: {
  check: PytestCheck;
  /** The test case's points as saved, for the note when they differ from the tests' shares. */
  points: number;
  pointsAuto: boolean;
  stale: boolean;
}) {
  const { t } = useTranslation();
  const { dateTime } = useFormatters();
  const headingId = useId();
  const messageId = useId();
  const shares = check.tests.reduce((sum, test) => sum + test.points, 0);

  const checkedOn = (
    <Stack gap={0}>
      {check.against ? <Text size="sm">{t(`testCases.check.against.${check.against}`)}</Text> : null}
      <Text size="xs" c="dimmed">
        {t('testCases.check.checkedAt', { date: dateTime(check.checked_at) })}
      </Text>
    </Stack>
  );

  let body;
  if (check.status === 'draft') {
    body = (
      <Alert
        color="red"
        variant="light"
        styles={SHRINKING_BODY}
        icon={<IconAlertTriangle aria-hidden />}
        title={<span id={messageId}>{t('testCases.check.draftTitle')}</span>}
      >
        <Stack gap="xs">
          {check.reason ? (
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              {checkReasonText(t, check.reason)}
            </Text>
          ) : null}
          {check.message ? (
            <Code
              block
              tabIndex={0}
              aria-labelledby={messageId}
              style={{ ...RAW_TEXT, maxHeight: 240, overflow: 'auto' }}
            >
              {check.message}
            </Code>
          ) : null}
          <Text size="sm">{t('testCases.check.draftNote')}</Text>
          {checkedOn}
        </Stack>
      </Alert>
    );
  } else if (check.status === 'unchecked') {
    body = (
      <Alert
        color="gray"
        variant="light"
        styles={SHRINKING_BODY}
        role="status"
        icon={<IconInfoCircle aria-hidden />}
      >
        <Stack gap="xs">
          {check.reason ? (
            <>
              <Text size="sm">{checkReasonText(t, check.reason)}</Text>
              {check.message ? (
                <Text size="xs" ff="monospace" style={RAW_TEXT}>
                  {check.message}
                </Text>
              ) : null}
            </>
          ) : (
            <Text size="sm" style={RAW_TEXT}>
              {t('testCases.check.unchecked', { message: check.message })}
            </Text>
          )}
          {checkedOn}
        </Stack>
      </Alert>
    );
  } else {
    body = (
      <Alert
        color="teal"
        variant="light"
        styles={SHRINKING_BODY}
        role="status"
        icon={<IconCircleCheck aria-hidden />}
        title={t('testCases.check.ready', { count: check.tests.length, points: shares })}
      >
        <Stack gap="xs">
          <CollectedTests tests={check.tests} />
          {!pointsAuto && points !== shares ? (
            <Text size="sm">{t('testCases.check.scaled', { points })}</Text>
          ) : null}
          {checkedOn}
        </Stack>
      </Alert>
    );
  }

  return (
    <Stack gap="xs" component="section" aria-labelledby={headingId}>
      <Title order={3} size="h5" id={headingId}>
        {t('testCases.check.title')}
      </Title>
      {body}
      {stale ? (
        <Text size="sm" c="dimmed">
          {t('testCases.check.stale')}
        </Text>
      ) : null}
    </Stack>
  );
}

/** The collected tests' names (the module's own text, shown as text), the first few until asked. */
function CollectedTests({ tests }: { tests: PytestCheck['tests'] }) {
  const { t } = useTranslation();
  const [all, setAll] = useState(false);
  const listId = useId();
  if (tests.length === 0) return null;
  const shown = all ? tests : tests.slice(0, SHOWN_AT_FIRST);
  return (
    <Stack gap={4} align="flex-start">
      <List size="sm" spacing={2} id={listId} aria-label={t('testCases.check.testsLabel')}>
        {shown.map((test, index) => (
          // Parametrised tests may repeat a name after pytest's own cut; the index keeps keys apart.
          <List.Item key={`${index}:${test.name}`}>
            <Text span size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
              {test.name}
            </Text>
            {test.points === 1 ? null : (
              <Text span size="sm" c="dimmed" ms={6}>
                {t('testCases.check.testPoints', { count: test.points })}
              </Text>
            )}
          </List.Item>
        ))}
      </List>
      {tests.length > SHOWN_AT_FIRST ? (
        <Button
          variant="subtle"
          size="compact-sm"
          aria-expanded={all}
          aria-controls={listId}
          onClick={() => setAll(!all)}
        >
          {all ? t('testCases.check.showFewer') : t('testCases.check.showAll', { count: tests.length })}
        </Button>
      ) : null}
    </Stack>
  );
}
