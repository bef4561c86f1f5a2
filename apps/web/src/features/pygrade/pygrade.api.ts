import { PygradeStatus, SnippetRunResult, type SnippetRunRequest } from '@kadai/contracts';
import { apiCall } from '../../api/client.ts';

/** The queue, the running and recent jobs of the caller's courses, the grader hosts and the sandbox. */
export function getPygradeStatus(signal?: AbortSignal) {
  return apiCall('getPygradeStatus', 'GET', '/Pygrade/status/', { response: PygradeStatus, signal });
}

/** Runs a snippet as `main.py` in a fresh sandbox with a test case's default limits. */
export function runSnippet(body: SnippetRunRequest) {
  return apiCall('runSnippet', 'POST', '/Pygrade/run/', { body, response: SnippetRunResult });
}
