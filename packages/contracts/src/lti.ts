import { z } from 'zod';
import { str } from './common.ts';
import { HttpUrl } from './identity.ts';

/*
 * Kadai as an LTI 1.3 Advantage tool (issue 38, docs/lti.md): platform registrations kept by staff,
 * launches from the LMS, deep linking, grades sent to the LMS gradebook and rosters taken from it.
 */

/** An origin (scheme, host, port): what may frame Kadai's pages. */
export const WebOrigin = HttpUrl.refine((v) => {
  try {
    return new URL(v).origin === v.replace(/\/$/, '');
  } catch {
    return false;
  }
}, 'Not an origin (scheme, host and port only).');
const DeploymentId = str().trim().min(1).max(255);

/** What staff enter by hand (or change) for a platform. */
export const LtiPlatformInput = z.strictObject({
  name: str().trim().min(1).max(200),
  issuer: HttpUrl,
  client_id: str().trim().min(1).max(255),
  auth_url: HttpUrl,
  token_url: HttpUrl,
  jwks_url: HttpUrl,
  deployment_ids: z.array(DeploymentId).min(1).max(50),
  /** The LMS's site(s) allowed to show Kadai in a frame; default: the origins of the issuer and auth URL. */
  frame_origins: z.array(WebOrigin).max(20).optional(),
  allow_staff: z.boolean().optional(),
  enabled: z.boolean().optional(),
});
export type LtiPlatformInput = z.infer<typeof LtiPlatformInput>;
export const LtiPlatformPatch = LtiPlatformInput.partial();
export type LtiPlatformPatch = z.infer<typeof LtiPlatformPatch>;

export const LtiPlatform = z.object({
  id: z.number().int(),
  name: z.string(),
  issuer: z.string(),
  client_id: z.string(),
  auth_url: z.string(),
  token_url: z.string(),
  jwks_url: z.string(),
  deployment_ids: z.array(z.string()),
  frame_origins: z.array(z.string()),
  allow_staff: z.boolean(),
  enabled: z.boolean(),
  source: z.enum(['manual', 'dynamic']),
  product: z.string(),
  /** LMS courses seen, and how many are linked to a Kadai course. */
  context_count: z.number().int(),
  created_at: z.string(),
});
export type LtiPlatform = z.infer<typeof LtiPlatform>;
export const LtiPlatformList = z.object({ results: z.array(LtiPlatform) });
export type LtiPlatformList = z.infer<typeof LtiPlatformList>;

export const LtiToolKey = z.object({
  kid: z.string(),
  created_at: z.string(),
  /** The key that signs now; the other (after a rotation) is still published until retired. */
  current: z.boolean(),
});
export type LtiToolKey = z.infer<typeof LtiToolKey>;

/** What the platform's administrator needs from Kadai (the tool side of a registration). */
export const LtiToolInfo = z.object({
  login_url: z.string(),
  launch_url: z.string(),
  jwks_url: z.string(),
  deep_link_url: z.string(),
  canvas_config_url: z.string(),
  keys: z.array(LtiToolKey),
});
export type LtiToolInfo = z.infer<typeof LtiToolInfo>;

/** A one-time dynamic registration address for an LMS administrator (valid for a week). */
export const LtiRegistrationLink = z.object({ url: z.string(), expires_at: z.string() });
export type LtiRegistrationLink = z.infer<typeof LtiRegistrationLink>;

export const LTI_ERRORS = [
  'expired',
  'invalid',
  'unknown_platform',
  'disabled',
  'not_ready',
  'no_email',
  'inactive',
  'unreachable',
] as const;
export type LtiError = (typeof LTI_ERRORS)[number];

export const LtiCodeRequest = z.strictObject({ code: str().trim().min(1).max(200) });
export type LtiCodeRequest = z.infer<typeof LtiCodeRequest>;

/** Tokens for the page inside the LMS, and where it goes next (a path of the web app). */
export const LtiExchangeResponse = z.object({
  access: z.string(),
  refresh: z.string(),
  user: z.object({ pk: z.number().int(), email: z.string() }),
  next: z.string(),
});
export type LtiExchangeResponse = z.infer<typeof LtiExchangeResponse>;

/** What a `link` code stands for, before the signed-in person confirms. */
export const LtiLinkInfo = z.object({ email: z.string(), platform: z.string() });
export type LtiLinkInfo = z.infer<typeof LtiLinkInfo>;
export const LtiNext = z.object({ next: z.string() });
export type LtiNext = z.infer<typeof LtiNext>;

/** An LMS course not yet linked, as its instructor sees it in Kadai. */
export const LtiContext = z.object({
  id: z.number().int(),
  platform: z.string(),
  title: z.string(),
  label: z.string(),
  course: z.object({ id: z.number().int(), title: z.string() }).nullable(),
});
export type LtiContext = z.infer<typeof LtiContext>;
/** Link to one of the instructor's courses, or make a new one (`course_id` absent). */
export const LtiContextLink = z.strictObject({
  course_id: z.number().int().min(1).max(2_147_483_647).optional(),
  title: str().trim().min(1).max(200).optional(),
});
export type LtiContextLink = z.infer<typeof LtiContextLink>;

export const LtiItemKind = z.enum(['assignment', 'quiz']);
export type LtiItemKind = z.infer<typeof LtiItemKind>;

export const LtiPickable = z.object({
  kind: LtiItemKind,
  id: z.number().int(),
  title: z.string(),
  due_at: z.string().nullable(),
  max_score: z.number().nullable(),
});
export type LtiPickable = z.infer<typeof LtiPickable>;

/** A deep-linking request waiting in the picker: a random id, not a number to guess. */
export const LtiDeepLinkId = str().regex(/^[A-Za-z0-9_-]{10,64}$/, 'Not a deep-linking request id.');
export const LtiDeepLinkParams = z.object({ id: LtiDeepLinkId });

export const LtiDeepLinkInfo = z.object({
  platform: z.string(),
  course: z.object({ id: z.number().int(), title: z.string() }).nullable(),
  /** The LMS course to link first, when it is not linked yet. */
  context_id: z.number().int().nullable(),
  accept_multiple: z.boolean(),
  items: z.array(LtiPickable),
});
export type LtiDeepLinkInfo = z.infer<typeof LtiDeepLinkInfo>;
export const LtiDeepLinkChoice = z.strictObject({
  items: z
    .array(z.strictObject({ kind: LtiItemKind, id: z.number().int().min(1).max(2_147_483_647) }))
    .min(1)
    .max(50),
});
export type LtiDeepLinkChoice = z.infer<typeof LtiDeepLinkChoice>;
/** The signed answer the page posts (a form) to the platform's return URL. */
export const LtiDeepLinkResponse = z.object({ return_url: z.string(), jwt: z.string() });
export type LtiDeepLinkResponse = z.infer<typeof LtiDeepLinkResponse>;

export const LtiLineItemStatus = z.object({
  id: z.number().int(),
  kind: LtiItemKind,
  item_id: z.number().int(),
  title: z.string(),
  label: z.string(),
  sent: z.number().int(),
  pending: z.number().int(),
  failed: z.number().int(),
  last_sent_at: z.string().nullable(),
  last_error: z.string().nullable(),
});
export type LtiLineItemStatus = z.infer<typeof LtiLineItemStatus>;

export const LtiCourseLink = z.object({
  id: z.number().int(),
  platform: z.string(),
  title: z.string(),
  label: z.string(),
  can_sync_roster: z.boolean(),
  roster_synced_at: z.string().nullable(),
  roster_error: z.string().nullable(),
  line_items: z.array(LtiLineItemStatus),
});
export type LtiCourseLink = z.infer<typeof LtiCourseLink>;
export const LtiCourseLinks = z.object({ results: z.array(LtiCourseLink) });
export type LtiCourseLinks = z.infer<typeof LtiCourseLinks>;

export const LtiRosterSyncRequest = z.strictObject({
  context_id: z.number().int().min(1).max(2_147_483_647),
});
export const LtiRosterSyncResult = z.object({
  added: z.number().int(),
  removed: z.number().int(),
  unchanged: z.number().int(),
  /** Members whose e-mail belongs to an unlinked Kadai account: joined at their first launch. */
  waiting: z.number().int(),
});
export type LtiRosterSyncResult = z.infer<typeof LtiRosterSyncResult>;
export const LtiResendResult = z.object({ queued: z.boolean() });
