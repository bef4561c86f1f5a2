import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { courses, createdAt, users } from './schema.ts';

/*
 * Kadai as an LTI 1.3 Advantage tool (issue 38, docs/lti.md). Platforms (Moodle, Canvas, …) are data;
 * every step of a launch that another API instance may finish lives here, as do the links from the
 * LMS's people, courses and resource links to Kadai's, and what was sent to its gradebook.
 */

/** A platform registration: one (issuer, client id) pair, entered by staff or by dynamic registration. */
export const ltiPlatforms = pgTable(
  'lti_platforms',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    issuer: text('issuer').notNull(),
    clientId: text('client_id').notNull(),
    authUrl: text('auth_url').notNull(),
    tokenUrl: text('token_url').notNull(),
    jwksUrl: text('jwks_url').notNull(),
    /** The deployments of the tool this registration accepts launches from. */
    deploymentIds: text('deployment_ids')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Origins whose pages may frame Kadai (CSP frame-ancestors): the LMS's own site(s). */
    frameOrigins: text('frame_origins')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** A platform Administrator becomes Kadai staff only when this is on. */
    allowStaff: boolean('allow_staff').notNull().default(false),
    enabled: boolean('enabled').notNull().default(true),
    source: text('source', { enum: ['manual', 'dynamic'] })
      .notNull()
      .default('manual'),
    /** The platform's product family (moodle, canvas, …) as its openid-configuration says. */
    product: text('product').notNull().default(''),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('lti_platforms_issuer_client_key').on(t.issuer, t.clientId)],
);

/** A one-time address staff hand to the LMS administrator for dynamic registration. */
export const ltiRegistrationTokens = pgTable('lti_registration_tokens', {
  tokenHash: text('token_hash').primaryKey(),
  createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: createdAt(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/** Kadai's own signing keys (published at /api/Lti/jwks/): the newest signs, a retired one is dropped. */
export const ltiToolKeys = pgTable('lti_tool_keys', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  kid: text('kid').notNull().unique(),
  publicJwk: jsonb('public_jwk').notNull(),
  /** The private JWK as JSON, sealed like identity-provider secrets. */
  privateJwkEnc: text('private_jwk_enc').notNull(),
  createdAt: createdAt(),
  retiredAt: timestamp('retired_at', { withTimezone: true }),
});

/** A launch between the login initiation and the id_token: the state and nonce, taken once. */
export const ltiLaunchStates = pgTable(
  'lti_launch_states',
  {
    state: text('state').primaryKey(),
    platformId: integer('platform_id')
      .notNull()
      .references(() => ltiPlatforms.id, { onDelete: 'cascade' }),
    nonce: text('nonce').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('lti_launch_states_expires_idx').on(t.expiresAt)],
);

/** Every id_token nonce accepted, until the token expires: the same token never launches twice. */
export const ltiNoncesSeen = pgTable(
  'lti_nonces_seen',
  {
    platformId: integer('platform_id')
      .notNull()
      .references(() => ltiPlatforms.id, { onDelete: 'cascade' }),
    nonce: text('nonce').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.platformId, t.nonce] }),
    index('lti_nonces_seen_expires_idx').on(t.expiresAt),
  ],
);

/** A person of the LMS (issuer's `sub`) and their Kadai account: the key, never the e-mail. */
export const ltiUsers = pgTable(
  'lti_users',
  {
    platformId: integer('platform_id')
      .notNull()
      .references(() => ltiPlatforms.id, { onDelete: 'cascade' }),
    sub: text('sub').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    email: text('email'),
    createdAt: createdAt(),
    lastLaunchAt: timestamp('last_launch_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.platformId, t.sub] }), index('lti_users_user_idx').on(t.userId)],
);

/** An LMS course (context of one deployment) and the Kadai course it is linked to (null: not yet). */
export const ltiContexts = pgTable(
  'lti_contexts',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    platformId: integer('platform_id')
      .notNull()
      .references(() => ltiPlatforms.id, { onDelete: 'cascade' }),
    deploymentId: text('deployment_id').notNull(),
    contextId: text('context_id').notNull(),
    title: text('title').notNull().default(''),
    label: text('label').notNull().default(''),
    courseId: integer('course_id').references(() => courses.id, { onDelete: 'set null' }),
    /** AGS: the context's line items container and the scopes the platform granted. */
    lineItemsUrl: text('line_items_url'),
    agsScopes: text('ags_scopes')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** NRPS: the context's membership service. */
    membershipsUrl: text('memberships_url'),
    rosterSyncedAt: timestamp('roster_synced_at', { withTimezone: true }),
    rosterError: text('roster_error'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('lti_contexts_platform_context_key').on(t.platformId, t.deploymentId, t.contextId),
    index('lti_contexts_course_idx').on(t.courseId),
  ],
);

/** Who launched into an LMS course, and as what: an instructor there may link it to a Kadai course. */
export const ltiContextMembers = pgTable(
  'lti_context_members',
  {
    contextRowId: integer('context_row_id')
      .notNull()
      .references(() => ltiContexts.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['instructor', 'learner'] }).notNull(),
    lastLaunchAt: timestamp('last_launch_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.contextRowId, t.userId] }),
    index('lti_context_members_user_idx').on(t.userId),
  ],
);

export const LTI_ITEM_KINDS = ['assignment', 'quiz'] as const;

/**
 * A gradebook column of the LMS that Kadai fills: one assignment (or quiz of the course) in one
 * context. Found by the resource link's launch claim or by the `resourceId` Kadai gave when deep linking.
 */
export const ltiLineItems = pgTable(
  'lti_line_items',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    contextRowId: integer('context_row_id')
      .notNull()
      .references(() => ltiContexts.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: LTI_ITEM_KINDS }).notNull(),
    itemId: integer('item_id').notNull(),
    url: text('url').notNull(),
    label: text('label').notNull().default(''),
    scoreMaximum: real('score_maximum'),
    /** When the scores were last compared with what was sent (the sweep looks at work graded since). */
    checkedAt: timestamp('checked_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('lti_line_items_context_url_key').on(t.contextRowId, t.url),
    index('lti_line_items_item_idx').on(t.kind, t.itemId),
  ],
);

/** What was sent to a line item for one student: the last score, and the failures since. */
export const ltiScores = pgTable(
  'lti_scores',
  {
    lineItemId: integer('line_item_id')
      .notNull()
      .references(() => ltiLineItems.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The counted score this row is about (what the gradebook shows). */
    score: real('score').notNull(),
    status: text('status', { enum: ['pending', 'sent', 'failed'] }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.lineItemId, t.userId] }), index('lti_scores_status_idx').on(t.status)],
);

/**
 * What a finished launch hands the page (only the hash of the one-time code is kept): `sign_in` opens a
 * session for `user_id`; `link` waits for the person to sign in to the account of the same e-mail.
 * `payload` is the launch (lti/launch.ts: LaunchFacts): where to go, and for deep linking what to answer.
 */
export const ltiCodes = pgTable(
  'lti_codes',
  {
    codeHash: text('code_hash').primaryKey(),
    purpose: text('purpose', { enum: ['sign_in', 'link'] }).notNull(),
    platformId: integer('platform_id')
      .notNull()
      .references(() => ltiPlatforms.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    payload: jsonb('payload').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('lti_codes_expires_idx').on(t.expiresAt)],
);

/** A deep-linking request waiting for the instructor's choice in Kadai's picker. */
export const ltiDeepLinks = pgTable(
  'lti_deep_links',
  {
    id: text('id').primaryKey(),
    platformId: integer('platform_id')
      .notNull()
      .references(() => ltiPlatforms.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    contextRowId: integer('context_row_id').references(() => ltiContexts.id, { onDelete: 'cascade' }),
    deploymentId: text('deployment_id').notNull(),
    /** The platform's deep_linking_settings claim, as sent. */
    settings: jsonb('settings').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('lti_deep_links_expires_idx').on(t.expiresAt)],
);
