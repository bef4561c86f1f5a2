import { Stack, Text } from '@mantine/core';
import type { Extension, ExtensionDates, ExtensionKind } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '../../i18n/format.ts';

function Lines({ lines }: { lines: string[] }) {
  return (
    <Stack gap={0}>
      {lines.map((line) => (
        <Text key={line} size="sm">
          {line}
        </Text>
      ))}
    </Stack>
  );
}

/** A student's own dates: the due date and late cut-off, or the quiz's closing time and extra minutes. */
export function OwnDates({ kind, dates }: { kind: ExtensionKind; dates: ExtensionDates }) {
  const { t } = useTranslation();
  const format = useFormatters();
  if (kind === 'assignment') {
    return (
      <Lines
        lines={[
          dates.due_at ? t('extensions.dates.due', { date: format.deadline(dates.due_at) }) : '',
          dates.late_until
            ? t('extensions.dates.lateUntil', { date: format.deadline(dates.late_until) })
            : t('extensions.dates.noLate'),
        ].filter(Boolean)}
      />
    );
  }
  return (
    <Lines
      lines={[
        dates.closes_at
          ? t('extensions.dates.closes', { date: format.deadline(dates.closes_at) })
          : t('extensions.dates.closesAsCourse'),
        dates.extra_minutes ? t('extensions.dates.extraMinutes', { count: dates.extra_minutes }) : '',
      ].filter(Boolean)}
    />
  );
}

/** The course's dates an extension replaces, to compare with the student's own. */
export function CourseDates({ extension }: { extension: Extension }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const due = format.deadline(extension.course_due_at);
  if (extension.kind === 'assignment') {
    return (
      <Lines
        lines={[
          t('extensions.dates.due', { date: due }),
          extension.course_late_until
            ? t('extensions.dates.lateUntil', { date: format.deadline(extension.course_late_until) })
            : t('extensions.dates.noLate'),
        ]}
      />
    );
  }
  return (
    <Lines
      lines={[
        t('extensions.dates.closes', { date: due }),
        extension.time_limit_minutes === null
          ? t('extensions.dates.noTimeLimit')
          : t('extensions.dates.timeLimit', { count: extension.time_limit_minutes }),
      ]}
    />
  );
}
