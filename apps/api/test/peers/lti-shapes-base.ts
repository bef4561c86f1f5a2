import { z } from 'zod';

/*
 * Names, constants and small zod pieces the LTI shapes share (lti-shapes.ts re-exports them).
 */

const LTI = 'https://purl.imsglobal.org/spec/lti/claim';
const DL = 'https://purl.imsglobal.org/spec/lti-dl/claim';

/** Claim names: Core §5.3 required and §5.4 optional claims, the DL request and response messages, AGS, NRPS. */
export const CLAIM = {
  messageType: `${LTI}/message_type`,
  version: `${LTI}/version`,
  deploymentId: `${LTI}/deployment_id`,
  targetLinkUri: `${LTI}/target_link_uri`,
  resourceLink: `${LTI}/resource_link`,
  roles: `${LTI}/roles`,
  context: `${LTI}/context`,
  toolPlatform: `${LTI}/tool_platform`,
  roleScopeMentor: `${LTI}/role_scope_mentor`,
  launchPresentation: `${LTI}/launch_presentation`,
  lis: `${LTI}/lis`,
  custom: `${LTI}/custom`,
  deepLinkingSettings: `${DL}/deep_linking_settings`,
  contentItems: `${DL}/content_items`,
  data: `${DL}/data`,
  msg: `${DL}/msg`,
  log: `${DL}/log`,
  errormsg: `${DL}/errormsg`,
  errorlog: `${DL}/errorlog`,
  agsEndpoint: 'https://purl.imsglobal.org/spec/lti-ags/claim/endpoint',
  namesRoleService: 'https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice',
} as const;

/** DR "Tool configuration" and "Platform configuration": the keys of the two LTI extensions. */
export const TOOL_CONFIGURATION = 'https://purl.imsglobal.org/spec/lti-tool-configuration';
export const PLATFORM_CONFIGURATION = 'https://purl.imsglobal.org/spec/lti-platform-configuration';

/** OAuth scopes: AGS "Scope and allowed http methods" tables and NRPS "Access control". */
export const SCOPE = {
  lineItem: 'https://purl.imsglobal.org/spec/lti-ags/scope/lineitem',
  lineItemReadonly: 'https://purl.imsglobal.org/spec/lti-ags/scope/lineitem.readonly',
  resultReadonly: 'https://purl.imsglobal.org/spec/lti-ags/scope/result.readonly',
  score: 'https://purl.imsglobal.org/spec/lti-ags/scope/score',
  contextMembershipReadonly: 'https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly',
} as const;

/** Media types: AGS "Media types and schemas" for each service, NRPS "Membership container media type". */
export const MEDIA_TYPE = {
  score: 'application/vnd.ims.lis.v1.score+json',
  lineItem: 'application/vnd.ims.lis.v2.lineitem+json',
  lineItemContainer: 'application/vnd.ims.lis.v2.lineitemcontainer+json',
  resultContainer: 'application/vnd.ims.lis.v2.resultcontainer+json',
  membershipContainer: 'application/vnd.ims.lti-nrps.v2.membershipcontainer+json',
} as const;

/** Core Appendix A "Role vocabularies": context (membership), institution and system roles. */
export const ROLE = {
  instructor: 'http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor',
  learner: 'http://purl.imsglobal.org/vocab/lis/v2/membership#Learner',
  contentDeveloper: 'http://purl.imsglobal.org/vocab/lis/v2/membership#ContentDeveloper',
  mentor: 'http://purl.imsglobal.org/vocab/lis/v2/membership#Mentor',
  teachingAssistant: 'http://purl.imsglobal.org/vocab/lis/v2/membership/Instructor#TeachingAssistant',
  institutionAdministrator: 'http://purl.imsglobal.org/vocab/lis/v2/institution/person#Administrator',
  systemAdministrator: 'http://purl.imsglobal.org/vocab/lis/v2/system/person#Administrator',
} as const;

/** Core Appendix A "Context type vocabulary". */
export const CONTEXT_TYPE = {
  courseOffering: 'http://purl.imsglobal.org/vocab/lis/v2/course#CourseOffering',
  courseSection: 'http://purl.imsglobal.org/vocab/lis/v2/course#CourseSection',
} as const;

/** RFC 7523 §2.2: the client authentication assertion type SEC §4.1 requires. */
export const JWT_BEARER = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

export const url = z.url();
/** Core caps identifiers (sub, deployment_id, context id, resource link id) at 255 ASCII characters. */
export const id255 = z.string().min(1).max(255);
/** OIDC/JWT `aud`: a string, or an array of them (RFC 7519 §4.1.3). */
export const audience = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]);
export const seconds = z.number().int();

/**
 * AGS "timestamp": ISO 8601 with a sub-second precision; the spec's own examples end in `+00:00`,
 * `Z` and `+00`, so the zone is required and its minutes are not.
 */
export const ISO_8601_SUBSECOND = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d+(Z|[+-]\d{2}(:?\d{2})?)$/;
/** AGS line item start/endDateTime, DL `available`/`submission`: ISO 8601 date and time. */
export const isoDateTime = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}(:?\d{2})?)$/);

/** Core §5.4.1 Context claim. */
export const LtiContextClaim = z.looseObject({
  id: id255,
  label: z.string().optional(),
  title: z.string().optional(),
  type: z.array(z.string()).optional(),
});

/** Each issue of a failed parse as `path: message`, for violation reports. */
export function describeIssues(error: z.ZodError): string[] {
  return error.issues.map((issue) => `${issue.path.map(String).join('.') || '(root)'}: ${issue.message}`);
}

/** For `.refine` on string arrays: the list holds `value`. */
export const includes = (value: string) => (list: string[]) => list.includes(value);
