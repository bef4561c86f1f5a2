import { Alert, Anchor, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { IconAt, IconMailCheck } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import type { Language } from '@kadai/contracts';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, Navigate } from 'react-router';
import { isApiError } from '../../api/client.ts';
import { pathTo } from '../../routes/route-table.ts';
import { errorMessage } from '../../ui/errors.ts';
import { notifyError } from '../../ui/notify.ts';
import { usePublicConfig } from '../config/config.api.ts';
import { NewPasswordFields } from './NewPasswordFields.tsx';
import { registerWithEmail } from './registration.api.ts';
import { ResendVerificationForm } from './ResendVerificationForm.tsx';
import { useIsAuthenticated } from './session.ts';
import { AuthCard } from './AuthCard.tsx';

interface RegisterForm {
  email: string;
  first_name: string;
  last_name: string;
  password1: string;
  password2: string;
}

const FIELDS = ['email', 'first_name', 'last_name', 'password1', 'password2'] as const;

/** Self-registration: an inactive account, then a verification e-mail whose link activates it. */
export function RegisterPage() {
  const { t, i18n } = useTranslation();
  const { productName, selfRegistration, isLoading } = usePublicConfig();
  const isAuthenticated = useIsAuthenticated();
  const form = useForm<RegisterForm>({
    defaultValues: { email: '', first_name: '', last_name: '', password1: '', password2: '' },
  });

  const register = useMutation({
    mutationFn: (values: RegisterForm) =>
      registerWithEmail({
        ...values,
        email: values.email.trim(),
        display_lang: (i18n.language === 'en-US' ? 'en-US' : 'ja') satisfies Language,
      }),
    onError: (error) => {
      if (isApiError(error, 400)) {
        // The server's messages, in the reader's language for the password rules, beside each field.
        for (const field of FIELDS) {
          const message = error.firstFieldMessage(field);
          if (message) form.setError(field, { message });
        }
        return;
      }
      notifyError(errorMessage(error, t));
    },
  });

  if (isAuthenticated) return <Navigate to={pathTo('Course')} replace />;

  const onSubmit = form.handleSubmit((values) => {
    if (values.password1 !== values.password2) {
      form.setError('password2', { message: t('auth.setPassword.mismatch') });
      return;
    }
    register.mutate(values);
  });

  const errors = form.formState.errors;
  return (
    <AuthCard
      title={t('routes.register')}
      subtitle={t('auth.login.subtitle', { product: productName })}
      width={460}
    >
      {register.isSuccess ? (
        <>
          <Alert color="teal" icon={<IconMailCheck aria-hidden />} title={t('auth.register.sentTitle')}>
            <Text size="sm">{t('auth.register.sent', { email: form.getValues('email').trim() })}</Text>
          </Alert>
          <ResendVerificationForm initialEmail={form.getValues('email').trim()} />
        </>
      ) : !isLoading && !selfRegistration ? (
        <Alert color="orange" role="alert" title={t('auth.register.closedTitle')}>
          <Text size="sm">{t('auth.register.closed', { product: productName })}</Text>
        </Alert>
      ) : (
        <form noValidate onSubmit={onSubmit}>
          <Stack gap="sm">
            <TextInput
              type="email"
              label={t('auth.login.email')}
              autoComplete="email"
              leftSection={<IconAt size={16} aria-hidden />}
              required
              error={errors.email?.message}
              {...form.register('email', { required: t('validation.emailRequired') })}
            />
            <Group grow gap="sm" align="flex-start">
              <TextInput
                label={t('profile.lastName')}
                autoComplete="family-name"
                error={errors.last_name?.message}
                {...form.register('last_name')}
              />
              <TextInput
                label={t('profile.firstName')}
                autoComplete="given-name"
                error={errors.first_name?.message}
                {...form.register('first_name')}
              />
            </Group>
            <NewPasswordFields
              form={form}
              names={['password1', 'password2']}
              labels={[t('auth.login.password'), t('auth.setPassword.confirmPassword')]}
            />
            <Button type="submit" mt="xs" fullWidth loading={register.isPending}>
              {t('auth.register.submit')}
            </Button>
          </Stack>
        </form>
      )}
      <Anchor component={Link} to={pathTo('Login')} size="sm">
        {t('auth.setPassword.backToLogin')}
      </Anchor>
    </AuthCard>
  );
}
