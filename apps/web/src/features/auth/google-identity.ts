/*
 * Google Identity Services, the token model (https://developers.google.com/identity/oauth2/web/guides/use-token-model):
 * the script from the provider's domain (spec §7 "Outside calls"), a token client for our client id,
 * and `requestAccessToken()` (Google's pop-up), whose callback receives the access token we send to
 * the server. Only the few members we call are typed here.
 */

export const GOOGLE_SCOPE = 'openid email profile';

export interface GoogleTokenResponse {
  access_token?: string;
  error?: string;
  error_description?: string;
}

/** Why Google's side ended without a token: the pop-up closed, was blocked, or failed. */
export interface GoogleClientError {
  type: string;
  message?: string;
}

export interface GoogleTokenClient {
  requestAccessToken(overrides?: { prompt?: string }): void;
}

export interface GoogleTokenClientConfig {
  client_id: string;
  scope: string;
  callback: (response: GoogleTokenResponse) => void;
  error_callback?: (error: GoogleClientError) => void;
}

export interface GoogleOAuth2 {
  initTokenClient(config: GoogleTokenClientConfig): GoogleTokenClient;
}

declare global {
  interface Window {
    google?: { accounts?: { oauth2?: GoogleOAuth2 } };
  }
}

const loading = new Map<string, Promise<GoogleOAuth2>>();

function loaded(): GoogleOAuth2 | null {
  return window.google?.accounts?.oauth2 ?? null;
}

/**
 * Loads the identity script once per page (later calls share the first load) and resolves with
 * `google.accounts.oauth2`. A failed load is forgotten, so the next call tries again.
 */
export function loadGoogleIdentity(scriptUrl: string): Promise<GoogleOAuth2> {
  const ready = loaded();
  if (ready) return Promise.resolve(ready);
  const pending = loading.get(scriptUrl);
  if (pending) return pending;
  const promise = new Promise<GoogleOAuth2>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = scriptUrl;
    script.async = true;
    script.defer = true;
    script.onload = () => {
      const oauth2 = loaded();
      if (oauth2) resolve(oauth2);
      else reject(new Error('The Google identity script loaded without google.accounts.oauth2.'));
    };
    script.onerror = () => {
      script.remove();
      reject(new Error(`The Google identity script could not be loaded from ${scriptUrl}.`));
    };
    document.head.appendChild(script);
  });
  loading.set(scriptUrl, promise);
  promise.catch(() => loading.delete(scriptUrl));
  return promise;
}

/** What the person at the keyboard did rather than what failed: no message needed. */
export function isGoogleCancellation(reason: string | undefined): boolean {
  return reason === 'popup_closed' || reason === 'access_denied';
}
