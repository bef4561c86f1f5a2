import { Anchor, Group, Stack, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import type { SubmissionFile } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '../../i18n/format.ts';
import { CodeEditor } from '../../ui/CodeEditor.tsx';
import { MAX_SHOWN_CHARACTERS } from '../../ui/OutputBlock.tsx';
import { Section } from '../../ui/Section.tsx';
import { extensionOf } from '../assignments/file-limits.ts';

/** The submitted code and files, read-only, each with its signed download link. */
export function SubmissionFiles({ files }: { files: SubmissionFile[] }) {
  const { t } = useTranslation();
  const format = useFormatters();
  return (
    <Section title={t('submissions.files.title')}>
      {files.length === 0 ? (
        <Text size="sm">{t('submissions.files.none')}</Text>
      ) : (
        <Stack gap="md">
          {files.map((file) => (
            <Stack key={file.id} gap={6}>
              <Group gap="xs" justify="space-between">
                <Text size="sm" fw={600} ff="monospace">
                  {file.filename}
                </Text>
                <Group gap="xs">
                  <Text size="xs" c="dimmed">
                    {format.bytes(file.size)}
                  </Text>
                  <Anchor href={file.url} download={file.filename} size="sm">
                    <Group gap={4} component="span">
                      <IconDownload size={14} aria-hidden />
                      {t('submissions.files.downloadNamed', { name: file.filename })}
                    </Group>
                  </Anchor>
                </Group>
              </Group>
              {file.content === null ? (
                <Text size="sm" c="dimmed">
                  {t('submissions.files.binary')}
                </Text>
              ) : file.content.length > MAX_SHOWN_CHARACTERS ? (
                <Text size="sm" c="dimmed">
                  {t('common.tooLongToShow')}
                </Text>
              ) : (
                <CodeEditor
                  value={file.content}
                  label={file.filename}
                  readOnly
                  language={extensionOf(file.filename) === '.py' ? 'python' : 'plain'}
                  minHeight={40}
                  maxHeight={480}
                />
              )}
            </Stack>
          ))}
        </Stack>
      )}
    </Section>
  );
}
