/** The part of an address after the `@`, lower-cased. */
export function domainOf(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1).toLowerCase();
}

/**
 * Whether an e-mail address may sign in or register under ALLOWED_EMAIL_DOMAINS: no list allows every
 * address; a listed domain also admits its subdomains (`ecc.example.ac.jp` under `example.ac.jp`).
 */
export function isAllowedEmailDomain(email: string, domains: readonly string[] | undefined): boolean {
  if (!domains || domains.length === 0) return true;
  const domain = domainOf(email);
  return domains.some((allowed) => domain === allowed || domain.endsWith(`.${allowed}`));
}
