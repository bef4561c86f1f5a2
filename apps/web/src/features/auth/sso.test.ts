import { describe, expect, it } from 'vitest';
import { json, stubFetch, tokenExpiringIn } from '../../test/fetch.ts';
import { SESSION_DEFAULTS, useSession } from './session.ts';
import { callbackTarget, isSameSitePath, signOut } from './sign-in.ts';
import {
  emailDomainOf,
  passwordHiddenDomainOf,
  providerName,
  providersForEmail,
  ssoErrorOf,
  ssoStartUrl,
} from './sso.ts';

describe('university sign-in helpers', () => {
  it('accepts paths of this site only', () => {
    expect(isSameSitePath('/course/3?tab=x')).toBe(true);
    for (const path of [
      '//evil.com',
      '/\\evil.com',
      'https://evil.com/',
      'course',
      '/\t/evil.com',
      '',
      null,
    ]) {
      expect(isSameSitePath(path)).toBe(false);
    }
    expect(callbackTarget('/login/sso')).toBe('/course');
    expect(callbackTarget('/\\evil.com')).toBe('/course');
  });

  it('starts at the API, with the page to come back to when it is of this site', () => {
    expect(ssoStartUrl('utokyo', '/course/3')).toBe('/api/Auth/Sso/utokyo/start/?next=%2Fcourse%2F3');
    expect(ssoStartUrl('utokyo', '//evil.com')).toBe('/api/Auth/Sso/utokyo/start/');
    expect(ssoStartUrl('utokyo', null)).toBe('/api/Auth/Sso/utokyo/start/');
  });

  it('names a provider in the reader’s language', () => {
    const provider = { name_ja: '東京大学', name_en: 'The University of Tokyo' };
    expect(providerName(provider, 'ja')).toBe('東京大学');
    expect(providerName(provider, 'en-US')).toBe('The University of Tokyo');
  });

  it('reads the known error codes and nothing else', () => {
    expect(ssoErrorOf('clock_skew')).toBe('clock_skew');
    expect(ssoErrorOf('<script>')).toBe('unknown');
    expect(ssoErrorOf(null)).toBeNull();
  });

  it('matches a domain and its subdomains, not a look-alike', () => {
    const hidden = ['u-tokyo.ac.jp'];
    expect(emailDomainOf('Taro@CS.U-Tokyo.ac.jp ')).toBe('cs.u-tokyo.ac.jp');
    expect(emailDomainOf('taro@')).toBeNull();
    expect(passwordHiddenDomainOf('taro@u-tokyo.ac.jp', hidden)).toBe('u-tokyo.ac.jp');
    expect(passwordHiddenDomainOf('taro@cs.u-tokyo.ac.jp', hidden)).toBe('u-tokyo.ac.jp');
    expect(passwordHiddenDomainOf('taro@evil-u-tokyo.ac.jp', hidden)).toBeNull();
    expect(passwordHiddenDomainOf('taro@u-tokyo.ac.jp.evil.com', hidden)).toBeNull();
  });

  it('offers the providers of the address’s domain, else all of them', () => {
    const tokyo = { slug: 'utokyo', email_domain: 'u-tokyo.ac.jp' };
    const other = { slug: 'other', email_domain: null };
    expect(providersForEmail('taro@cs.u-tokyo.ac.jp', [tokyo, other])).toEqual([tokyo]);
    expect(providersForEmail('taro@example.com', [tokyo, other])).toEqual([tokyo, other]);
  });
});

describe('signing out', () => {
  it('returns where the university ends its session, after clearing the tokens', async () => {
    useSession.setState({
      ...SESSION_DEFAULTS,
      authToken: tokenExpiringIn(7200),
      refreshToken: 'r',
      userId: 4,
    });
    stubFetch(() =>
      json(200, { detail: 'Logged out.', sso_logout_url: 'https://idp.example.ac.jp/slo?x=1' }),
    );
    expect(await signOut()).toBe('https://idp.example.ac.jp/slo?x=1');
    expect(useSession.getState().authToken).toBeNull();
  });

  it('returns null without one, offline, or for an address that is not http(s)', async () => {
    useSession.setState({ ...SESSION_DEFAULTS, authToken: tokenExpiringIn(7200), refreshToken: 'r' });
    stubFetch(() => json(200, { detail: 'Logged out.', sso_logout_url: null }));
    expect(await signOut()).toBeNull();
    stubFetch(() => json(200, { detail: 'Logged out.', sso_logout_url: 'javascript:alert(1)' }));
    expect(await signOut()).toBeNull();
    stubFetch(() => Promise.reject(new TypeError('offline')));
    expect(await signOut()).toBeNull();
    expect(useSession.getState().refreshToken).toBeNull();
  });
});
