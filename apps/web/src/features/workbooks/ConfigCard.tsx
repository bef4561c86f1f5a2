import { ActionIcon, Button, Card, Group, Menu, Stack, Text, Title } from '@mantine/core';
import { IconClock, IconCpu, IconDots, IconEdit, IconPlayerPlay, IconTrash } from '@tabler/icons-react';
import type { WorkbookConfig } from '@kadai/contracts';
import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Markdown } from '../../ui/Markdown.tsx';

/** One configuration: what it is for, what a session gets, and the button that opens one. */
export function ConfigCard({
  config,
  onOpen,
  opening,
  manage,
}: {
  config: WorkbookConfig;
  onOpen: () => void;
  opening: boolean;
  manage?: { onEdit: () => void; onDelete: () => void };
}) {
  const { t } = useTranslation();
  const headingId = useId();
  return (
    <Card withBorder radius="md" padding="md" component="article" aria-labelledby={headingId} h="100%">
      <Stack gap="xs" h="100%">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Title order={2} size="h4" id={headingId}>
            {config.name}
          </Title>
          {manage ? <ConfigMenu config={config} {...manage} /> : null}
        </Group>
        {config.description.trim() ? <Markdown source={config.description} /> : null}
        <Stack gap={2} mt="auto">
          <Fact icon={<IconClock size={16} aria-hidden />}>
            {t('workbook.configs.lifetime', { count: config.lifetime_minutes })}
            {config.max_extension_minutes > 0
              ? ` ${t('workbook.configs.extension', { count: config.max_extension_minutes })}`
              : ''}
          </Fact>
          <Fact icon={<IconCpu size={16} aria-hidden />}>
            {t('workbook.configs.resources', { memory: config.memory_mb, cpu: config.cpu_seconds })}
          </Fact>
        </Stack>
        <Group justify="flex-end">
          <Button
            leftSection={<IconPlayerPlay size={16} aria-hidden />}
            onClick={onOpen}
            loading={opening}
            aria-label={t('workbook.configs.openNamed', { name: config.name })}
          >
            {t('workbook.configs.open')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

function Fact({ icon, children }: { icon: ReactNode; children: ReactNode }) {
  return (
    <Group gap={6} wrap="nowrap" align="flex-start">
      <span style={{ display: 'flex', flexShrink: 0, paddingTop: 2 }}>{icon}</span>
      <Text size="sm" c="dimmed">
        {children}
      </Text>
    </Group>
  );
}

function ConfigMenu({
  config,
  onEdit,
  onDelete,
}: {
  config: WorkbookConfig;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Menu position="bottom-end">
      <Menu.Target>
        <ActionIcon variant="subtle" aria-label={t('workbook.configs.actionsFor', { name: config.name })}>
          <IconDots size={16} aria-hidden />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item leftSection={<IconEdit size={14} aria-hidden />} onClick={onEdit}>
          {t('workbook.configs.edit')}
        </Menu.Item>
        <Menu.Item color="red" leftSection={<IconTrash size={14} aria-hidden />} onClick={onDelete}>
          {t('common.delete')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
