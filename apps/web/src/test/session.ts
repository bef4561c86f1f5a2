import { SESSION_DEFAULTS, useSession } from '../features/auth/session.ts';
import { tokenExpiringIn } from './fetch.ts';

/** The persisted session of a signed-in student (user 4, English) whose token is good for two hours. */
export function signInAsStudent(): void {
  useSession.setState({
    ...SESSION_DEFAULTS,
    authToken: tokenExpiringIn(7200),
    refreshToken: 'refresh',
    userId: 4,
    roles: ['student'],
    displayLang: 'en-US',
  });
}
