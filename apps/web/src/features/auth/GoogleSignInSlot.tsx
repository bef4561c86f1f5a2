/**
 * Where the Google sign-in button goes when the server is configured with a Google client id. The
 * Google sign-in issue renders the button here (it loads the provider's script with this client id).
 */
export function GoogleSignInSlot({ clientId }: { clientId: string }) {
  return <div id="google-sign-in" data-client-id={clientId} />;
}
