import type { SsoError } from '@kadai/contracts';

/**
 * A sign-in that ends on the login page: `reason` is what the person is told (in their language, by
 * the web app); `message` is the technical cause, for the server log only.
 */
export class SsoFailure extends Error {
  override name = 'SsoFailure';
  constructor(
    readonly reason: SsoError,
    message: string,
  ) {
    super(message);
  }
}
