import { Code, Stack, Text } from '@mantine/core';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

/** Past this many characters a block is not rendered: the browser would stall on it. */
export const MAX_SHOWN_CHARACTERS = 200_000;

/** A labelled, scrollable block of program text (input, output, error output). */
export function OutputBlock({ label, text }: { label: string; text: string | null }) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <Stack gap={4}>
      <Text size="sm" fw={600} id={id}>
        {label}
      </Text>
      {text === null ? (
        <Text size="sm" c="dimmed">
          {t('assignments.tests.notShown')}
        </Text>
      ) : text.length > MAX_SHOWN_CHARACTERS ? (
        <Text size="sm" c="dimmed">
          {t('common.tooLongToShow')}
        </Text>
      ) : text === '' ? (
        <Text size="sm" c="dimmed">
          {t('assignments.tests.empty')}
        </Text>
      ) : (
        <Code
          block
          aria-labelledby={id}
          tabIndex={0}
          style={{ maxHeight: 280, overflow: 'auto', whiteSpace: 'pre' }}
        >
          {text}
        </Code>
      )}
    </Stack>
  );
}
