import { describe, expect, it } from 'vitest';
import { AGS_CLAIM, kadaiRoles, LaunchClaims, LTI, NRPS_CLAIM } from './claims.ts';
import { factsOf, placeholderEmail } from './landing.service.ts';
import type { PlatformRow } from './platforms.repo.ts';

const MEMBERSHIP = 'http://purl.imsglobal.org/vocab/lis/v2/membership#';
const ADMIN = 'http://purl.imsglobal.org/vocab/lis/v2/institution/person#Administrator';

describe('roles from the LMS', () => {
  it.each([
    [[`${MEMBERSHIP}Instructor`], 'editor'],
    [['http://purl.imsglobal.org/vocab/lis/v2/membership/Instructor#TeachingAssistant'], 'editor'],
    [[`${MEMBERSHIP}Learner`, `${MEMBERSHIP}Instructor`], 'editor'],
    [[`${MEMBERSHIP}Learner`], 'student'],
    [['Learner'], 'student'],
    [[`${MEMBERSHIP}Mentor`], null],
    [[], null],
  ])('%j → %s', (roles, course) => {
    expect(kadaiRoles(roles, false).course).toBe(course);
  });

  it('makes an Administrator staff only when the registration allows it', () => {
    expect(kadaiRoles([ADMIN], false).staff).toBe(false);
    expect(kadaiRoles([ADMIN], true).staff).toBe(true);
    expect(kadaiRoles([`${MEMBERSHIP}Instructor`], true).staff).toBe(false);
  });
});

const platform: PlatformRow = {
  id: 3,
  name: 'LMS',
  clientId: 'kadai',
  deploymentIds: ['1'],
  enabled: true,
  source: 'manual',
  product: '',
  createdAt: new Date(),
  updatedAt: new Date(),
  issuer: 'https://lms.example.ac.jp',
  authUrl: 'https://lms.example.ac.jp/auth',
  tokenUrl: 'https://lms.example.ac.jp/token',
  jwksUrl: 'https://lms.example.ac.jp/jwks',
  frameOrigins: ['https://canvas.example.ac.jp'],
  allowStaff: false,
};

function claims(extra: Record<string, unknown>): LaunchClaims {
  return LaunchClaims.parse({
    sub: 'abc',
    nonce: 'n',
    [`${LTI}message_type`]: 'LtiResourceLinkRequest',
    [`${LTI}version`]: '1.3.0',
    [`${LTI}deployment_id`]: '1',
    [`${LTI}target_link_uri`]: 'https://kadai.example/api/Lti/launch/',
    [`${LTI}roles`]: [`${MEMBERSHIP}Learner`],
    ...extra,
  });
}

describe('what Kadai takes from a launch', () => {
  it("keeps service addresses on the platform's own sites only", () => {
    const facts = factsOf(
      platform,
      claims({
        [AGS_CLAIM]: {
          lineitems: 'https://canvas.example.ac.jp/api/lti/courses/1/line_items',
          lineitem: 'http://169.254.169.254/latest/meta-data',
          scope: [],
        },
        [NRPS_CLAIM]: { context_memberships_url: 'http://127.0.0.1:5432/' },
      }),
    );
    expect(facts.ags).toMatchObject({
      lineItems: 'https://canvas.example.ac.jp/api/lti/courses/1/line_items',
      lineItem: null,
    });
    expect(facts.memberships).toBeNull();
  });

  it('cleans names and drops an e-mail that is not one', () => {
    const facts = factsOf(platform, claims({ name: 'Taro\u0000 Yamada', email: 'not an address' }));
    expect(facts).toMatchObject({ firstName: 'Taro', lastName: 'Yamada', email: null });
  });

  it('gives people without an e-mail a unique address nobody can receive mail at', () => {
    expect(placeholderEmail(3, 'abc')).toMatch(/^[0-9a-f]{20}\.3@lti\.invalid$/);
    expect(placeholderEmail(3, 'abc')).not.toBe(placeholderEmail(4, 'abc'));
  });
});
