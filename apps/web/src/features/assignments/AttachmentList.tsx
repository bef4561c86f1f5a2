import { Anchor, Group, List, Text } from '@mantine/core';
import { IconPaperclip } from '@tabler/icons-react';
import type { AssignmentFile } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '../../i18n/format.ts';
import { Section } from '../../ui/Section.tsx';

/** The assignment's attachments as signed download links. */
export function AttachmentList({ files }: { files: AssignmentFile[] }) {
  const { t } = useTranslation();
  const format = useFormatters();
  return (
    <Section title={t('assignments.attachments.title')}>
      <List spacing={4} listStyleType="none" p={0}>
        {files.map((file) => (
          <List.Item key={file.id}>
            <Group gap="xs" wrap="nowrap">
              <IconPaperclip size={16} aria-hidden />
              <Anchor href={file.url} download={file.filename} size="sm">
                {file.filename}
              </Anchor>
              <Text size="xs" c="dimmed">
                {format.bytes(file.size)}
              </Text>
            </Group>
          </List.Item>
        ))}
      </List>
    </Section>
  );
}
