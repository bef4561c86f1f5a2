import { Badge, Button, Group, Skeleton, Stack, Table, Text, TextInput } from '@mantine/core';
import { IconClockEdit, IconSearch, IconX } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { Extension } from '@kadai/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '../../i18n/format.ts';
import { CardItem, CardList } from '../../ui/CardList.tsx';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { useIsPhone } from '../../ui/useIsPhone.ts';
import { memberName } from '../courses/member-name.ts';
import { CourseDates, OwnDates } from './ExtensionDates.tsx';
import { extensionsQuery } from './extensions.api.ts';
import { prefillOf, type GrantPrefill } from './extension-form.ts';
import { RevokeExtensionDialog } from './RevokeExtensionDialog.tsx';

const keyOf = (extension: Extension) => `${extension.kind}-${extension.item_id}-${extension.user.id}`;

/** Extensions whose student (name or e-mail) or item title holds `search`, case and width ignored. */
export function filterExtensions(extensions: readonly Extension[], search: string, language: string) {
  const needle = search.normalize('NFKC').trim().toLocaleLowerCase();
  if (!needle) return [...extensions];
  return extensions.filter((extension) =>
    `${memberName(extension.user, language)} ${extension.user.email} ${extension.item_title}`
      .normalize('NFKC')
      .toLocaleLowerCase()
      .includes(needle),
  );
}

/** The course's extensions: a table, or cards on a phone; each can be changed or revoked. */
export function ExtensionTable({
  courseId,
  onChange,
}: {
  courseId: number;
  onChange: (prefill: GrantPrefill) => void;
}) {
  const { t, i18n } = useTranslation();
  const format = useFormatters();
  const isPhone = useIsPhone();
  const list = useQuery(extensionsQuery(courseId));
  const [search, setSearch] = useState('');
  const [revoking, setRevoking] = useState<Extension | null>(null);

  if (list.isError) return <ErrorState error={list.error} onRetry={() => void list.refetch()} />;
  if (!list.data) return <Skeleton height={200} aria-busy="true" />;
  const { count, results } = list.data;
  if (results.length === 0) return <Text c="dimmed">{t('extensions.empty')}</Text>;
  const rows = filterExtensions(results, search, i18n.language);

  const actions = (extension: Extension, variant: 'subtle' | 'light') => {
    const names = { name: memberName(extension.user, i18n.language), title: extension.item_title };
    return (
      <>
        <Button
          size="compact-sm"
          variant={variant}
          leftSection={<IconClockEdit size={14} aria-hidden />}
          onClick={() => onChange(prefillOf(extension))}
          aria-label={t('extensions.changeNamed', names)}
        >
          {t('extensions.change')}
        </Button>
        <Button
          size="compact-sm"
          variant={variant}
          color="red"
          leftSection={<IconX size={14} aria-hidden />}
          onClick={() => setRevoking(extension)}
          aria-label={t('extensions.revokeNamed', names)}
        >
          {t('extensions.revoke')}
        </Button>
      </>
    );
  };
  const student = (extension: Extension) => (
    <>
      <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
        {memberName(extension.user, i18n.language)}
      </Text>
      <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
        {extension.user.email}
      </Text>
    </>
  );
  const item = (extension: Extension) => (
    <Stack gap={4} align="flex-start">
      <Badge variant="light" color={extension.kind === 'quiz' ? 'grape' : 'blue'}>
        {t(`extensions.kind.${extension.kind}`)}
      </Badge>
      <Text size="sm" style={{ overflowWrap: 'break-word' }}>
        {extension.item_title}
      </Text>
    </Stack>
  );
  const granted = (extension: Extension) => (
    <>
      <Text size="sm">{format.dateTime(extension.granted_at)}</Text>
      <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
        {extension.granted_by
          ? t('extensions.grantedBy', { name: memberName(extension.granted_by, i18n.language) })
          : t('extensions.grantedByUnknown')}
      </Text>
    </>
  );
  const reason = (extension: Extension) => (
    <Text size="sm" style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-line' }}>
      {extension.reason}
    </Text>
  );

  return (
    <Stack>
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <TextInput
          label={t('extensions.search')}
          type="search"
          leftSection={<IconSearch size={16} aria-hidden />}
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          style={{ flex: 1, minWidth: 200, maxWidth: 420 }}
        />
        <Text size="sm" c="dimmed" aria-live="polite">
          {count > results.length
            ? t('extensions.truncated', { shown: results.length, count })
            : t('extensions.count', { count })}
        </Text>
      </Group>
      {rows.length === 0 ? (
        <Text c="dimmed">{t('extensions.noMatch')}</Text>
      ) : isPhone ? (
        <CardList label={t('extensions.tabs.list')}>
          {rows.map((extension) => (
            <CardItem
              key={keyOf(extension)}
              heading={
                <Stack gap={4}>
                  <div>{student(extension)}</div>
                  {item(extension)}
                </Stack>
              }
              facts={[
                {
                  label: t('extensions.columns.theirs'),
                  value: <OwnDates kind={extension.kind} dates={extension} />,
                },
                { label: t('extensions.columns.course'), value: <CourseDates extension={extension} /> },
                { label: t('extensions.columns.reason'), value: reason(extension) },
                { label: t('extensions.columns.granted'), value: granted(extension) },
              ]}
              actions={actions(extension, 'light')}
            />
          ))}
        </CardList>
      ) : (
        <Table.ScrollContainer minWidth={1100}>
          <Table striped highlightOnHover verticalSpacing="sm" aria-label={t('extensions.tabs.list')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('extensions.columns.student')}</Table.Th>
                <Table.Th>{t('extensions.columns.item')}</Table.Th>
                <Table.Th>{t('extensions.columns.theirs')}</Table.Th>
                <Table.Th>{t('extensions.columns.course')}</Table.Th>
                <Table.Th>{t('extensions.columns.reason')}</Table.Th>
                <Table.Th>{t('extensions.columns.granted')}</Table.Th>
                <Table.Th>{t('extensions.columns.actions')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((extension) => (
                <Table.Tr key={keyOf(extension)}>
                  <Table.Td maw={220}>{student(extension)}</Table.Td>
                  <Table.Td maw={240}>{item(extension)}</Table.Td>
                  <Table.Td>
                    <OwnDates kind={extension.kind} dates={extension} />
                  </Table.Td>
                  <Table.Td c="dimmed">
                    <CourseDates extension={extension} />
                  </Table.Td>
                  <Table.Td maw={240}>{reason(extension)}</Table.Td>
                  <Table.Td>{granted(extension)}</Table.Td>
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      {actions(extension, 'subtle')}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <RevokeExtensionDialog courseId={courseId} extension={revoking} onClose={() => setRevoking(null)} />
    </Stack>
  );
}
