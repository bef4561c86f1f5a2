import type { TestApp } from '../../../test/harness.ts';
import { tokenFor, type TestUser } from '../../../test/factories.ts';

/**
 * The person's rows of sign-in, identities and LMS links (part of createPersonalDataWorld): a session,
 * an institutional identity and the pending memberships around it, an SSO code, a Google account, an
 * LTI user with its context, score, code, deep link and registration token, and a calendar feed.
 */
export async function seedSignInRows(
  t: TestApp,
  ids: { person: TestUser; institutionalId: string; other: number; courseA: number; courseB: number },
): Promise<void> {
  const { person } = ids;
  const p = person.id;
  const o = ids.other;
  const a = ids.courseA;
  const b = ids.courseB;
  const q = async (text: string, values: unknown[] = []) => (await t.database.query(text, values)).rows;
  const one = async (text: string, values: unknown[] = []): Promise<number> => {
    const [row] = await q(text, values);
    return Number(row?.id);
  };

  await tokenFor(t, person);
  const provider = await one(
    `INSERT INTO identity_providers (slug, kind, name_ja, name_en, settings)
     VALUES ($1, 'oidc', '大学', 'University', '{}') RETURNING id`,
    [`idp-${p}`],
  );
  await q(
    `INSERT INTO user_identities (provider_id, external_id, user_id, institutional_id, email)
     VALUES ($1, $2, $3, $4, $5)`,
    [provider, `ext-${p}`, p, ids.institutionalId, person.email],
  );
  await q(
    `INSERT INTO pending_members (course_id, kind, institutional_id, added_by) VALUES ($1, 'student', $2, $3)`,
    [a, ids.institutionalId, o],
  );
  await q(
    `INSERT INTO pending_members (course_id, kind, institutional_id, added_by) VALUES ($1, 'student', $2, $3)`,
    [b, 's-someone-else', p],
  );
  await q(
    `INSERT INTO sso_codes (code_hash, purpose, provider_id, user_id, payload, expires_at)
     VALUES ($1, 'sign_in', $2, $3, $4, now() + interval '1 minute')`,
    [`hash-${p}`, provider, p, JSON.stringify({ email: person.email })],
  );
  await q(`INSERT INTO social_accounts (provider, subject, user_id, email) VALUES ('google', $1, $2, $3)`, [
    `g-${p}`,
    p,
    person.email,
  ]);
  const platform = await one(
    `INSERT INTO lti_platforms (name, issuer, client_id, auth_url, token_url, jwks_url)
     VALUES ('LMS', $1, 'client', 'https://lms.test/auth', 'https://lms.test/token', 'https://lms.test/jwks')
     RETURNING id`,
    [`https://lms-${p}.test`],
  );
  await q(`INSERT INTO lti_users (platform_id, sub, user_id, email) VALUES ($1, $2, $3, $4)`, [
    platform,
    `sub-${p}`,
    p,
    person.email,
  ]);
  const context = await one(
    `INSERT INTO lti_contexts (platform_id, deployment_id, context_id, course_id) VALUES ($1, 'd', $2, $3) RETURNING id`,
    [platform, `ctx-${p}`, a],
  );
  await q(`INSERT INTO lti_context_members (context_row_id, user_id, role) VALUES ($1, $2, 'learner')`, [
    context,
    p,
  ]);
  const lineItem = await one(
    `INSERT INTO lti_line_items (context_row_id, kind, item_id, url) VALUES ($1, 'assignment', 1, $2) RETURNING id`,
    [context, `https://lms.test/items/${p}`],
  );
  await q(`INSERT INTO lti_scores (line_item_id, user_id, score, status) VALUES ($1, $2, 2, 'sent')`, [
    lineItem,
    p,
  ]);
  await q(
    `INSERT INTO lti_codes (code_hash, purpose, platform_id, user_id, payload, expires_at)
     VALUES ($1, 'sign_in', $2, $3, '{}', now() + interval '1 minute')`,
    [`lti-${p}`, platform, p],
  );
  await q(
    `INSERT INTO lti_deep_links (id, platform_id, user_id, deployment_id, settings, expires_at)
     VALUES ($1, $2, $3, 'd', '{}', now() + interval '1 hour')`,
    [`dl-${p}`, platform, p],
  );
  await q(
    `INSERT INTO lti_registration_tokens (token_hash, created_by, expires_at) VALUES ($1, $2, now() + interval '1 day')`,
    [`reg-${p}`, p],
  );
  await q(`INSERT INTO calendar_feeds (user_id) VALUES ($1)`, [p]);
}
