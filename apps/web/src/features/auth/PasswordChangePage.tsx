import { Alert, Button, Paper, Stack, Text, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { isApiError } from '../../api/client.ts';
import { pathTo } from '../../app/route-table.ts';
import { notifyError, notifySuccess } from '../../ui/notify.ts';
import { changePassword } from './auth.api.ts';
import { NewPasswordFields } from './NewPasswordFields.tsx';
import { useIsAuthenticated, useSession } from './session.ts';

interface PasswordChangeForm {
  new_password1: string;
  new_password2: string;
}

export function PasswordChangePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const isAuthenticated = useIsAuthenticated();
  const form = useForm<PasswordChangeForm>({ defaultValues: { new_password1: '', new_password2: '' } });

  const submit = useMutation({
    mutationFn: changePassword,
    onSuccess: () => {
      notifySuccess(t('auth.passwordChange.success'));
      form.reset();
    },
    onError: (error) => {
      const detail = isApiError(error, 400)
        ? (error.firstFieldMessage('new_password2', 'new_password1') ?? error.body.detail)
        : undefined;
      notifyError(detail ?? t('auth.passwordChange.failed'), {
        title: detail ? t('auth.passwordChange.failed') : undefined,
      });
    },
  });

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
        {isAuthenticated ? (
          <form
            noValidate
            onSubmit={form.handleSubmit((values) => {
              if (values.new_password1 !== values.new_password2) {
                form.setError('new_password2', { type: 'match', message: t('auth.setPassword.mismatch') });
                return;
              }
              submit.mutate(values);
            })}
          >
            <Stack gap="sm">
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
