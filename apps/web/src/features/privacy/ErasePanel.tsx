import { Alert, Button, Group, Modal, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import type { Erasure, User } from '@kadai/contracts';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/client.ts';
import { errorMessage } from '../../ui/errors.ts';
import { notifyError, notifySuccess } from '../../ui/notify.ts';
import { erasePerson, isErasedEmail } from './privacy.api.ts';

/**
 * Staff, on another person's profile: erase their personal data (docs/privacy.md). The dialog asks for
 * their e-mail address typed out, which the server checks too, so a slip of the mouse erases no one.
 * `onErased` reloads the account, which then shows its pseudonym.
 */
export function ErasePanel({ user, onErased }: { user: User; onErased: (erasure: Erasure) => void }) {
  const { t } = useTranslation();
  const headingId = useId();
  const [opened, setOpened] = useState(false);
  if (isErasedEmail(user.email)) {
    return (
      <Paper withBorder p="lg" radius="md" component="section" aria-labelledby={headingId}>
        <Title order={2} size="h4" id={headingId} mb="xs">
          {t('personalData.erase.title')}
        </Title>
        <Text size="sm">{t('personalData.erase.done')}</Text>
      </Paper>
    );
  }
  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby={headingId}>
      <Stack gap="sm">
        <Title order={2} size="h4" id={headingId}>
          {t('personalData.erase.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('personalData.erase.help')}
        </Text>
        <div>
          <Button color="red" variant="light" onClick={() => setOpened(true)}>
            {t('personalData.erase.open')}
          </Button>
        </div>
      </Stack>
      <Modal opened={opened} onClose={() => setOpened(false)} title={t('personalData.erase.dialogTitle')}>
        {opened ? (
          <EraseForm
            user={user}
            onClose={() => setOpened(false)}
            onErased={(erasure) => {
              setOpened(false);
              onErased(erasure);
            }}
          />
        ) : null}
      </Modal>
    </Paper>
  );
}

function EraseForm({
  user,
  onClose,
  onErased,
}: {
  user: User;
  onClose: () => void;
  onErased: (erasure: Erasure) => void;
}) {
  const { t } = useTranslation();
  const [typed, setTyped] = useState('');
  const matches = typed.trim().toLowerCase() === user.email.toLowerCase();
  const erase = useMutation({
    mutationFn: () => erasePerson(user.id, { confirm_email: typed.trim() }),
    onSuccess: (erasure) => {
      notifySuccess(t('personalData.erase.erased', { pseudonym: erasure.pseudonym }));
      onErased(erasure);
    },
    onError: (error) => {
      if (!isApiError(error, 400))
        notifyError(errorMessage(error, t), { title: t('personalData.erase.failed') });
    },
  });
  const fieldError = isApiError(erase.error, 400) ? errorMessage(erase.error, t) : undefined;
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (matches) erase.mutate();
      }}
    >
      <Stack gap="md">
        <Alert color="red" icon={<IconAlertTriangle size={18} aria-hidden />}>
          <Text size="sm">{t('personalData.erase.warning')}</Text>
        </Alert>
        <TextInput
          label={t('personalData.erase.confirmLabel', { email: user.email })}
          value={typed}
          onChange={(event) => setTyped(event.currentTarget.value)}
          autoComplete="off"
          spellCheck={false}
          data-autofocus
          error={fieldError}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" color="red" disabled={!matches} loading={erase.isPending}>
            {t('personalData.erase.confirm')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
