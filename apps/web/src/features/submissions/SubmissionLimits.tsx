import { List, Text } from '@mantine/core';
import type { Assignment } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '../../i18n/format.ts';

/** What a submission may hold, shown before anything is chosen. */
export function SubmissionLimits({ assignment, id }: { assignment: Assignment; id?: string }) {
  const { t } = useTranslation();
  const format = useFormatters();
  return (
    <div id={id}>
      <Text size="sm" fw={600}>
        {t('submissions.limits.title')}
      </Text>
      <List size="sm" spacing={2}>
        <List.Item>{t('submissions.limits.entryFile', { file: assignment.entry_file })}</List.Item>
        {assignment.required_files.length > 0 ? (
          <List.Item>
            {t('submissions.limits.requiredFiles', { files: assignment.required_files.join(', ') })}
          </List.Item>
        ) : null}
        <List.Item>
          {t('submissions.limits.extensions', { extensions: assignment.allowed_extensions.join(', ') })}
        </List.Item>
        <List.Item>
          {t('submissions.limits.count', {
            count: assignment.max_files,
            size: format.bytes(assignment.max_file_bytes),
          })}
        </List.Item>
      </List>
    </div>
  );
}
