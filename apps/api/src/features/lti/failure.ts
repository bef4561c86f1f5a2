import type { LtiError } from '@kadai/contracts';
import { HttpError } from '../../lib/errors.ts';

/** The HTTP status of each way a launch can fail (docs/lti.md, "Troubleshooting"). */
const STATUS: Record<LtiError, number> = {
  expired: 401,
  invalid: 400,
  unknown_platform: 404,
  disabled: 403,
  not_ready: 403,
  no_email: 400,
  inactive: 403,
  unreachable: 502,
};

/**
 * A refused launch: the person's page says which of LTI_ERRORS it was (in their language); the technical
 * cause goes to the log only.
 */
export class LtiFailure extends HttpError {
  constructor(
    readonly reason: LtiError,
    cause: string,
  ) {
    super(STATUS[reason], `lti_${reason}`, cause);
  }
}
