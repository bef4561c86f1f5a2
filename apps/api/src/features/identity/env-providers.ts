import { z } from 'zod';
import { IdentityProviderCreate } from '@kadai/contracts';
import type { AppContext } from '../../lib/context.ts';
import { listProviderRows, updateProviderRow, upsertEnvProviderRow } from './providers.repo.ts';
import { providerRowFrom } from './providers.service.ts';

/*
 * IDENTITY_PROVIDERS: providers declared by configuration, for installations run from it. Each entry
 * is the body `POST /api/IdentityProvider/` takes. At start-up each is made or brought up to date by
 * its slug (managed_by `env`, read-only in the app); one that was declared before and is no longer
 * is disabled, not deleted, so its people keep their links. A provider that cannot be reached keeps
 * its last good settings and the server starts anyway.
 */

export function parseEnvProviders(raw: string): IdentityProviderCreate[] {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new Error('IDENTITY_PROVIDERS is not JSON: give an array of identity providers.');
  }
  const parsed = z.array(IdentityProviderCreate).max(50).safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`IDENTITY_PROVIDERS: ${issue.path.join('.')}: ${issue.message}`);
  }
  return parsed.data;
}

export async function declareEnvProviders(ctx: AppContext): Promise<void> {
  const raw = ctx.config.IDENTITY_PROVIDERS;
  const declared = raw ? parseEnvProviders(raw) : [];
  for (const input of declared) {
    try {
      if (!(await upsertEnvProviderRow(ctx.db, await providerRowFrom(ctx, input)))) {
        ctx.log.error(
          { provider: input.slug },
          'IDENTITY_PROVIDERS: staff made a provider with this slug in the app; skipped',
        );
      }
    } catch (error) {
      ctx.log.error(
        { err: error, provider: input.slug },
        'IDENTITY_PROVIDERS: this provider could not be set up',
      );
    }
  }
  const slugs = new Set(declared.map((d) => d.slug));
  for (const row of await listProviderRows(ctx.db)) {
    if (row.managedBy === 'env' && !slugs.has(row.slug) && row.enabled) {
      await updateProviderRow(ctx.db, row.id, { enabled: false });
    }
  }
}
