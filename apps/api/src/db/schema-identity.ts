import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { authSessions, courses, createdAt, users } from './schema.ts';

/*
 * Sign-in through the institution's identity provider (issue 37, docs/sign-in.md). Everything a flow
 * needs between the redirect out and the answer back lives here, so whichever API instance the answer reaches can finish it.
 */

/** A SAML IdP or OpenID provider, managed in the app (`app`) or declared in IDENTITY_PROVIDERS (`env`). */
export const identityProviders = pgTable(
  'identity_providers',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    slug: text('slug').notNull(),
    kind: text('kind', { enum: ['saml', 'oidc'] }).notNull(),
    nameJa: text('name_ja').notNull(),
    nameEn: text('name_en').notNull(),
    emailDomain: text('email_domain'),
    enabled: boolean('enabled').notNull().default(true),
    allowCreate: boolean('allow_create').notNull().default(false),
    managedBy: text('managed_by', { enum: ['app', 'env'] })
      .notNull()
      .default('app'),
    /** The protocol's settings (identity/providers.ts: SamlSettings, OidcSettings) and the attribute map. */
    settings: jsonb('settings').notNull(),
    /** The OIDC client secret, AES-256-GCM under a key derived from the server's secret; never returned. */
    secretEnc: text('secret_enc'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('identity_providers_slug_key').on(t.slug)],
);

/** A person as one provider knows them: the stable id is the key, never the e-mail. */
export const userIdentities = pgTable(
  'user_identities',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    providerId: integer('provider_id')
      .notNull()
      .references(() => identityProviders.id, { onDelete: 'cascade' }),
    externalId: text('external_id').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** eppn or a student number (the provider's `institutional_id` attribute), for rosters. */
    institutionalId: text('institutional_id'),
    /** The e-mail the provider last reported, for display. */
    email: text('email'),
    createdAt: createdAt(),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('user_identities_provider_external_key').on(t.providerId, t.externalId),
    index('user_identities_user_idx').on(t.userId),
    index('user_identities_institutional_idx').on(sql`lower(${t.institutionalId})`),
  ],
);

/**
 * A sign-in on its way out to the provider: the SAML request id (InResponseTo), or the OIDC state with
 * its nonce and PKCE verifier. Taken once, by whichever instance the answer reaches.
 */
export const ssoRequests = pgTable(
  'sso_requests',
  {
    id: text('id').primaryKey(),
    providerId: integer('provider_id')
      .notNull()
      .references(() => identityProviders.id, { onDelete: 'cascade' }),
    /** The SAML AuthnRequest's ID; null for OIDC. */
    samlRequestId: text('saml_request_id'),
    nonce: text('nonce'),
    codeVerifier: text('code_verifier'),
    next: text('next'),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('sso_requests_saml_request_key').on(t.samlRequestId),
    index('sso_requests_expires_idx').on(t.expiresAt),
  ],
);

/** Every SAML assertion id accepted, until it expires: the same assertion never signs in twice. */
export const samlAssertionsSeen = pgTable(
  'saml_assertions_seen',
  {
    providerId: integer('provider_id')
      .notNull()
      .references(() => identityProviders.id, { onDelete: 'cascade' }),
    assertionId: text('assertion_id').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.providerId, t.assertionId] }),
    index('saml_assertions_seen_expires_idx').on(t.expiresAt),
  ],
);

/**
 * What a finished sign-in hands the web app, by a one-time code in the URL (only its hash is stored):
 * `sign_in` opens a session for `user_id`; `link` waits for the password of the account with `email`.
 */
export const ssoCodes = pgTable(
  'sso_codes',
  {
    codeHash: text('code_hash').primaryKey(),
    purpose: text('purpose', { enum: ['sign_in', 'link'] }).notNull(),
    providerId: integer('provider_id')
      .notNull()
      .references(() => identityProviders.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    /** The identity as asserted (identity/person.ts: Person) and, for SAML, the NameID and session index. */
    payload: jsonb('payload').notNull(),
    next: text('next'),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('sso_codes_expires_idx').on(t.expiresAt)],
);

/** A Kadai session opened through a SAML IdP: what single logout needs to find and end it. */
export const ssoSessions = pgTable(
  'sso_sessions',
  {
    sessionId: uuid('session_id')
      .primaryKey()
      .references(() => authSessions.id, { onDelete: 'cascade' }),
    providerId: integer('provider_id')
      .notNull()
      .references(() => identityProviders.id, { onDelete: 'cascade' }),
    nameId: text('name_id').notNull(),
    nameIdFormat: text('name_id_format'),
    sessionIndex: text('session_index'),
    createdAt: createdAt(),
  },
  (t) => [index('sso_sessions_provider_name_idx').on(t.providerId, t.nameId)],
);

/** Installation-wide sign-in settings: one row. */
export const signInSettings = pgTable(
  'sign_in_settings',
  {
    id: integer('id').primaryKey().default(1),
    passwordHiddenDomains: text('password_hidden_domains')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('sign_in_settings_one_row', sql`${t.id} = 1`)],
);

/** Key pairs the SP signs AuthnRequests and decrypts assertions with; made once, shared by instances. */
export const spKeys = pgTable('sp_keys', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  certificate: text('certificate').notNull(),
  /** PKCS#8 PEM, encrypted like provider secrets. */
  privateKeyEnc: text('private_key_enc').notNull(),
  createdAt: createdAt(),
});

/** Roster entries by institutional id for people who have not signed in yet; joined on first sign-in. */
export const pendingMembers = pgTable(
  'pending_members',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    courseId: integer('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['editor', 'student'] }).notNull(),
    institutionalId: text('institutional_id').notNull(),
    addedBy: integer('added_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('pending_members_course_kind_id_key').on(
      t.courseId,
      t.kind,
      sql`lower(${t.institutionalId})`,
    ),
    index('pending_members_institutional_idx').on(sql`lower(${t.institutionalId})`),
  ],
);
