import { Center, Loader, Text, UnstyledButton } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { isApiError } from '../../api/client.ts';
import { notifyError } from '../../ui/notify.ts';
import darkNormal from '../../assets/google/sign-in-dark-normal.svg';
import darkPressed from '../../assets/google/sign-in-dark-pressed.svg';
import lightNormal from '../../assets/google/sign-in-light-normal.svg';
import lightPressed from '../../assets/google/sign-in-light-pressed.svg';
import { useSession } from './session.ts';
import { signInWithGoogle } from './sign-in.ts';
import {
  GOOGLE_SCOPE,
  isGoogleCancellation,
  loadGoogleIdentity,
  type GoogleTokenClient,
} from './google-identity.ts';

const IMAGES = {
  light: { normal: lightNormal, pressed: lightPressed },
  dark: { normal: darkNormal, pressed: darkPressed },
};

/** The server's reason (its error code) in the reader's language. */
function failureMessage(t: TFunction, error: unknown): string {
  if (isApiError(error, 502)) return t('auth.google.unavailable');
  if (isApiError(error, 429) && error.retryAfterSeconds !== null) {
    return t('auth.login.throttled', { seconds: error.retryAfterSeconds });
  }
  if (isApiError(error, 401)) {
    switch (error.body.code) {
      case 'email_not_verified':
        return t('auth.google.emailNotVerified');
      case 'email_domain_not_allowed':
        return t('auth.google.domainNotAllowed');
      case 'no_account':
        return t('auth.google.noAccount');
      case 'account_inactive':
        return t('auth.google.inactive');
      case 'google_account_mismatch':
        return t('auth.google.otherGoogleAccount');
    }
  }
  return t('auth.google.failed');
}

/**
 * Google sign-in for the login page: the token from Google goes to the server, then post-login. A
 * failure, here or on Google's side, clears both tokens (spec §4), is logged and is shown.
 */
export function useGoogleSignIn(onSignedIn: () => void) {
  const { t } = useTranslation();
  const mutation = useMutation({
    mutationFn: signInWithGoogle,
    onSuccess: onSignedIn,
    onError: (error) => {
      console.warn('Google sign-in failed', error);
      const message = failureMessage(t, error);
      const isGeneric = message === t('auth.google.failed');
      notifyError(message, { title: isGeneric ? undefined : t('auth.google.failedTitle') });
    },
  });
  const onGoogleError = (reason: string) => {
    console.warn('Google sign-in failed at Google', reason);
    useSession.getState().reset();
    notifyError(t('auth.google.failed'));
  };
  return {
    isPending: mutation.isPending,
    isSuccess: mutation.isSuccess,
    buttonProps: { onAccessToken: mutation.mutate, onGoogleError, busy: mutation.isPending },
  };
}

interface GoogleSignInButtonProps {
  clientId: string;
  scriptUrl: string;
  /** Google gave an access token: exchange it with the server. */
  onAccessToken: (accessToken: string) => void;
  /** Google's side failed (not a cancellation): why, for the log. */
  onGoogleError: (reason: string) => void;
  busy: boolean;
}

/**
 * The Google sign-in image button of the login page (spec §2): the light or dark image with the
 * colour scheme, the pressed image under the pointer. Google's identity script is loaded as the page
 * opens, so a click opens Google's pop-up at once (a browser blocks pop-ups opened later than a click).
 */
export function GoogleSignInButton({
  clientId,
  scriptUrl,
  onAccessToken,
  onGoogleError,
  busy,
}: GoogleSignInButtonProps) {
  const { t } = useTranslation();
  const isDarkMode = useSession((s) => s.isDarkMode);
  const [isPressed, setPressed] = useState(false);
  const [client, setClient] = useState<GoogleTokenClient | null>(null);
  const [hasLoadFailed, setLoadFailed] = useState(false);
  // The token client is made once; it calls whatever handlers the page passes now.
  const handlers = useRef({ onAccessToken, onGoogleError });
  useEffect(() => {
    handlers.current = { onAccessToken, onGoogleError };
  }, [onAccessToken, onGoogleError]);

  useEffect(() => {
    let isCurrent = true;
    loadGoogleIdentity(scriptUrl).then(
      (oauth2) => {
        if (!isCurrent) return;
        setClient(
          oauth2.initTokenClient({
            client_id: clientId,
            scope: GOOGLE_SCOPE,
            callback: (response) => {
              if (response.access_token) handlers.current.onAccessToken(response.access_token);
              else if (!isGoogleCancellation(response.error)) {
                handlers.current.onGoogleError(response.error ?? 'no access token');
              }
            },
            error_callback: (error) => {
              if (!isGoogleCancellation(error.type)) handlers.current.onGoogleError(error.type);
            },
          }),
        );
      },
      (error: unknown) => {
        if (!isCurrent) return;
        console.warn(error);
        setLoadFailed(true);
      },
    );
    return () => {
      isCurrent = false;
    };
  }, [clientId, scriptUrl]);

  if (hasLoadFailed) {
    return (
      <Text size="sm" c="dimmed" role="status">
        {t('auth.google.scriptFailed')}
      </Text>
    );
  }
  const images = IMAGES[isDarkMode ? 'dark' : 'light'];
  return (
    <Center>
      <UnstyledButton
        type="button"
        disabled={!client || busy}
        aria-busy={busy || !client}
        onClick={() => client?.requestAccessToken()}
        onMouseEnter={() => setPressed(true)}
        // React skips the enter when the pointer comes from a node it has just removed (the language
        // menu's item, after a click): the first move over the button presses it all the same.
        onMouseMove={() => setPressed(true)}
        onMouseLeave={() => setPressed(false)}
        onFocus={() => setPressed(true)}
        onBlur={() => setPressed(false)}
        style={{ position: 'relative', lineHeight: 0, borderRadius: 4, opacity: client ? 1 : 0.6 }}
      >
        <img
          src={isPressed ? images.pressed : images.normal}
          alt={t('auth.google.signIn')}
          width={200}
          height={44}
          data-variant={`${isDarkMode ? 'dark' : 'light'}-${isPressed ? 'pressed' : 'normal'}`}
        />
        {busy ? <Loader size="xs" style={{ position: 'absolute', right: 10, top: 15 }} aria-hidden /> : null}
      </UnstyledButton>
    </Center>
  );
}
