import { z } from 'zod';
import {
  ISO_8601_SUBSECOND,
  JWT_BEARER,
  LtiContextClaim,
  audience,
  id255,
  isoDateTime,
  seconds,
  url,
} from './lti-shapes-base.ts';

/* The service messages: AGS line items, scores and results, NRPS memberships, the SEC §4.1 token request. */

/** AGS "activityProgress" and "gradingProgress" vocabularies (Score publish service). */
export const ActivityProgress = z.enum(['Initialized', 'Started', 'InProgress', 'Submitted', 'Completed']);
export const GradingProgress = z.enum(['FullyGraded', 'Pending', 'PendingManual', 'Failed', 'NotReady']);

/**
 * AGS Score publish service, `application/vnd.ims.lis.v1.score+json`: userId and timestamp present,
 * scoreGiven not negative and scoreMaximum present (and positive) whenever scoreGiven is.
 */
export const AgsScore = z
  .looseObject({
    userId: z.string().min(1),
    scoreGiven: z.number().min(0).optional(),
    scoreMaximum: z.number().positive().optional(),
    comment: z.string().optional(),
    timestamp: z.string().regex(ISO_8601_SUBSECOND, 'ISO 8601 with sub-second precision and a time zone'),
    activityProgress: ActivityProgress,
    gradingProgress: GradingProgress,
  })
  .refine((score) => score.scoreGiven === undefined || score.scoreMaximum !== undefined, {
    path: ['scoreMaximum'],
    message: 'scoreMaximum must be present when scoreGiven is',
  });
export type AgsScore = z.infer<typeof AgsScore>;

/** AGS Line item service, `application/vnd.ims.lis.v2.lineitem+json`: label and scoreMaximum required. */
export const AgsLineItem = z.looseObject({
  id: url.optional(),
  scoreMaximum: z.number().positive(),
  label: z.string().min(1),
  resourceId: z.string().optional(),
  tag: z.string().optional(),
  resourceLinkId: z.string().optional(),
  startDateTime: isoDateTime.optional(),
  endDateTime: isoDateTime.optional(),
  gradesReleased: z.boolean().optional(),
});
export type AgsLineItem = z.infer<typeof AgsLineItem>;

/** AGS `application/vnd.ims.lis.v2.lineitemcontainer+json`: an array of line items. */
export const AgsLineItemContainer = z.array(AgsLineItem.extend({ id: url }));

/** AGS Result service, one element of `application/vnd.ims.lis.v2.resultcontainer+json`. */
export const AgsResult = z.looseObject({
  id: url,
  scoreOf: url,
  userId: z.string(),
  resultScore: z.number().optional(),
  resultMaximum: z.number().positive().optional(),
  comment: z.string().optional(),
});
export type AgsResult = z.infer<typeof AgsResult>;

/** NRPS "Membership container media type": one member (status Active unless said otherwise). */
export const NrpsMember = z.looseObject({
  user_id: id255,
  roles: z.array(z.string()),
  status: z.enum(['Active', 'Inactive', 'Deleted']).optional(),
  name: z.string().optional(),
  given_name: z.string().optional(),
  family_name: z.string().optional(),
  middle_name: z.string().optional(),
  email: z.string().optional(),
  picture: url.optional(),
  lis_person_sourcedid: z.string().optional(),
});
export type NrpsMember = z.infer<typeof NrpsMember>;

/** NRPS `application/vnd.ims.lti-nrps.v2.membershipcontainer+json`. */
export const NrpsMembershipContainer = z.looseObject({
  id: url,
  context: LtiContextClaim,
  members: z.array(NrpsMember),
});
export type NrpsMembershipContainer = z.infer<typeof NrpsMembershipContainer>;

/**
 * SEC §4.1 client-credentials grant with a JWT assertion (RFC 6749 §4.4, RFC 7523 §2.2): the form
 * body of the token request. `scope` is a space-separated list of the scopes wanted.
 */
export const ClientCredentialsRequest = z.looseObject({
  grant_type: z.literal('client_credentials'),
  client_assertion_type: z.literal(JWT_BEARER),
  client_assertion: z.string().min(1),
  scope: z.string().min(1),
});

/**
 * SEC §4.1.1 the assertion: iss, sub (the client_id), aud (the token endpoint), iat, exp and jti;
 * RFC 7523 §3 with RFC 7521 §5.2 make `iss` the client_id too when the JWT authenticates the client.
 */
export const ClientAssertionJwt = z
  .looseObject({
    iss: z.string().min(1),
    sub: z.string().min(1),
    aud: audience,
    iat: seconds,
    exp: seconds,
    jti: z.string().min(1),
  })
  .refine((jwt) => jwt.iss === jwt.sub, { path: ['sub'], message: 'sub must equal iss (the client_id)' });

/** SEC §4.1 / RFC 6749 §5.1 the token response. */
export const AccessTokenResponse = z.looseObject({
  access_token: z.string().min(1),
  token_type: z.string().regex(/^bearer$/i),
  expires_in: z.number().int().positive(),
  scope: z.string(),
});
