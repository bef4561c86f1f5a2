import { Button, Paper, Stack, Text, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import type { User } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '../../i18n/format.ts';
import { CopyField } from '../../ui/CopyField.tsx';
import { errorMessage } from '../../ui/errors.ts';
import { notifyError } from '../../ui/notify.ts';
import { createSetPasswordLink } from './users.api.ts';

/** Staff: a one-time link with which the person sets a (new) password, to send them by mail or chat. */
export function SetPasswordLinkPanel({ user }: { user: User }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const create = useMutation({
    mutationFn: () => createSetPasswordLink(user.id),
    onError: (error) => notifyError(errorMessage(error, t)),
  });
  return (
    <Paper withBorder p="lg" radius="md">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('profile.setPasswordLink.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('profile.setPasswordLink.help')}
        </Text>
        {create.data ? (
          <>
            <CopyField label={t('profile.setPasswordLink.link')} value={create.data.url} />
            <Text size="sm">
              {t('profile.setPasswordLink.expires', { date: format.dateTime(create.data.expires_at) })}
            </Text>
          </>
        ) : null}
        <div>
          <Button variant="light" onClick={() => create.mutate()} loading={create.isPending}>
            {create.data ? t('profile.setPasswordLink.again') : t('profile.setPasswordLink.create')}
          </Button>
        </div>
      </Stack>
    </Paper>
  );
}
