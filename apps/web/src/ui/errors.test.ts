import { ErrorBody } from '@kadai/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../api/client.ts';
import { i18n } from '../i18n/index.ts';
import { errorMessage } from './errors.ts';

const apiError = (status: number, code: string, detail = 'Server detail in English.') =>
  new ApiError('op', status, ErrorBody.parse({ detail, code }));

afterEach(async () => {
  await i18n.changeLanguage('ja');
});

describe('errorMessage', () => {
  it('translates a known error code into the reader’s language', async () => {
    await i18n.changeLanguage('ja');
    expect(errorMessage(apiError(403, 'closed'), i18n.t)).toBe(
      '締め切りを過ぎたため、提出は締め切られました。',
    );
    await i18n.changeLanguage('en-US');
    expect(errorMessage(apiError(403, 'closed'), i18n.t)).toBe(
      'The deadline has passed; submissions are closed.',
    );
  });

  it('falls back on the status, then on the server’s detail', async () => {
    await i18n.changeLanguage('en-US');
    expect(errorMessage(apiError(403, 'permission_denied'), i18n.t)).toBe('You are not allowed to do this.');
    expect(errorMessage(apiError(400, 'something_new'), i18n.t)).toBe('Server detail in English.');
    expect(errorMessage(new TypeError('Failed to fetch'), i18n.t)).toMatch(/could not be reached/);
  });
});
