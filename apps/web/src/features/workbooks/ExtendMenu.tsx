import { Button, Group, Menu, Text } from '@mantine/core';
import { IconChevronDown, IconClockPlus } from '@tabler/icons-react';
import type { WorkbookSession } from '@kadai/contracts';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { extensionChoices, remainingExtension } from './session-time.ts';

/** "Extend": +15, +30 or +60 minutes, as far as the session's allowance goes; says why when it cannot. */
export function ExtendMenu({
  session,
  onExtend,
  extending,
}: {
  session: WorkbookSession;
  onExtend: (minutes: number) => void;
  extending: boolean;
}) {
  const { t } = useTranslation();
  const whyId = useId();
  const choices = extensionChoices(session);
  if (choices.length === 0) {
    return (
      <Group gap="xs" wrap="nowrap">
        <Button
          size="xs"
          variant="default"
          disabled
          aria-describedby={whyId}
          leftSection={<IconClockPlus size={14} aria-hidden />}
        >
          {t('workbook.session.extend')}
        </Button>
        <Text size="xs" c="dimmed" id={whyId}>
          {session.max_extension_minutes === 0
            ? t('workbook.session.noExtension')
            : t('workbook.session.extensionUsed', { count: session.max_extension_minutes })}
        </Text>
      </Group>
    );
  }
  return (
    <Menu position="bottom-end">
      <Menu.Target>
        <Button
          size="xs"
          variant="default"
          leftSection={<IconClockPlus size={14} aria-hidden />}
          rightSection={<IconChevronDown size={14} aria-hidden />}
          loading={extending}
          title={t('workbook.session.extensionLeft', { count: remainingExtension(session) })}
        >
          {t('workbook.session.extend')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {choices.map((minutes) => (
          <Menu.Item key={minutes} onClick={() => onExtend(minutes)}>
            {t('workbook.session.extendBy', { count: minutes })}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
