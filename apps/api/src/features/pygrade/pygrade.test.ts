import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp } from '../../../test/harness.ts';

describe('GET /pygrade/', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ sandboxOk: false, env: { PRODUCT_NAME: '<b>Kadai</b> & "co"' } });
  });
  afterAll(() => t.close());

  it('is a page outside the single-page app that says when the sandbox is missing', async () => {
    const res = await call(t, 'GET', '/pygrade/', { headers: { 'accept-language': 'en-US' } });
    expect(res.status).toBe(200);
    expect(String(res.headers['content-type'])).toContain('text/html');
    expect(String(res.body)).toContain('Sandbox: unavailable');
    expect(String(res.body)).toContain('missing bubblewrap');
  });

  it('speaks Japanese by default', async () => {
    const res = await call(t, 'GET', '/pygrade/');
    expect(String(res.body)).toContain('サンドボックス: 利用不可');
    expect(String(res.body)).toContain('<html lang="ja">');
    expect(String(res.body)).toContain('採点キュー');
  });

  it('escapes what it prints and runs no inline script (the CSP allows only this origin’s files)', async () => {
    const res = await call(t, 'GET', '/pygrade/', { headers: { 'accept-language': 'en' } });
    const html = String(res.body);
    expect(html).toContain('&lt;b&gt;Kadai&lt;/b&gt; &amp; &quot;co&quot;');
    expect(html).not.toContain('<b>Kadai</b>');
    const scripts = [...html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)];
    expect(scripts.map((m) => [m[0].includes('src="/pygrade/console.js"'), m[1]])).toEqual([[true, '']]);
    expect(String(res.headers['content-security-policy'])).toContain("script-src 'self'");
  });

  it('offers anonymous visitors a way to sign in, and hides the console until the script shows it', async () => {
    const html = String((await call(t, 'GET', '/pygrade/', { headers: { 'accept-language': 'en' } })).body);
    expect(html).toMatch(/<p id="sign-in">[^<]*<a href="\/login">Sign in<\/a><\/p>/);
    expect(html).toMatch(/<section id="console" hidden data-messages="/);
    expect(html).toContain('id="snippet-form"');
    // The messages the script reads are valid JSON once the attribute is unescaped.
    const attribute = /data-messages="([^"]*)"/.exec(html)![1]!;
    const decoded = attribute.replaceAll('&quot;', '"').replaceAll('&#39;', "'").replaceAll('&amp;', '&');
    expect(JSON.parse(decoded)).toMatchObject({
      lang: 'en-US',
      forbidden: 'The console is for editors and staff.',
    });
  });

  it('serves the console script from this origin', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/pygrade/console.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.body).toContain("const SESSION_KEY = 'kadai-session'");
    expect(res.body).toContain('Pygrade/status/');
    expect(res.body).not.toContain('innerHTML');
  });
});
