import { z } from 'zod';

/*
 * The parts of a platform's id_token Kadai reads (LTI Core 1.3 §5.3–5.4, Deep Linking 2.0 §4.4, AGS 2.0
 * §3.1, NRPS 2.0 §3.6.1), checked after the signature: text is capped, unknown claims are ignored.
 */

export const LTI = 'https://purl.imsglobal.org/spec/lti/claim/';
export const DL = 'https://purl.imsglobal.org/spec/lti-dl/claim/';
export const AGS_CLAIM = 'https://purl.imsglobal.org/spec/lti-ags/claim/endpoint';
export const NRPS_CLAIM = 'https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice';
export const AGS_SCOPE = {
  lineItem: 'https://purl.imsglobal.org/spec/lti-ags/scope/lineitem',
  lineItemReadOnly: 'https://purl.imsglobal.org/spec/lti-ags/scope/lineitem.readonly',
  score: 'https://purl.imsglobal.org/spec/lti-ags/scope/score',
} as const;
export const NRPS_SCOPE = 'https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly';

const text = (max: number) => z.string().max(max);
const url = z
  .string()
  .max(2000)
  .refine((v) => /^https?:\/\//i.test(v), 'Not an http(s) URL.');

export const LaunchClaims = z.object({
  sub: text(255).min(1),
  nonce: text(500).min(1),
  email: text(254).optional(),
  name: text(300).optional(),
  given_name: text(150).optional(),
  family_name: text(150).optional(),
  locale: text(50).optional(),
  [`${LTI}message_type`]: z.enum(['LtiResourceLinkRequest', 'LtiDeepLinkingRequest']),
  [`${LTI}version`]: z.literal('1.3.0'),
  [`${LTI}deployment_id`]: text(255).min(1),
  [`${LTI}target_link_uri`]: url,
  [`${LTI}roles`]: z.array(text(500)).max(200),
  [`${LTI}context`]: z
    .object({ id: text(255).min(1), label: text(300).optional(), title: text(500).optional() })
    .optional(),
  [`${LTI}resource_link`]: z.object({ id: text(255).min(1), title: text(500).optional() }).optional(),
  [`${LTI}custom`]: z.record(z.string(), z.unknown()).optional(),
  [AGS_CLAIM]: z
    .object({
      scope: z.array(text(500)).max(20).optional(),
      lineitems: url.optional(),
      lineitem: url.optional(),
    })
    .optional(),
  [NRPS_CLAIM]: z.object({ context_memberships_url: url }).optional(),
  [`${DL}deep_linking_settings`]: z
    .object({
      deep_link_return_url: url,
      accept_types: z.array(text(100)).max(20),
      accept_presentation_document_targets: z.array(text(100)).max(20).optional(),
      accept_multiple: z.boolean().optional(),
      data: text(4000).optional(),
    })
    .optional(),
});
export type LaunchClaims = z.infer<typeof LaunchClaims>;

export type KadaiRole = 'editor' | 'student' | 'staff';

const CONTEXT_ROLE = 'http://purl.imsglobal.org/vocab/lis/v2/membership#';
const EDITOR_ROLES = new Set([
  `${CONTEXT_ROLE}Instructor`,
  `${CONTEXT_ROLE}ContentDeveloper`,
  'http://purl.imsglobal.org/vocab/lis/v2/membership/Instructor#TeachingAssistant',
  // LTI 1.3 still lets platforms send the short context role names.
  'Instructor',
  'ContentDeveloper',
  'TeachingAssistant',
]);
const LEARNER_ROLES = new Set([`${CONTEXT_ROLE}Learner`, 'Learner']);
const ADMIN_ROLES = new Set([
  'http://purl.imsglobal.org/vocab/lis/v2/institution/person#Administrator',
  'http://purl.imsglobal.org/vocab/lis/v2/system/person#Administrator',
  `${CONTEXT_ROLE}Administrator`,
]);

/**
 * Kadai's roles from the LMS's (docs/lti.md, "Roles"): Instructor, TeachingAssistant and
 * ContentDeveloper edit; Learner takes part; an Administrator is staff only where the registration
 * allows it. Several roles: the strongest counts for the course (editor over student).
 */
export function kadaiRoles(
  roles: string[],
  allowStaff: boolean,
): { course: 'editor' | 'student' | null; staff: boolean } {
  const course = roles.some((r) => EDITOR_ROLES.has(r))
    ? 'editor'
    : roles.some((r) => LEARNER_ROLES.has(r))
      ? 'student'
      : null;
  return { course, staff: allowStaff && roles.some((r) => ADMIN_ROLES.has(r)) };
}
