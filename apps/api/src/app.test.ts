import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_CONTENT_SECURITY_POLICY } from './lib/security-headers.ts';
import { call, createTestApp, type TestApp } from '../test/harness.ts';

describe('serving the web app', () => {
  let t: TestApp;
  let dist: string;
  beforeAll(async () => {
    dist = mkdtempSync(path.join(os.tmpdir(), 'kadai-dist-'));
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Kadai</title><div id="root"></div>');
    writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), 'console.log(1)');
    writeFileSync(path.join(dist, 'assets', 'index-abc123.css'), 'body { margin: 0 }');
    writeFileSync(path.join(dist, 'assets', 'logo-abc123.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    t = await createTestApp({ webDistDir: dist });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('answers every app route with index.html and a strict Content-Security-Policy', async () => {
    // /pygrade/ is a page of the app like any other (no server-rendered page claims it any more).
    for (const url of [
      '/',
      '/course',
      '/course/12/forum/3',
      '/login?x=1',
      '/no/such/page',
      '/pygrade/',
      '/pygrade',
    ]) {
      const res = await call(t, 'GET', url);
      expect(res.status, url).toBe(200);
      expect(String(res.body)).toContain('<div id="root">');
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("object-src 'none'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('unsafe-eval');
    }
  });

  it('serves hashed assets as immutable', async () => {
    const res = await call(t, 'GET', '/assets/index-abc123.js');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toContain('immutable');
    expect(res.headers.etag).toBeUndefined();
    expect(res.headers['last-modified']).toBeUndefined();
  });

  it('leaves the document-only security headers off scripts and stylesheets, not off an SVG', async () => {
    for (const file of ['/assets/index-abc123.js', '/assets/index-abc123.css']) {
      const res = await call(t, 'GET', file);
      expect(res.status).toBe(200);
      expect(res.headers['content-security-policy']).toBeUndefined();
      expect(res.headers['x-frame-options']).toBeUndefined();
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
    }
    const svg = await call(t, 'GET', '/assets/logo-abc123.svg');
    expect(svg.status).toBe(200);
    expect(svg.headers['content-security-policy']).toContain("default-src 'self'");
  });

  it('sends the security headers with refusals and errors too', async () => {
    for (const [method, url, status] of [
      ['GET', '/api/Course/', 401],
      ['GET', '/api/nothing-here', 404],
      ['POST', '/api/Auth/Token/', 400],
    ] as const) {
      const res = await call(t, method, url, method === 'POST' ? { body: { email: 1 } } : {});
      expect(res.status, url).toBe(status);
      expect(res.headers['content-security-policy'], url).toBe(API_CONTENT_SECURITY_POLICY);
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['x-frame-options'], url).toBe('SAMEORIGIN');
      expect(res.headers['x-request-id'], url).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('sends them with what the router refuses before any route runs', async () => {
    for (const [url, status] of [
      [`/api/Download/${'a'.repeat(1001)}`, 414],
      ['/api/Course/%E0%A4%A', 400],
    ] as const) {
      const res = await call(t, 'GET', url);
      expect(res.status, url).toBe(status);
      expect(res.headers['content-security-policy'], url).toBe(API_CONTENT_SECURITY_POLICY);
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['x-request-id'], url).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('gives API answers only the headers that guard them, and the app’s pages the whole set', async () => {
    const api = await call(t, 'GET', '/api/health');
    expect(api.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(api.headers['cross-origin-resource-policy']).toBe('same-origin');
    for (const documentOnly of [
      'cross-origin-opener-policy',
      'origin-agent-cluster',
      'x-dns-prefetch-control',
    ]) {
      expect(api.headers[documentOnly], documentOnly).toBeUndefined();
    }
    // The API's reference is a page: it keeps the whole set.
    const docs = await call(t, 'GET', '/api/docs/json');
    expect(String(docs.headers['content-security-policy'])).toContain("default-src 'self'");
    expect(docs.headers['cross-origin-opener-policy']).toBe('same-origin');
    const page = await call(t, 'GET', '/course');
    expect(page.headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(page.headers['origin-agent-cluster']).toBe('?1');
  });

  it('keeps unknown API paths as JSON 404s, not the app', async () => {
    const res = await call(t, 'GET', '/api/nothing-here');
    expect(res.status).toBe(404);
    expect(res.json.code).toBe('not_found');
  });

  it('does not answer non-GET requests with the app', async () => {
    const res = await call(t, 'POST', '/course', { body: {} });
    expect(res.status).toBe(404);
  });
});
