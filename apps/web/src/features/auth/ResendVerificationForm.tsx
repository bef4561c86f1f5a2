import { Button, Group, Text, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/client.ts';
import { errorMessage } from '../../ui/errors.ts';
import { notifyError, notifySuccess } from '../../ui/notify.ts';
import { resendVerificationEmail } from './registration.api.ts';

/**
 * Asks for a new verification e-mail. The answer is the same whether or not the address has a pending
 * registration, so the page says only that an e-mail is on its way if there is one to send.
 */
export function ResendVerificationForm({ initialEmail = '' }: { initialEmail?: string }) {
  const { t } = useTranslation();
  const [email, setEmail] = useState(initialEmail);
  const resend = useMutation({
    mutationFn: () => resendVerificationEmail({ email: email.trim() }),
    onSuccess: () => notifySuccess(t('auth.verifyEmail.resent')),
    onError: (error) =>
      notifyError(
        isApiError(error, 429)
          ? errorMessage(error, t)
          : isApiError(error, 400)
            ? t('auth.register.emailInvalid')
            : t('auth.verifyEmail.resendFailed'),
      ),
  });
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (email.trim() !== '') resend.mutate();
      }}
    >
      <Text size="sm" mb="xs">
        {t('auth.verifyEmail.resendHelp')}
      </Text>
      <Group align="flex-end" gap="xs">
        <TextInput
          type="email"
          label={t('auth.login.email')}
          autoComplete="email"
          value={email}
          onChange={(event) => setEmail(event.currentTarget.value)}
          style={{ flex: 1 }}
        />
        <Button type="submit" variant="light" loading={resend.isPending} disabled={email.trim() === ''}>
          {t('auth.verifyEmail.resend')}
        </Button>
      </Group>
    </form>
  );
}
