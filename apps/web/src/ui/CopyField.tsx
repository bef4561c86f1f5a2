import { ActionIcon, Group, TextInput, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifyError } from './notify.ts';

/** Copies text to the clipboard; false when the browser refuses (no permission, insecure page). */
export async function copyToClipboard(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** A read-only value (a set-password link) with a copy button. */
export function CopyField({ label, value }: { label: string; value: string }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    if (await copyToClipboard(value)) {
      setCopied(true);
      window.setTimeout(() => setCopied(false), 2000);
    } else {
      notifyError(t('common.copyFailed'));
    }
  };
  const copyLabel = copied ? t('common.copied') : t('common.copyLabel', { label });
  return (
    <Group gap="xs" wrap="nowrap" align="flex-end">
      <TextInput
        label={label}
        value={value}
        readOnly
        onFocus={(event) => event.currentTarget.select()}
        style={{ flex: 1 }}
      />
      <Tooltip label={copyLabel} withinPortal={false}>
        <ActionIcon
          size="lg"
          variant="light"
          color={copied ? 'teal' : 'blue'}
          onClick={() => void copy()}
          aria-label={t('common.copyLabel', { label })}
          mb={2}
        >
          {copied ? <IconCheck size={18} aria-hidden /> : <IconCopy size={18} aria-hidden />}
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}
