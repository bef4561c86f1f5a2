import { afterEach, describe, expect, it } from 'vitest';
import { loadGoogleIdentity, type GoogleOAuth2 } from './google-identity.ts';

const oauth2: GoogleOAuth2 = {
  initTokenClient: () => ({ requestAccessToken: () => undefined }),
};

function scriptsOf(url: string): HTMLScriptElement[] {
  return [...document.head.querySelectorAll('script')].filter((s) => s.src === url);
}

afterEach(() => {
  delete window.google;
  for (const script of document.head.querySelectorAll('script')) script.remove();
});

describe('loadGoogleIdentity', () => {
  it('adds the configured script once and resolves with google.accounts.oauth2 when it loads', async () => {
    const url = 'http://127.0.0.1:3199/gsi/client';
    const first = loadGoogleIdentity(url);
    const second = loadGoogleIdentity(url);
    expect(scriptsOf(url)).toHaveLength(1);
    expect(scriptsOf(url)[0]!.async).toBe(true);
    window.google = { accounts: { oauth2 } };
    scriptsOf(url)[0]!.dispatchEvent(new Event('load'));
    await expect(first).resolves.toBe(oauth2);
    await expect(second).resolves.toBe(oauth2);
    // Loaded: no second script.
    await expect(loadGoogleIdentity(url)).resolves.toBe(oauth2);
    expect(scriptsOf(url)).toHaveLength(1);
  });

  it('rejects when the script fails to load, and tries again on the next call', async () => {
    const url = 'https://accounts.google.com/gsi/client?attempt';
    const failed = loadGoogleIdentity(url);
    scriptsOf(url)[0]!.dispatchEvent(new Event('error'));
    await expect(failed).rejects.toThrow(/could not be loaded/);
    expect(scriptsOf(url)).toHaveLength(0);
    void loadGoogleIdentity(url).catch(() => undefined);
    expect(scriptsOf(url)).toHaveLength(1);
  });

  it('rejects a script that loads without Google’s token client', async () => {
    const url = 'https://example.test/not-google.js';
    const loading = loadGoogleIdentity(url);
    scriptsOf(url)[0]!.dispatchEvent(new Event('load'));
    await expect(loading).rejects.toThrow(/without google.accounts.oauth2/);
  });
});
