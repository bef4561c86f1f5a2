import { z } from 'zod';
import { PublicIdentityProvider } from './identity.ts';

export const ComponentStatus = z.object({ ok: z.boolean(), detail: z.string() });
export const Health = z.object({
  status: z.enum(['ok', 'degraded']),
  version: z.string(),
  database: ComponentStatus.extend({ driver: z.enum(['pglite', 'postgres']) }),
  queue: ComponentStatus,
  sandbox: ComponentStatus,
});
export type Health = z.infer<typeof Health>;

export const PublicConfig = z.object({
  product_name: z.string(),
  google_client_id: z.string().nullable(),
  /** Google's identity script (tests serve a stand-in); older servers did not send it. */
  google_script_url: z.string().default('https://accounts.google.com/gsi/client'),
  provider_url: z.string(),
  /** Every visitor may open an account with a verified e-mail (`POST Auth/Email/Registration/`). */
  self_registration: z.boolean().default(false),
  /** One sign-in button per enabled SAML/OIDC provider (issue 37). */
  identity_providers: z.array(PublicIdentityProvider).default([]),
  /** E-mail domains whose people sign in through their institution, not with a password. */
  password_hidden_domains: z.array(z.string()).default([]),
});
export type PublicConfig = z.infer<typeof PublicConfig>;
