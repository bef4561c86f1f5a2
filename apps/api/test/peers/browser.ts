/*
 * A scriptable "browser" for tests that drive identity providers' login pages over plain HTTP: a cookie
 * jar, redirects followed by hand (fetch with `redirect: 'manual'`), and forms read out of the HTML.
 *
 * Cookies are kept per origin (host and port), not per host as browsers do: every peer and the app
 * listen on 127.0.0.1, and two SimpleSAMLphp instances in one test must not share a session cookie.
 * Path scoping and expiry (Max-Age / Expires in the past) are honoured; Secure and SameSite are not.
 */

export interface Page {
  url: string;
  status: number;
  headers: Headers;
  body: string;
}

export interface Form {
  /** The absolute URL the form submits to. */
  action: string;
  method: 'GET' | 'POST';
  /** Every named input's value (hidden ones included; buttons and unchecked boxes left out). */
  fields: Record<string, string>;
}

export interface SamlPost {
  /** The service provider's assertion consumer URL the IdP's auto-submitting form posts to. */
  action: string;
  fields: { SAMLResponse: string; RelayState?: string };
}

interface Cookie {
  name: string;
  value: string;
  path: string;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** Decodes the few HTML entities a template escapes attribute values with. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos|#039);/gi, (whole, entity: string) => {
    const lower = entity.toLowerCase();
    if (lower.startsWith('#x')) return String.fromCodePoint(parseInt(lower.slice(2), 16));
    if (lower.startsWith('#')) return String.fromCodePoint(parseInt(lower.slice(1), 10));
    const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
    return named[lower] ?? whole;
  });
}

function attribute(tag: string, name: string): string | undefined {
  const match = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(tag);
  if (!match) return undefined;
  return decodeEntities(match[1] ?? match[2] ?? match[3] ?? '');
}

/** The first <form> of `html`, its action resolved against `pageUrl`. */
export function parseForm(html: string, pageUrl: string): Form {
  const form = /<form\b([^>]*)>([\s\S]*?)<\/form>/i.exec(html);
  if (!form) throw new Error(`No <form> on ${pageUrl}:\n${html.slice(0, 2000)}`);
  const [, openTag = '', inner = ''] = form;
  const fields: Record<string, string> = {};
  for (const [tag] of inner.matchAll(/<input\b[^>]*>/gi)) {
    const name = attribute(tag, 'name');
    const type = (attribute(tag, 'type') ?? 'text').toLowerCase();
    if (!name || ['submit', 'button', 'image', 'reset'].includes(type)) continue;
    if ((type === 'checkbox' || type === 'radio') && !/\schecked\b/i.test(tag)) continue;
    fields[name] = attribute(tag, 'value') ?? (type === 'checkbox' ? 'on' : '');
  }
  const method = (attribute(openTag, 'method') ?? 'GET').toUpperCase() === 'POST' ? 'POST' : 'GET';
  return { action: new URL(attribute(openTag, 'action') ?? '', pageUrl).href, method, fields };
}

export class Browser {
  /** origin → cookies set by it. */
  private readonly jar = new Map<string, Cookie[]>();
  /** Every URL requested, in order (handy when a flow ends somewhere unexpected). */
  readonly history: string[] = [];

  /** One request, no redirect followed. A string body is sent as is; fields are form-encoded. */
  async request(
    url: string,
    init: { method?: string; form?: Record<string, string>; headers?: Record<string, string> } = {},
  ): Promise<Page> {
    const target = new URL(url);
    const headers = new Headers(init.headers);
    const cookie = this.cookieHeader(target);
    if (cookie) headers.set('cookie', cookie);
    let body: string | undefined;
    if (init.form) {
      headers.set('content-type', 'application/x-www-form-urlencoded');
      body = new URLSearchParams(init.form).toString();
    }
    this.history.push(`${init.method ?? (body ? 'POST' : 'GET')} ${url}`);
    const response = await fetch(target, {
      method: init.method ?? (body === undefined ? 'GET' : 'POST'),
      headers,
      body,
      redirect: 'manual',
    });
    for (const line of response.headers.getSetCookie()) this.store(target, line);
    return {
      url: target.href,
      status: response.status,
      headers: response.headers,
      body: await response.text(),
    };
  }

  /**
   * Requests `url` and follows redirects (across hosts, each with its own cookies) until a response
   * is not a redirect, or until `stopAt` accepts the next URL: then that URL is returned unrequested
   * as a page with status 0.
   */
  async follow(
    url: string,
    options: { form?: Record<string, string>; stopAt?: (next: URL) => boolean } = {},
  ): Promise<Page> {
    let page = await this.request(url, options.form ? { form: options.form } : {});
    for (let hops = 0; REDIRECTS.has(page.status); hops++) {
      if (hops === 20) throw new Error(`More than 20 redirects:\n${this.history.join('\n')}`);
      const location = page.headers.get('location');
      if (!location) throw new Error(`${page.status} without Location from ${page.url}`);
      const next = new URL(location, page.url);
      if (options.stopAt?.(next)) return { url: next.href, status: 0, headers: new Headers(), body: '' };
      // 307/308 repeat the method and body; the others turn into a GET.
      const repeat = (page.status === 307 || page.status === 308) && options.form;
      page = await this.request(next.href, repeat ? { form: options.form } : {});
    }
    return page;
  }

  /** Submits the first form of `page` with `overrides` merged into its fields, following redirects. */
  async submitForm(
    page: Pick<Page, 'url' | 'body'>,
    overrides: Record<string, string> = {},
    options: { stopAt?: (next: URL) => boolean } = {},
  ): Promise<Page> {
    const form = parseForm(page.body, page.url);
    const fields = { ...form.fields, ...overrides };
    if (form.method === 'POST') return this.follow(form.action, { ...options, form: fields });
    const target = new URL(form.action);
    for (const [name, value] of Object.entries(fields)) target.searchParams.set(name, value);
    return this.follow(target.href, options);
  }

  /**
   * From the app's start URL (which redirects to SimpleSAMLphp) through the IdP's username/password
   * form to the auto-submitting form that carries the SAMLResponse back: returns that form unposted,
   * for the test to post, replay or tamper with. With an IdP session already open the form is skipped.
   */
  async samlLogin(startUrl: string, username: string, password: string): Promise<SamlPost> {
    let page = await this.follow(startUrl);
    if (/name=["']?password/i.test(page.body)) {
      page = await this.submitForm(page, { username, password });
    }
    if (!/name=["']?SAMLResponse/i.test(page.body)) {
      const why = /name=["']?password/i.test(page.body) ? ' (wrong username or password?)' : '';
      throw new Error(
        `No SAMLResponse form at ${page.url}${why}: ${page.status}\n${page.body.slice(0, 3000)}`,
      );
    }
    const form = parseForm(page.body, page.url);
    const { SAMLResponse, RelayState } = form.fields;
    if (!SAMLResponse) throw new Error(`Empty SAMLResponse at ${page.url}`);
    return {
      action: form.action,
      fields: RelayState === undefined ? { SAMLResponse } : { SAMLResponse, RelayState },
    };
  }

  /**
   * From the app's start URL (which redirects to the OpenID provider) through the provider's login
   * form to the redirect back to the client: returns that callback URL (with `code` and `state`, or
   * `error`) unrequested. The callback is the first redirect whose query carries `code` or `error`
   * beside `state`, or that starts with `redirectUri` when given.
   */
  async oidcLogin(
    startUrl: string,
    login: string,
    password: string,
    options: { redirectUri?: string } = {},
  ): Promise<string> {
    const { redirectUri } = options;
    const stopAt = (next: URL): boolean =>
      redirectUri
        ? next.href.startsWith(redirectUri)
        : next.searchParams.has('state') && (next.searchParams.has('code') || next.searchParams.has('error'));
    let page = await this.follow(startUrl, { stopAt });
    if (page.status !== 0 && /name=["']?password/i.test(page.body)) {
      page = await this.submitForm(page, { login, password }, { stopAt });
    }
    if (page.status !== 0) {
      const why = /name=["']?password/i.test(page.body) ? ' (wrong login or password?)' : '';
      throw new Error(
        `The provider did not redirect back${why}: ${page.url} ${page.status}\n${page.body.slice(0, 3000)}`,
      );
    }
    return page.url;
  }

  /** The value of cookie `name` the browser would send to `url`. */
  cookie(url: string, name: string): string | undefined {
    const target = new URL(url);
    return this.matching(target).find((c) => c.name === name)?.value;
  }

  private matching(target: URL): Cookie[] {
    const cookies = this.jar.get(target.origin) ?? [];
    return cookies.filter(
      (c) =>
        target.pathname === c.path ||
        target.pathname.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`),
    );
  }

  private cookieHeader(target: URL): string {
    // Longer paths first, as browsers send them.
    return this.matching(target)
      .sort((a, b) => b.path.length - a.path.length)
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
  }

  private store(origin: URL, line: string): void {
    const [pair = '', ...attributes] = line.split(';');
    const equals = pair.indexOf('=');
    if (equals < 1) return;
    const name = pair.slice(0, equals).trim();
    const value = pair.slice(equals + 1).trim();
    let path = origin.pathname.replace(/\/[^/]*$/, '') || '/';
    let expired = false;
    for (const part of attributes) {
      const [key = '', ...rest] = part.split('=');
      const attributeValue = rest.join('=').trim();
      switch (key.trim().toLowerCase()) {
        case 'path':
          if (attributeValue.startsWith('/')) path = attributeValue;
          break;
        case 'max-age':
          if (Number(attributeValue) <= 0) expired = true;
          break;
        case 'expires':
          if (Date.parse(attributeValue) < Date.now()) expired = true;
          break;
      }
    }
    const cookies = (this.jar.get(origin.origin) ?? []).filter((c) => !(c.name === name && c.path === path));
    if (!expired) cookies.push({ name, value, path });
    this.jar.set(origin.origin, cookies);
  }
}
