import { Anchor, Button, Divider, Group, Stack, Text, TextInput } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconAt, IconLock } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { isApiError } from '../../api/client.ts';
import { useArrivedAtLogin } from './deliberate-logout.ts';
import { pathTo } from '../../routes/route-table.ts';
import { notifyError } from '../../ui/notify.ts';
import { PasswordField } from '../../ui/PasswordField.tsx';
import { usePublicConfig } from '../config/config.api.ts';
import { ForgotPasswordDialog } from './ForgotPasswordDialog.tsx';
import { GoogleSignInButton, useGoogleSignIn } from './GoogleSignInButton.tsx';
import { useIsAuthenticated, useSession } from './session.ts';
import { callbackTarget, signInWithEmail, takeCallback } from './sign-in.ts';
import { passwordHiddenDomainOf, providersForEmail, ssoErrorOf } from './sso.ts';
import { PasswordHiddenNote, SsoErrorAlert, SsoProviderButtons } from './SsoSignIn.tsx';
import { AuthCard } from './AuthCard.tsx';

interface LoginForm {
  email: string;
  password: string;
}

export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const {
    productName,
    googleClientId,
    googleScriptUrl,
    selfRegistration,
    identityProviders,
    passwordHiddenDomains,
  } = usePublicConfig();
  const [searchParams] = useSearchParams();
  const ssoError = ssoErrorOf(searchParams.get('sso_error'));
  const isAuthenticated = useIsAuthenticated();
  const hasCallback = useSession((s) => s.callback !== null);
  const [forgotOpened, forgot] = useDisclosure(false);
  const form = useForm<LoginForm>({ defaultValues: { email: '', password: '' } });
  const typedEmail = useWatch({ control: form.control, name: 'email' });
  useArrivedAtLogin();

  const signIn = useMutation({
    mutationFn: (values: LoginForm) => signInWithEmail(values.email.trim(), values.password),
    onSuccess: () => navigate(takeCallback(), { replace: true }),
    onError: (error) => {
      if (isApiError(error, 403) && error.body.code === 'password_sign_in_disabled') {
        notifyError(t('auth.login.passwordDisabled'), { title: t('auth.login.failed') });
        return;
      }
      const message =
        isApiError(error, 429) && error.retryAfterSeconds !== null
          ? t('auth.login.throttled', { seconds: error.retryAfterSeconds })
          : isApiError(error, 429)
            ? t('auth.login.throttledNoTime')
            : undefined;
      notifyError(message ?? t('auth.login.failed'), { title: message ? t('auth.login.failed') : undefined });
    },
  });

  const googleSignIn = useGoogleSignIn(() => navigate(takeCallback(), { replace: true }));

  // Signed in already (another tab, or the back button): nothing to do here. Rendering stays pure (it
  // may run twice); the remembered route is forgotten once the redirect is committed.
  const isSigningIn = [signIn, googleSignIn].some((m) => m.isPending || m.isSuccess);
  const isSignedInAlready = isAuthenticated && !isSigningIn;
  const callback = useSession((s) => s.callback);
  useEffect(() => {
    if (isSignedInAlready) useSession.getState().setCallback(null);
  }, [isSignedInAlready]);
  if (isSignedInAlready) return <Navigate to={callbackTarget(callback)} replace />;

  const errors = form.formState.errors;
  const hiddenDomain = passwordHiddenDomainOf(typedEmail, passwordHiddenDomains);
  const hasOtherWays = identityProviders.length > 0 || Boolean(googleClientId && googleScriptUrl);
  // Pressing Enter in the address field submits the form even without its button: nothing to send then.
  const submit = form.handleSubmit((values) => {
    if (hiddenDomain === null) signIn.mutate(values);
  });
  return (
    <>
      <AuthCard
        title={t('auth.login.heading')}
        subtitle={t('auth.login.subtitle', { product: productName })}
        width={420}
      >
        {ssoError ? <SsoErrorAlert code={ssoError} /> : null}
        {hasCallback ? (
          <Text size="sm" role="status">
            {t('auth.login.signInToContinue')}
          </Text>
        ) : null}
        <SsoProviderButtons providers={identityProviders} next={callback} />
        {googleClientId && googleScriptUrl ? (
          <GoogleSignInButton
            clientId={googleClientId}
            scriptUrl={googleScriptUrl}
            {...googleSignIn.buttonProps}
          />
        ) : null}
        {hasOtherWays ? <Divider label={t('auth.sso.or')} labelPosition="center" /> : null}
        <form noValidate onSubmit={submit}>
          <Stack gap="sm">
            <TextInput
              type="email"
              label={t('auth.login.email')}
              autoComplete="username"
              leftSection={<IconAt size={16} aria-hidden />}
              required
              error={errors.email?.message}
              {...form.register('email', { required: t('validation.emailRequired') })}
            />
            {hiddenDomain === null ? (
              <>
                <PasswordField
                  label={t('auth.login.password')}
                  autoComplete="current-password"
                  leftSection={<IconLock size={16} aria-hidden />}
                  required
                  error={errors.password?.message}
                  {...form.register('password', { required: t('validation.passwordRequired') })}
                />
                <Button type="submit" fullWidth mt="xs" loading={signIn.isPending}>
                  {t('auth.login.submit')}
                </Button>
              </>
            ) : (
              <PasswordHiddenNote
                domain={hiddenDomain}
                providers={providersForEmail(typedEmail, identityProviders)}
                next={callback}
              />
            )}
          </Stack>
        </form>
        <Group justify="space-between" gap="xs">
          <Anchor component="button" type="button" size="sm" onClick={forgot.open}>
            {t('auth.login.forgotten')}
          </Anchor>
          <Anchor component={Link} to={pathTo('About')} size="sm">
            {t('header.about')}
          </Anchor>
        </Group>
        {selfRegistration ? (
          <Text size="sm" ta="center">
            {t('auth.register.noAccount')}{' '}
            <Anchor component={Link} to={pathTo('Register')}>
              {t('auth.register.link')}
            </Anchor>
          </Text>
        ) : null}
      </AuthCard>
      <ForgotPasswordDialog opened={forgotOpened} onClose={forgot.close} productName={productName} />
    </>
  );
}
