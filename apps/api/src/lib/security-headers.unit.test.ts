import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { apiHeaders, helmetHeaders, isApiAnswer, securityHeaderOptions } from './security-headers.ts';

const configOf = (env: Record<string, string>) =>
  loadConfig({
    JWT_SECRET: 'test-secret-that-is-long-enough-for-hs256-0123456789',
    DATA_DIR: '/tmp/x',
    ...env,
  });

describe('security headers (computed once from configuration)', () => {
  it('are helmet’s set with our policy, in helmet’s order', () => {
    const headers = helmetHeaders(securityHeaderOptions(configOf({ PUBLIC_URL: 'http://lms.test' })));
    expect(headers.map(([name]) => name)).toEqual([
      'content-security-policy',
      'cross-origin-opener-policy',
      'cross-origin-resource-policy',
      'origin-agent-cluster',
      'referrer-policy',
      'x-content-type-options',
      'x-dns-prefetch-control',
      'x-download-options',
      'x-frame-options',
      'x-permitted-cross-domain-policies',
      'x-xss-protection',
    ]);
    const byName = new Map(headers);
    expect(byName.get('content-security-policy')).toBe(
      "default-src 'self';script-src 'self';style-src 'self' 'unsafe-inline';" +
        "img-src 'self' data: blob: https://i.vimeocdn.com https://i.ytimg.com;font-src 'self' data:;" +
        "connect-src 'self';frame-src https://player.vimeo.com https://www.youtube-nocookie.com;" +
        "object-src 'none';base-uri 'self';form-action 'self';frame-ancestors 'none'",
    );
    expect(byName.get('cross-origin-opener-policy')).toBe('same-origin');
    expect(byName.get('x-content-type-options')).toBe('nosniff');
    expect(byName.get('x-frame-options')).toBe('SAMEORIGIN');
  });

  it('ask browsers for HTTPS only when the public address is https', () => {
    const plain = new Map(helmetHeaders(securityHeaderOptions(configOf({ PUBLIC_URL: 'http://lms.test' }))));
    const secure = new Map(
      helmetHeaders(securityHeaderOptions(configOf({ PUBLIC_URL: 'https://lms.test' }))),
    );
    expect(plain.has('strict-transport-security')).toBe(false);
    expect(secure.get('strict-transport-security')).toBe('max-age=15552000; includeSubDomains');
  });

  it('let Google sign-in load, frame and pop up only when it is configured', () => {
    const headers = new Map(
      helmetHeaders(
        securityHeaderOptions(
          configOf({
            PUBLIC_URL: 'http://lms.test',
            GOOGLE_CLIENT_ID: 'client.apps.googleusercontent.com',
            GOOGLE_SCRIPT_URL: 'https://accounts.example/gsi/client',
          }),
        ),
      ),
    );
    const csp = headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self' https://accounts.example/gsi/client;");
    expect(csp).toContain("connect-src 'self' https://accounts.example/gsi/;");
    expect(headers.get('cross-origin-opener-policy')).toBe('same-origin-allow-popups');
  });

  it('give the API’s answers a policy that allows nothing, and keep what guards every response', () => {
    const secure = helmetHeaders(securityHeaderOptions(configOf({ PUBLIC_URL: 'https://lms.test' })));
    expect(apiHeaders(secure)).toEqual([
      ['content-security-policy', "default-src 'none'; frame-ancestors 'none'"],
      ['cross-origin-resource-policy', 'same-origin'],
      ['strict-transport-security', 'max-age=15552000; includeSubDomains'],
      ['x-content-type-options', 'nosniff'],
      ['x-frame-options', 'SAMEORIGIN'],
    ]);
    for (const url of ['/api/Course/', '/api/v1/workbook/x', '/api/Download/t', '/metrics', '/metrics?x=1'])
      expect(isApiAnswer(url)).toBe(true);
    for (const url of ['/', '/course/1', '/api/docs', '/api/docs/static/index.html', '/apiary', '/metricsx'])
      expect(isApiAnswer(url)).toBe(false);
  });
});
