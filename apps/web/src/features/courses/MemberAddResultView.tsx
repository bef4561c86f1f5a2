import { Alert, Badge, CloseButton, Group, List, Stack, Text } from '@mantine/core';
import type { MemberAddResult } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';
import { CopyField } from '../../ui/CopyField.tsx';
import { memberName } from './member-name.ts';

/**
 * What adding did, person by person: added, already there, new accounts (with links), institutional ids
 * held until their first sign-in, not understood.
 */
export function MemberAddResultView({
  result,
  onDismiss,
}: {
  result: MemberAddResult;
  onDismiss: () => void;
}) {
  const { t, i18n } = useTranslation();
  const problems =
    result.invalid.length +
    result.unknown_ids.length +
    result.unknown_emails.length +
    result.ambiguous.length;
  return (
    <Alert
      color={problems > 0 ? 'orange' : 'teal'}
      title={t('members.result.title')}
      role="status"
      withCloseButton={false}
    >
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start">
          <Group gap="xs">
            <Badge color="teal" variant="light">
              {t('members.result.added', { count: result.added.length })}
            </Badge>
            <Badge color="gray" variant="light">
              {t('members.result.already', { count: result.already.length })}
            </Badge>
            <Badge color="blue" variant="light">
              {t('members.result.created', { count: result.created.length })}
            </Badge>
            {result.pending.length > 0 ? (
              <Badge color="grape" variant="light">
                {t('members.result.pending', { count: result.pending.length })}
              </Badge>
            ) : null}
            {problems > 0 ? (
              <Badge color="orange" variant="light">
                {t('members.result.problems', { count: problems })}
              </Badge>
            ) : null}
          </Group>
          <CloseButton aria-label={t('common.dismiss')} onClick={onDismiss} />
        </Group>
        {result.added.length > 0 ? (
          <Text size="sm">
            {t('members.result.addedList')}:{' '}
            {result.added.map((person) => memberName(person, i18n.language)).join(', ')}
          </Text>
        ) : null}
        {result.already.length > 0 ? (
          <Text size="sm">
            {t('members.result.alreadyList')}:{' '}
            {result.already.map((person) => memberName(person, i18n.language)).join(', ')}
          </Text>
        ) : null}
        {result.created.length > 0 ? (
          <Stack gap="xs">
            <Text size="sm" fw={500}>
              {t('members.result.createdHelp')}
            </Text>
            {result.created.map(({ user, set_password }) =>
              set_password ? (
                <CopyField
                  key={user.id}
                  label={t('members.result.linkFor', { email: user.email })}
                  value={set_password.url}
                />
              ) : (
                // An editor's invitees get their link by e-mail only.
                <Text key={user.id} size="sm">
                  {t('members.result.invited', { email: user.email })}
                </Text>
              ),
            )}
          </Stack>
        ) : null}
        {result.pending.length > 0 ? (
          <Text size="sm">
            {t('members.result.pendingList')}: {result.pending.join(', ')}
          </Text>
        ) : null}
        {result.invalid.length > 0 ? (
          <div>
            <Text size="sm" fw={500}>
              {t('members.result.invalid')}
            </Text>
            <List size="sm">
              {result.invalid.slice(0, 50).map((entry, index) => (
                <List.Item key={`${index}-${entry}`}>{entry}</List.Item>
              ))}
            </List>
          </div>
        ) : null}
        {result.unknown_emails.length > 0 ? (
          <Text size="sm">
            {t('members.result.unknownEmails')}: {result.unknown_emails.join(', ')}
          </Text>
        ) : null}
        {result.ambiguous.length > 0 ? (
          <Text size="sm">
            {t('members.result.ambiguous')}: {result.ambiguous.join(', ')}
          </Text>
        ) : null}
        {result.unknown_ids.length > 0 ? (
          <Text size="sm">
            {t('members.result.unknownIds')}: {result.unknown_ids.join(', ')}
          </Text>
        ) : null}
      </Stack>
    </Alert>
  );
}
