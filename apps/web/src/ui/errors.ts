import type { TFunction } from 'i18next';
import { isApiError } from '../api/client.ts';

/**
 * A sentence for a person, in their language: the translation of the server's error code when there
 * is one (the server writes its details in English), else a translated generic one by status, else the
 * server's own detail.
 */
export function errorMessage(error: unknown, t: TFunction): string {
  if (isApiError(error)) {
    const known = t(`errors.codes.${error.body.code}`, { defaultValue: '' });
    if (known) return known;
    if (error.status === 403) return t('errors.forbidden');
    if (error.status === 404) return t('errors.notFound');
    if (error.status === 429) return t('errors.tooManyRequests', { seconds: error.retryAfterSeconds ?? 60 });
    if (error.status >= 500) return t('errors.server');
    return error.body.detail;
  }
  if (error instanceof TypeError) return t('errors.network');
  return t('errors.unexpected');
}
