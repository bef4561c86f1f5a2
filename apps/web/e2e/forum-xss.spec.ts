import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { ForumFile } from '@kadai/contracts';
import { ACCOUNTS, STORAGE_STATE, demoCourseId, signIn } from './support.ts';
import {
  createComment,
  createTopic,
  forumClient,
  forumPath,
  freshStudent,
  postPath,
  signedUrlOf,
  uploadForumFile,
  type ForumClient,
} from './forum-data.ts';

/*
 * Stored XSS (issue 5 §2, §4): a student posts known payloads — in titles, Markdown content, comments,
 * attachment names and their own name — and staff and an editor read them in Chromium. Nothing may run:
 * no dialog, no `top.__xss`, no request to the probe host, no navigation away; and the rendered posts
 * hold no handler, no script-bearing element and no script URL. Staff read with the CSP bypassed, so
 * the sanitiser alone must hold; the editor reads with the CSP on, which must not even be needed
 * (no violation reported).
 */

declare global {
  interface Window {
    __xss?: unknown;
    __xssLog?: string[];
  }
}

/** Payload URLs point here; the browser never gets an answer (the route aborts), only our notice. */
const PROBE = 'xss-probe.invalid';
/** What every payload runs: `top` so that one running in a frame is seen too. */
const run = (n: number) => `top.__xss=${n}`;
const svgUse = Buffer.from(
  `<svg id="x" xmlns="http://www.w3.org/2000/svg"><image href="x" onerror="${run(31)}"/></svg>`,
).toString('base64');
const htmlDoc = Buffer.from(`<script>${run(7)}</script>`).toString('base64');

/** At least 30 known payloads, each with its own number; grouped below into posts. */
const CORPUS: string[] = [
  `<script>${run(1)}</script>`,
  `<img src=https://${PROBE}/2 onerror=${run(2)}>`,
  `<svg onload=${run(3)}>`,
  `<iframe srcdoc="<script>${run(4)}</script>"></iframe>`,
  `[markdown link](javascript:${run(5)})`,
  `[vbscript link](vbscript:msgbox(6))`,
  `[data link](data:text/html;base64,${htmlDoc})`,
  `<javascript:${run(8)}>`,
  `[entity-encoded scheme](jav&#x61;script:${run(9)})`,
  `<a href="  javascript:${run(10)}">spaced scheme</a>`,
  `[spaced markdown link](  javascript:${run(11)})`,
  `<math><mtext><table><mglyph><style><img src=https://${PROBE}/12 onerror=${run(12)}>`,
  `<form><math><mtext></form><form><mglyph><style></math><img src=https://${PROBE}/13 onerror=${run(13)}>`,
  `<svg></p><style><a id="</style><img src=https://${PROBE}/14 onerror=${run(14)}>">`,
  `<template><script>${run(15)}</script></template><noscript><p title="</noscript><img src=x onerror=${run(15)}>">`,
  `<details open ontoggle=${run(16)}><summary>s</summary>d</details>`,
  `<body onload=${run(17)}>`,
  `<input autofocus onfocus=${run(18)}>`,
  `<object data="javascript:${run(19)}"></object>`,
  `<embed src="data:text/html,<script>${run(20)}</script>">`,
  `<form action="javascript:${run(21)}"><button>go</button></form>`,
  `<base href="https://${PROBE}/22/">`,
  `<meta http-equiv="refresh" content="0;url=javascript:${run(23)}">`,
  `<div style="background:url(javascript:${run(24)});background-image:url(https://${PROBE}/24)">bg</div>`,
  `<div style="width:expression(${run(25)})">css expression</div>`,
  `![image](x" onerror="${run(26)}) ![image](https://${PROBE}/26.png" onerror="${run(26)})`,
  `[reference link][r27]\n\n[r27]: javascript:${run(27)}`,
  `[titled](https://example.com "a\\" onmouseover=\\"${run(28)}") [titled 2](https://example.com 'b" onclick="${run(28)}')`,
  '```html\n<img src=x onerror=' + run(29) + '>\n<script>' + run(29) + '</script>\n```',
  '```"><img src=x onerror=' + run(30) + '>\nprint("fence with a hostile info string")\n```',
  `<svg><use href="data:image/svg+xml;base64,${svgUse}#x"/></svg>`,
  `<a href=javascript&colon;${run(32)}>colon entity</a> [colon entity](javascript&colon;${run(32)})`,
  `[decimal entities](&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;${run(33)}) [tab](java&#x09;script:${run(33)}) [newline](java&#x0A;script:${run(33)})`,
  `[<img src=x onerror=${run(34)}>](https://example.com) **<svg onload=${run(34)}>** > <script>${run(34)}</script>`,
  `[quote break](https://example.com/"onmouseover="${run(35)})`,
  `https://example.com/<img/src=x/onerror=${run(36)}> www.example.com/"><svg/onload=${run(36)}>`,
  `<IMG SRC="jav&#x09;ascript:${run(37)};"> <img src=x onerror="&#0000116;op.__xss=37">`,
  `<link rel=stylesheet href=https://${PROBE}/38.css>`,
  `<svg><a xlink:href="javascript:${run(39)}"><text x="20" y="20">svg link</text></a></svg>`,
  `<math href="javascript:${run(40)}">math link</math>`,
  `<video><source onerror="${run(41)}"></video><audio src=x onerror=${run(41)}>`,
  `[upper-case scheme](JAVASCRIPT:${run(42)}) <JaVaScRiPt:${run(42)}> [data upper](DATA:text/html,<script>${run(42)}</script>)`,
  `<style>@import 'https://${PROBE}/43.css';</style>`,
  `<!--<img src="--><img src=x onerror=${run(44)}//">`,
  `<svg><style><img src=x onerror=${run(45)}></style></svg>`,
  `<textarea><img src=x onerror=${run(46)}></textarea><title><img src=x onerror=${run(46)}></title>`,
  // Browsers strip tabs from a URL's scheme; a C0 control such as U+0001 is refused by the API itself.
  `<a href="#" onclick="${run(47)}">click</a> [tab in scheme](java\tscript:${run(47)}) [leading space](\u00a0javascript:${run(47)}) [fullwidth](ｊａｖａｓｃｒｉｐｔ:${run(47)})`,
  `[protocol-relative](//${PROBE}/48) [javascript comment](javascript://%0a${run(48)})`,
  `<isindex type=image src=1 onerror=${run(49)}><marquee onstart=${run(49)}>m</marquee>`,
  `{{constructor.constructor('${run(50)}')()}} \${${run(50)}}`,
];

/** Titles: rendered as text in the list, the heading, breadcrumbs and the document title. */
const TITLES = [
  `<script>${run(60)}</script>`,
  `"><img src=x onerror=${run(61)}>`,
  `<svg/onload=${run(62)}>`,
  `javascript:${run(63)}`,
  `{{constructor.constructor('${run(64)}')()}}`,
  `</title><script>${run(65)}</script>`,
  `<iframe src=javascript:${run(66)}>`,
];

/** The author's own name: shown next to every post and in the upvoter list. */
const NAMES = { first_name: `<img src=x onerror=${run(70)}>`, last_name: `"><svg onload=${run(71)}>` };

const PER_POST = 8;

interface Posted {
  id: number;
  /** Text every rendering of the post must show in full (the last line of its content). */
  end: string;
  title: string;
}

async function postCorpus(
  request: APIRequestContext,
  student: ForumClient,
  courseId: number,
  tag: string,
): Promise<{ posts: Posted[]; files: ForumFile[] }> {
  // A name with markup may be refused (400) or kept; kept, it must render as text.
  const named = await request.post(`/api/Forum/ForumFileUpload/${courseId}/`, {
    multipart: {
      file: { name: `<img src=x onerror=${run(72)}>.txt`, mimeType: 'text/plain', buffer: Buffer.from('x') },
    },
    headers: { authorization: `Bearer ${student.token}` },
  });
  expect([201, 400]).toContain(named.status());
  const kept = named.status() === 201 ? ForumFile.array().parse(await named.json()) : [];
  const page = await uploadForumFile(request, student, courseId, {
    name: 'page.html',
    mimeType: 'text/html',
    buffer: Buffer.from(`<script>${run(72)}</script>`),
  });
  const svg = await uploadForumFile(request, student, courseId, {
    name: 'drawing.svg',
    mimeType: 'image/svg+xml',
    buffer: Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" onload="${run(73)}"/>`),
  });
  const files = [...kept, page, svg];
  const posts: Posted[] = [];
  for (let start = 0, index = 0; start < CORPUS.length; start += PER_POST, index += 1) {
    const end = `end of ${tag} post ${index}`;
    const title = `${TITLES[index % TITLES.length]} ${tag} ${index}`;
    const topic = await createTopic(request, student, {
      course: courseId,
      title,
      content: [...CORPUS.slice(start, start + PER_POST), end].join('\n\n'),
      attachments: index === 0 ? files.map((file) => file.id) : [],
    });
    // Comments hold the same payloads again: they are rendered by the comment list, not the post.
    await createComment(
      request,
      student,
      topic,
      [...CORPUS.slice(start, start + 3), `comment ${end}`].join('\n\n'),
    );
    posts.push({ id: topic.id, end, title });
  }
  return { posts, files };
}

interface Watched {
  page: Page;
  /** Everything that ran or tried to: dialogs, probe requests, popups, navigations, CSP reports. */
  incidents: string[];
}

async function watchedPage(
  browser: Browser,
  origin: string,
  options: { storageState?: string; bypassCSP: boolean },
): Promise<Watched> {
  const context = await browser.newContext(options);
  const incidents: string[] = [];
  await context.addInitScript(() => {
    const log: string[] = [];
    let ran: unknown;
    Object.defineProperty(window, '__xssLog', { value: log });
    Object.defineProperty(window, '__xss', {
      configurable: false,
      get: () => ran,
      set: (value: unknown) => {
        ran = value;
        log.push(`payload ${String(value)} ran`);
      },
    });
    document.addEventListener('securitypolicyviolation', (event) => {
      // Zod (the app's contracts) probes once whether it may compile validators with Function():
      // that probe is the app's own, from its own bundle, and not a payload.
      const ownProbe =
        event.blockedURI === 'eval' && event.sourceFile.startsWith(`${location.origin}/assets/`);
      if (!ownProbe) log.push(`CSP blocked ${event.effectiveDirective}: ${event.blockedURI} ${event.sample}`);
    });
  });
  await context.route(
    (url) => url.hostname.endsWith(PROBE),
    (route) => {
      incidents.push(`request to ${route.request().url()}`);
      return route.abort();
    },
  );
  const page = await context.newPage();
  page.on('dialog', (dialog) => {
    incidents.push(`dialog: ${dialog.type()} ${dialog.message()}`);
    void dialog.dismiss();
  });
  page.on('popup', (popup) => incidents.push(`popup: ${popup.url()}`));
  page.on('request', (request) => {
    if (/^(javascript|vbscript|data:text)/i.test(request.url())) incidents.push(`request ${request.url()}`);
  });
  page.on('framenavigated', (frame) => {
    const url = frame.url();
    if (url !== 'about:blank' && !url.startsWith(origin)) {
      incidents.push(`navigated to ${url}`);
    }
  });
  return { page, incidents };
}

/**
 * What is dangerous in the page as rendered: handlers and script URLs anywhere, and inside rendered
 * Markdown every element or attribute that can run script, load something or restyle the page.
 */
function dangerousMarkup(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const describe = (element: Element) => element.outerHTML.slice(0, 160);
    const scriptUrl = /^(javascript|vbscript|data):/i;
    const urlAttributes = [
      'href',
      'src',
      'action',
      'formaction',
      'xlink:href',
      'data',
      'poster',
      'background',
    ];
    for (const element of document.body.querySelectorAll('*')) {
      for (const attribute of element.attributes) {
        const name = attribute.name.toLowerCase();
        // Browsers ignore control characters and spaces inside a URL's scheme: so does this check.
        const value = [...attribute.value]
          .filter((char) => char > ' ' && (char < '\u007f' || char > '\u00a0'))
          .join('');
        if (name.startsWith('on')) found.push(`handler ${name}: ${describe(element)}`);
        if (name === 'srcdoc') found.push(`srcdoc: ${describe(element)}`);
        const harmlessImage = element.tagName === 'IMG' && /^data:image\/(png|gif|jpeg|webp)/i.test(value);
        if (urlAttributes.includes(name) && scriptUrl.test(value) && !harmlessImage) {
          found.push(`script URL in ${name}: ${describe(element)}`);
        }
      }
    }
    for (const element of document.querySelectorAll(
      'base, meta[http-equiv], body iframe, body object, body embed',
    )) {
      found.push(`element: ${describe(element)}`);
    }
    const rendered = document.querySelectorAll('.mantine-Typography-root');
    const banned =
      'script, style, link, meta, base, iframe, frame, frameset, object, embed, applet, form, input, button, ' +
      'textarea, select, svg, math, template, noscript, [style], [srcdoc], [formaction]';
    for (const root of rendered) {
      for (const element of root.querySelectorAll(banned)) found.push(`in a post: ${describe(element)}`);
      for (const link of root.querySelectorAll('a[target]')) {
        if (!/\bnoopener\b/.test(link.getAttribute('rel') ?? ''))
          found.push(`link without noopener: ${describe(link)}`);
      }
    }
    return found;
  });
}

/** Waits for a page to have loaded everything it will (so late `onerror`s have fired), then checks it. */
async function inspect(watched: Watched, where: string, findings: string[]): Promise<void> {
  const { page } = watched;
  await page.waitForLoadState('networkidle');
  for (const problem of await dangerousMarkup(page)) findings.push(`${where}: ${problem}`);
  for (const ran of await page.evaluate(() => window.__xssLog ?? [])) findings.push(`${where}: ${ran}`);
  if ((await page.evaluate(() => window.__xss)) !== undefined) findings.push(`${where}: window.__xss is set`);
  findings.push(...watched.incidents.splice(0).map((incident) => `${where}: ${incident}`));
}

async function readEverything(watched: Watched, courseId: number, tag: string, posts: Posted[]) {
  const { page } = watched;
  const findings: string[] = [];
  await page.goto(`${forumPath(courseId)}?tab=discussion`);
  for (const post of posts)
    await expect(page.getByRole('link').filter({ hasText: post.title })).toBeVisible();
  await inspect(watched, 'the forum list', findings);

  // Search results are rendered again (and could be highlighted): search for the run's tag.
  await page.getByRole('searchbox').fill(tag);
  await expect(page.getByRole('link').filter({ hasText: posts[0]!.title })).toBeVisible();
  await inspect(watched, 'search results', findings);

  for (const post of posts) {
    await page.goto(postPath(courseId, post.id));
    await expect(page.getByRole('heading', { level: 1 })).toContainText(post.title);
    await expect(page.getByText(post.end, { exact: true })).toBeVisible();
    await expect(page.getByText(`comment ${post.end}`, { exact: true })).toBeVisible();
    await inspect(watched, `post ${post.id}`, findings);
  }
  expect(page.url(), 'no payload navigated away').toContain(postPath(courseId, posts.at(-1)!.id));
  return findings;
}

test('stored XSS: a student’s payloads in titles, posts, comments, file names and their name run nowhere', async ({
  browser,
  request,
  baseURL,
}) => {
  test.setTimeout(150_000);
  const origin = new URL(baseURL!).origin;
  expect(CORPUS.length).toBeGreaterThanOrEqual(30);
  const courseId = await demoCourseId(request);
  const tag = `xss${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const student = await freshStudent(request, courseId, NAMES);
  const { posts, files } = await postCorpus(request, student, courseId, tag);

  await test.step('attachments are served as downloads that cannot run on our origin', async () => {
    const staff = await forumClient(request, ACCOUNTS.staff);
    for (const file of files) {
      expect(file.is_image, `${file.filename} is not shown as an image`).toBe(false);
      const response = await request.get(await signedUrlOf(request, staff, file.id));
      expect(response.status()).toBe(200);
      const headers = response.headers();
      expect(headers['content-disposition']).toMatch(/^attachment;/);
      expect(headers['x-content-type-options']).toBe('nosniff');
      expect(headers['content-security-policy']).toContain('sandbox');
    }
  });

  await test.step('staff, with the CSP bypassed: the sanitiser alone keeps everything inert', async () => {
    const staff = await watchedPage(browser, origin, { storageState: STORAGE_STATE.staff, bypassCSP: true });
    const findings = await readEverything(staff, courseId, tag, posts);

    // The editor's preview of someone else's post renders the same Markdown inside a dialog.
    await staff.page.goto(postPath(courseId, posts[0]!.id));
    await staff.page
      .getByRole('button', { name: /^(Edit|編集)$/ })
      .first()
      .click();
    const dialog = staff.page.getByRole('dialog');
    await dialog.getByRole('tab', { name: /^(Preview|プレビュー)$/ }).click();
    await expect(dialog.getByText(posts[0]!.end, { exact: true })).toBeVisible();
    await inspect(staff, 'the editor preview', findings);
    expect(findings, 'what ran or could run for staff').toEqual([]);

    // The watch itself works: a payload planted into a rendered post is seen running, loading and sitting there.
    await staff.page.evaluate((probe) => {
      const post = document.querySelector('.mantine-Typography-root');
      post?.insertAdjacentHTML('beforeend', `<img src="https://${probe}/canary" onerror="top.__xss=0">`);
    }, PROBE);
    const canary: string[] = [];
    await expect
      .poll(async () => {
        await inspect(staff, 'canary', canary);
        return canary.some((line) => line.includes('payload 0 ran'));
      })
      .toBe(true);
    expect(canary.join('\n')).toContain(`request to https://${PROBE}/canary`);
    expect(canary.join('\n')).toContain('handler onerror');
    await staff.page.context().close();
  });

  await test.step('an editor, with the CSP on: it is never even needed', async () => {
    const editor = await watchedPage(browser, origin, { bypassCSP: false });
    await editor.page.goto('/login');
    await signIn(editor.page, ACCOUNTS.editor, { language: 'English' });
    await expect(editor.page).toHaveURL(/\/course$/);
    const findings = await readEverything(editor, courseId, tag, posts.slice(0, 3));
    expect(findings, 'what ran or was blocked by the CSP for an editor').toEqual([]);
    await editor.page.context().close();
  });
});
