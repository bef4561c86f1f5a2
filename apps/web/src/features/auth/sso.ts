import { SSO_ERRORS, type PublicIdentityProvider, type SsoError } from '@kadai/contracts';
import { buildUrl } from '../../api/client.ts';
import { isSameSitePath } from './sign-in.ts';

/** A provider's name in the reader's language: `name_ja` for Japanese, `name_en` otherwise. */
export function providerName(
  provider: Pick<PublicIdentityProvider, 'name_ja' | 'name_en'>,
  language: string,
): string {
  return language === 'ja' ? provider.name_ja : provider.name_en;
}

/**
 * Where the browser goes to sign in with a provider (a page load, not a call: the server answers with a
 * redirect to the university). `next` is the page to come back to, sent only when it is of this site.
 */
export function ssoStartUrl(slug: string, next: string | null): string {
  return buildUrl(
    'startSso',
    '/Auth/Sso/{slug}/start/',
    { slug },
    { next: isSameSitePath(next) ? next : null },
  );
}

/** The `sso_error` a failed sign-in came back with, or `unknown` for a code this version does not know. */
export function ssoErrorOf(value: string | null): SsoError | 'unknown' | null {
  if (value === null || value === '') return null;
  return SSO_ERRORS.find((code) => code === value) ?? 'unknown';
}

/** The domain of an e-mail address as typed (lower case), or null while there is none. */
export function emailDomainOf(email: string): string | null {
  const at = email.lastIndexOf('@');
  const domain =
    at < 0
      ? ''
      : email
          .slice(at + 1)
          .trim()
          .toLowerCase();
  return domain.includes('.') && !domain.endsWith('.') ? domain : null;
}

/** Whether `domain` is `parent` or one of its subdomains (`cs.u-tokyo.ac.jp` is under `u-tokyo.ac.jp`). */
export function isDomainUnder(domain: string, parent: string): boolean {
  const normalized = parent.trim().toLowerCase();
  return normalized !== '' && (domain === normalized || domain.endsWith(`.${normalized}`));
}

/**
 * The password-hidden domain an e-mail address belongs to (people there sign in through their
 * university), or null.
 */
export function passwordHiddenDomainOf(email: string, hiddenDomains: readonly string[]): string | null {
  const domain = emailDomainOf(email);
  if (domain === null) return null;
  return hiddenDomains.find((parent) => isDomainUnder(domain, parent)) ?? null;
}

/** The providers for an address: those whose e-mail domain it is under, else every provider. */
export function providersForEmail<T extends Pick<PublicIdentityProvider, 'email_domain'>>(
  email: string,
  providers: readonly T[],
): readonly T[] {
  const domain = emailDomainOf(email);
  const matching =
    domain === null
      ? []
      : providers.filter((provider) => provider.email_domain && isDomainUnder(domain, provider.email_domain));
  return matching.length > 0 ? matching : providers;
}
