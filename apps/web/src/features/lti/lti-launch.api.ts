import { LtiExchangeResponse, LtiLinkInfo } from '@kadai/contracts';
import { apiCall } from '../../api/client.ts';

// The calls of the page inside the LMS's frame (`/lti`), made before there is a session. Kept apart
// from lti.api.ts so that the first page an LMS loads carries only these.

/** The one-time code of a launch (`/lti?code=`), exchanged for our own pair and the page to open. */
export function exchangeLtiCode(code: string) {
  return apiCall('exchangeLtiCode', 'POST', '/Lti/Exchange/', {
    body: { code },
    auth: false,
    response: LtiExchangeResponse,
  });
}

/** Whose account a first launch would be linked to (`/lti?link=`), and from which LMS. */
export function getLtiLinkInfo(code: string) {
  return apiCall('getLtiLinkInfo', 'GET', '/Lti/Link/', {
    query: { code },
    auth: false,
    response: LtiLinkInfo,
  });
}

/** Links the LMS account to the Kadai account whose password this is, and signs in. */
export function linkLtiAccount(code: string, password: string) {
  return apiCall('linkLtiAccount', 'POST', '/Lti/Link/', {
    body: { code, password },
    auth: false,
    response: LtiExchangeResponse,
  });
}
