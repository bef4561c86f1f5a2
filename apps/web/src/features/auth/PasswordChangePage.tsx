import { Alert, Button, Paper, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PasswordChangeRequest } from '@kadai/contracts';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { isApiError } from '../../api/client.ts';
import { PageLoader } from '../../ui/PageLoader.tsx';
import { pathTo } from '../../routes/route-table.ts';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { errorMessage } from '../../ui/errors.ts';
import { notifyError, notifySuccess } from '../../ui/notify.ts';
import { PasswordField } from '../../ui/PasswordField.tsx';
import { userKeys, userQuery } from '../users/users.queries.ts';
import { changePassword } from './auth.api.ts';
import { NewPasswordFields } from './NewPasswordFields.tsx';
import { useIsAuthenticated, useSession } from './session.ts';

interface PasswordChangeForm {
  old_password: string;
  new_password1: string;
  new_password2: string;
}

export function PasswordChangePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const isAuthenticated = useIsAuthenticated();
  const userId = useSession((s) => s.userId);

  // The page is open to everyone (spec §2), but changing a password needs to know whose it is.
  const signInFirst = () => {
    useSession.getState().setCallback(pathTo('PasswordChange'));
    navigate(pathTo('Login'));
  };

  return (
    <Paper withBorder p="xl" radius="md" maw={480} mx="auto" mt="md">
      <Stack gap="md">
        <Title order={1} size="h2">
          {t('routes.passwordChange')}
        </Title>
        {isAuthenticated && userId !== null ? (
          <PasswordChange userId={userId} />
        ) : (
          <Alert color="blue" title={t('auth.passwordChange.signInTitle')}>
            <Text size="sm" mb="sm">
              {t('auth.passwordChange.signInFirst')}
            </Text>
            <Button onClick={signInFirst}>{t('auth.login.submit')}</Button>
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}

/**
 * The form of a signed-in user. It asks for the current password only when the account has one: an
 * account opened through Google has none yet, and sets its first one here (docs/auth.md, "Passwords").
 */
function PasswordChange({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const user = useQuery(userQuery(userId));
  const form = useForm<PasswordChangeForm>({
    defaultValues: { old_password: '', new_password1: '', new_password2: '' },
  });

  const submit = useMutation({
    mutationFn: changePassword,
    onSuccess: () => {
      notifySuccess(t('auth.passwordChange.success'));
      form.reset();
      // An account that had no password has one now, and is asked for it next time.
      void queryClient.invalidateQueries({ queryKey: userKeys.detail(userId) });
    },
    onError: (error) => {
      if (!isApiError(error, 400)) {
        notifyError(isApiError(error, 429) ? errorMessage(error, t) : t('auth.passwordChange.failed'));
        return;
      }
      // Each message under its own field, the first of them in the notice too.
      const oldPasswordMessage = error.firstFieldMessage('old_password');
      if (oldPasswordMessage) form.setError('old_password', { type: 'server', message: oldPasswordMessage });
      const newPasswordMessage = error.firstFieldMessage('new_password2', 'new_password1');
      if (newPasswordMessage) form.setError('new_password2', { type: 'server', message: newPasswordMessage });
      const detail = newPasswordMessage ?? oldPasswordMessage ?? error.body.detail;
      notifyError(detail, { title: t('auth.passwordChange.failed') });
    },
  });

  if (user.isError) return <ErrorState error={user.error} onRetry={() => void user.refetch()} />;
  if (!user.data) return <PageLoader />;
  const hasPassword = user.data.has_password;

  return (
    <form
      noValidate
      onSubmit={form.handleSubmit(({ old_password, ...passwords }) => {
        if (passwords.new_password1 !== passwords.new_password2) {
          form.setError('new_password2', { type: 'match', message: t('auth.setPassword.mismatch') });
          return;
        }
        const body: PasswordChangeRequest = hasPassword ? { old_password, ...passwords } : passwords;
        submit.mutate(body);
      })}
    >
      <Stack gap="sm">
        {hasPassword ? (
          <PasswordField
            label={t('auth.passwordChange.currentPassword')}
            autoComplete="current-password"
            required
            error={form.formState.errors.old_password?.message}
            {...form.register('old_password', {
              required: t('auth.passwordChange.currentPasswordRequired'),
            })}
          />
        ) : null}
        <NewPasswordFields
          form={form}
          names={['new_password1', 'new_password2']}
          labels={[t('auth.passwordChange.newPassword'), t('auth.passwordChange.retypePassword')]}
        />
        <Button type="submit" mt="xs" loading={submit.isPending}>
          {t('auth.passwordChange.submit')}
        </Button>
      </Stack>
    </form>
  );
}
