import { z } from 'zod';

/*
 * The messages that cross between an LTI 1.3 tool and a platform, as zod schemas written from the
 * 1EdTech texts: LTI Core 1.3 ("Core"), LTI Advantage Security Framework 1.0 ("SEC"), Deep Linking
 * 2.0 ("DL"), Assignment and Grade Services 2.0 ("AGS"), Names and Role Provisioning Services 2.0
 * ("NRPS") and LTI Dynamic Registration 1.0 ("DR"). The platform emulator (lti-platform.ts) checks
 * everything the tool sends against these and the tool's tests may check what the emulator sends.
 *
 * Objects are loose: the specs allow extensions (AGS "Extensions": a fully qualified URL as a key;
 * Core "Vendor-specific extension claims"), so unknown members pass through untouched.
 */

import { CLAIM, LtiContextClaim, audience, id255, isoDateTime, seconds, url } from './lti-shapes-base.ts';

export * from './lti-shapes-base.ts';
export * from './lti-shapes-services.ts';
export * from './lti-shapes-registration.ts';

/** Core §5.3.5 Resource link claim. */
export const LtiResourceLinkClaim = z.looseObject({
  id: id255,
  title: z.string().optional(),
  description: z.string().optional(),
});

/** Core §5.4.4 Launch presentation claim. */
export const LtiLaunchPresentationClaim = z.looseObject({
  document_target: z.enum(['frame', 'iframe', 'window']).optional(),
  height: z.number().optional(),
  width: z.number().optional(),
  return_url: url.optional(),
  locale: z.string().optional(),
});

/** Core §5.4.2 Platform instance claim: `guid` is required when the claim is present. */
export const LtiToolPlatformClaim = z.looseObject({
  guid: id255,
  name: z.string().optional(),
  version: z.string().optional(),
  product_family_code: z.string().optional(),
  contact_email: z.string().optional(),
  description: z.string().optional(),
  url: url.optional(),
});

/** AGS "Capabilities in JWT messages": the endpoint claim. */
export const AgsEndpointClaim = z.looseObject({
  scope: z.array(z.string()),
  lineitems: url.optional(),
  lineitem: url.optional(),
});

/** NRPS "LTI 1.3 integration": the names and role service claim. */
export const NrpsClaim = z.looseObject({
  context_memberships_url: url,
  service_versions: z.array(z.string()).refine((versions) => versions.includes('2.0'), {
    message: 'service_versions must include "2.0"',
  }),
});

/** DL "Deep linking settings" claim of an LtiDeepLinkingRequest. */
export const DeepLinkingSettingsClaim = z.looseObject({
  deep_link_return_url: url,
  accept_types: z.array(z.enum(['link', 'file', 'html', 'ltiResourceLink', 'image'])).min(1),
  accept_presentation_document_targets: z.array(z.enum(['iframe', 'window', 'embed'])).min(1),
  accept_media_types: z.string().optional(),
  accept_multiple: z.boolean().optional(),
  accept_lineitem: z.boolean().optional(),
  auto_create: z.boolean().optional(),
  title: z.string().optional(),
  text: z.string().optional(),
  data: z.string().optional(),
});

/**
 * The claims every platform-originating message carries: the OIDC ID token claims SEC §5.1.2 lists
 * (iss, sub, aud, exp, iat, nonce, azp) and Core §5.3 required claims; Core §5.4 optional ones, the
 * OIDC standard user claims (Core §5.3.6) and the service claims when the platform grants them.
 * `sub` is optional: Core §5.3.6 allows an anonymous launch without it.
 */
const idTokenShape = {
  iss: url,
  sub: id255.optional(),
  aud: audience,
  azp: z.string().optional(),
  exp: seconds,
  iat: seconds,
  nonce: z.string().min(1),
  name: z.string().optional(),
  given_name: z.string().optional(),
  family_name: z.string().optional(),
  middle_name: z.string().optional(),
  email: z.string().optional(),
  picture: url.optional(),
  locale: z.string().optional(),
  [CLAIM.version]: z.literal('1.3.0'),
  [CLAIM.deploymentId]: id255,
  [CLAIM.targetLinkUri]: url,
  [CLAIM.roles]: z.array(z.string()),
  [CLAIM.context]: LtiContextClaim.optional(),
  [CLAIM.toolPlatform]: LtiToolPlatformClaim.optional(),
  [CLAIM.roleScopeMentor]: z.array(z.string()).optional(),
  [CLAIM.launchPresentation]: LtiLaunchPresentationClaim.optional(),
  [CLAIM.lis]: z.looseObject({}).optional(),
  [CLAIM.custom]: z.record(z.string(), z.string()).optional(),
  [CLAIM.agsEndpoint]: AgsEndpointClaim.optional(),
  [CLAIM.namesRoleService]: NrpsClaim.optional(),
};

/** OIDC Core §2: with several audiences the ID token carries `azp`, and `azp` is one of them. */
function audienceNeedsAzp(token: { aud: string | string[]; azp?: string | undefined }, ctx: z.RefinementCtx) {
  const audiences = Array.isArray(token.aud) ? token.aud : [token.aud];
  if (audiences.length > 1 && !token.azp) {
    ctx.addIssue({ code: 'custom', path: ['azp'], message: 'azp is required when aud has several values' });
  }
  if (token.azp && !audiences.includes(token.azp)) {
    ctx.addIssue({ code: 'custom', path: ['azp'], message: 'azp must be one of the audiences' });
  }
}

/** Core "Resource link launch request message" (the id_token of an LtiResourceLinkRequest). */
export const LtiResourceLinkIdToken = z
  .looseObject({
    ...idTokenShape,
    [CLAIM.messageType]: z.literal('LtiResourceLinkRequest'),
    [CLAIM.resourceLink]: LtiResourceLinkClaim,
  })
  .superRefine(audienceNeedsAzp);
export type LtiResourceLinkIdToken = z.infer<typeof LtiResourceLinkIdToken>;

/** DL "Deep linking request message" (the id_token of an LtiDeepLinkingRequest). */
export const LtiDeepLinkingIdToken = z
  .looseObject({
    ...idTokenShape,
    [CLAIM.messageType]: z.literal('LtiDeepLinkingRequest'),
    [CLAIM.deepLinkingSettings]: DeepLinkingSettingsClaim,
  })
  .superRefine(audienceNeedsAzp);
export type LtiDeepLinkingIdToken = z.infer<typeof LtiDeepLinkingIdToken>;

/** DL "LTI Resource Link" content item: its `icon`/`thumbnail` and `available`/`submission` members. */
const image = z.looseObject({ url, width: z.number().int().optional(), height: z.number().int().optional() });
const timeWindow = z.looseObject({
  startDateTime: isoDateTime.optional(),
  endDateTime: isoDateTime.optional(),
});

/** DL "LTI Resource Link" content item, `lineItem` included ("scoreMaximum" required in it). */
export const LtiResourceLinkItem = z.looseObject({
  type: z.literal('ltiResourceLink'),
  url: url.optional(),
  title: z.string().optional(),
  text: z.string().optional(),
  icon: image.optional(),
  thumbnail: image.optional(),
  window: z
    .looseObject({
      targetName: z.string().optional(),
      width: z.number().optional(),
      height: z.number().optional(),
      windowFeatures: z.string().optional(),
    })
    .optional(),
  iframe: z.looseObject({ width: z.number().optional(), height: z.number().optional() }).optional(),
  custom: z.record(z.string(), z.string()).optional(),
  lineItem: z
    .looseObject({
      label: z.string().optional(),
      scoreMaximum: z.number().positive(),
      resourceId: z.string().optional(),
      tag: z.string().optional(),
      gradesReleased: z.boolean().optional(),
    })
    .optional(),
  available: timeWindow.optional(),
  submission: timeWindow.optional(),
});
export type LtiResourceLinkItem = z.infer<typeof LtiResourceLinkItem>;

/** DL "Content item types": the other four, checked here only for their `type`. */
const OtherContentItem = z.looseObject({
  type: z.enum(['link', 'file', 'html', 'image']),
  url: url.optional(),
  html: z.string().optional(),
  title: z.string().optional(),
});
export const ContentItem = z.union([LtiResourceLinkItem, OtherContentItem]);
export type ContentItem = z.infer<typeof ContentItem>;

/**
 * DL "Deep linking response message": a JWT the tool signs (SEC §5.2 tool-originating messages),
 * `iss` its client_id and `aud` the platform's issuer, `data` echoed from the request's settings.
 */
export const DeepLinkingResponseJwt = z
  .looseObject({
    iss: z.string().min(1),
    aud: audience,
    azp: z.string().optional(),
    iat: seconds,
    exp: seconds,
    nonce: z.string().min(1),
    [CLAIM.messageType]: z.literal('LtiDeepLinkingResponse'),
    [CLAIM.version]: z.literal('1.3.0'),
    [CLAIM.deploymentId]: id255,
    [CLAIM.contentItems]: z.array(ContentItem).optional(),
    [CLAIM.data]: z.string().optional(),
    [CLAIM.msg]: z.string().optional(),
    [CLAIM.log]: z.string().optional(),
    [CLAIM.errormsg]: z.string().optional(),
    [CLAIM.errorlog]: z.string().optional(),
  })
  .superRefine(audienceNeedsAzp);
export type DeepLinkingResponseJwt = z.infer<typeof DeepLinkingResponseJwt>;
