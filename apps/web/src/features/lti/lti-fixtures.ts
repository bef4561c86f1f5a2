import type { LtiCourseLink, LtiPlatform, LtiToolInfo } from '@kadai/contracts';
import { json, stubFetch, tokenExpiringIn, type RecordedRequest } from '../../test/fetch.ts';

/** Test data and a stub server for the LTI pages' tests. */

export function moodle(fields: Partial<LtiPlatform> = {}): LtiPlatform {
  return {
    id: 1,
    name: 'Moodle of Example University',
    issuer: 'https://moodle.example.ac.jp',
    client_id: 'kadai-client',
    auth_url: 'https://moodle.example.ac.jp/mod/lti/auth.php',
    token_url: 'https://moodle.example.ac.jp/mod/lti/token.php',
    jwks_url: 'https://moodle.example.ac.jp/mod/lti/certs.php',
    deployment_ids: ['1'],
    frame_origins: ['https://moodle.example.ac.jp'],
    allow_staff: false,
    enabled: true,
    source: 'dynamic',
    product: 'moodle',
    context_count: 3,
    created_at: '2026-04-01T09:00:00.000Z',
    ...fields,
  };
}

export const TOOL: LtiToolInfo = {
  login_url: 'https://kadai.example.ac.jp/api/Lti/login/',
  launch_url: 'https://kadai.example.ac.jp/api/Lti/launch/',
  jwks_url: 'https://kadai.example.ac.jp/api/Lti/jwks/',
  deep_link_url: 'https://kadai.example.ac.jp/api/Lti/launch/',
  canvas_config_url: 'https://kadai.example.ac.jp/api/Lti/canvas.json',
  keys: [{ kid: 'key-2026-04', created_at: '2026-04-01T09:00:00.000Z', current: true }],
};

export function courseLink(fields: Partial<LtiCourseLink> = {}): LtiCourseLink {
  return {
    id: 7,
    platform: 'Moodle of Example University',
    title: 'Python I',
    label: 'CS101',
    can_sync_roster: true,
    roster_synced_at: '2026-04-02T09:00:00.000Z',
    roster_error: null,
    line_items: [
      {
        id: 31,
        kind: 'assignment',
        item_id: 5,
        title: 'Lists',
        label: 'Lists',
        sent: 20,
        pending: 1,
        failed: 2,
        last_sent_at: '2026-04-03T09:00:00.000Z',
        last_error: 'HTTP 503 from the LMS',
      },
    ],
    ...fields,
  };
}

export const USER_INFO = {
  id: 4,
  email: 'taro@example.ac.jp',
  first_name: 'Taro',
  last_name: 'Yamada',
  roles: ['student'],
  is_staff: false,
  editor_courses: [],
  student_courses: [1],
  display_lang: 'en-US',
};

export const exchanged = (next: string) =>
  json(200, {
    access: tokenExpiringIn(7200),
    refresh: 'r-lti',
    user: { pk: 4, email: USER_INFO.email },
    next,
  });

export type Handler = (request: RecordedRequest, path: string) => Response | undefined;

/** The API: `handler` first, then the configuration, the user and empty course lists; 404 otherwise. */
export function server(handler: Handler = () => undefined) {
  return stubFetch((request) => {
    const path = new URL(request.url, 'http://test').pathname;
    const answer = handler(request, path);
    if (answer) return answer;
    if (path === '/api/Config/')
      return json(200, { product_name: 'Kadai', google_client_id: null, provider_url: '' });
    if (path === '/api/Auth/UserInfo/') return json(200, USER_INFO);
    if (path === '/api/Course/') return json(200, { count: 0, limit: 100, offset: 0, results: [] });
    return json(404, { detail: 'Not found.', code: 'not_found' });
  });
}

/**
 * axe-core's rules on what the page shows, in jsdom: contrast needs a browser's layout, so that rule is
 * the browser journeys' (apps/web/e2e); the rest (names, roles, landmarks, headings) are checked here.
 */
export async function axeViolations(root: Element = document.body): Promise<string[]> {
  const { default: axe } = await import('axe-core');
  const results = await axe.run(root, {
    rules: { 'color-contrast': { enabled: false } },
    resultTypes: ['violations'],
  });
  return results.violations.map(
    (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
  );
}
