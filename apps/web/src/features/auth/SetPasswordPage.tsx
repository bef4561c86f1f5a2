import { Alert, Anchor, Button, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { isApiError } from '../../api/client.ts';
import { pathTo } from '../../routes/route-table.ts';
import { notifyError, notifySuccess } from '../../ui/notify.ts';
import { confirmPasswordReset } from './auth.api.ts';
import { NewPasswordFields } from './NewPasswordFields.tsx';
import { AuthCard } from './AuthCard.tsx';

/** Spec §9: the success notice and the redirect to /login both take 2000 ms. */
export const SET_PASSWORD_REDIRECT_MS = 2000;

interface SetPasswordForm {
  new_password1: string;
  new_password2: string;
}

export function SetPasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const uid = searchParams.get('uid') ?? '';
  const token = searchParams.get('token') ?? '';
  const hasLink = uid !== '' && token !== '';
  const redirectTimer = useRef<number | undefined>(undefined);
  const form = useForm<SetPasswordForm>({ defaultValues: { new_password1: '', new_password2: '' } });

  useEffect(() => () => window.clearTimeout(redirectTimer.current), []);

  const submit = useMutation({
    mutationFn: (values: SetPasswordForm) => confirmPasswordReset({ ...values, uid, token }),
    onSuccess: () => {
      notifySuccess(t('auth.setPassword.success'), { autoClose: SET_PASSWORD_REDIRECT_MS });
      redirectTimer.current = window.setTimeout(
        () => navigate(pathTo('Login'), { replace: true }),
        SET_PASSWORD_REDIRECT_MS,
      );
    },
    onError: (error) => {
      if (isApiError(error, 400)) {
        const linkBroken = error.fieldMessages('token').length > 0 || error.fieldMessages('uid').length > 0;
        const message =
          error.firstFieldMessage('new_password2') ??
          (linkBroken ? t('auth.setPassword.invalidLink') : undefined) ??
          error.firstFieldMessage('new_password1') ??
          error.body.detail;
        notifyError(message);
      } else {
        notifyError(t('auth.setPassword.failed'));
      }
    },
  });

  const onSubmit = form.handleSubmit((values) => {
    if (values.new_password1 !== values.new_password2) {
      notifyError(t('auth.setPassword.mismatch'), { autoClose: SET_PASSWORD_REDIRECT_MS });
      return;
    }
    submit.mutate(values);
  });

  return (
    <AuthCard title={t('routes.setPassword')} width={440}>
      {hasLink ? (
        <form noValidate onSubmit={onSubmit}>
          <Stack gap="sm">
            <NewPasswordFields
              form={form}
              names={['new_password1', 'new_password2']}
              labels={[t('auth.setPassword.newPassword'), t('auth.setPassword.confirmPassword')]}
            />
            <Button type="submit" mt="xs" loading={submit.isPending} disabled={submit.isSuccess}>
              {t('common.submit')}
            </Button>
          </Stack>
        </form>
      ) : (
        <Alert color="red" role="alert" title={t('auth.setPassword.invalidLink')}>
          <Text size="sm">{t('auth.setPassword.askForNewLink')}</Text>
        </Alert>
      )}
      <Anchor component={Link} to={pathTo('Login')} size="sm">
        {t('auth.setPassword.backToLogin')}
      </Anchor>
    </AuthCard>
  );
}
