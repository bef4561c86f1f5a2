import {
  KIND_NAMES,
  formatWhen,
  langOf,
  oneLine,
  say,
  shorten,
  type Lang,
  type MailNotification,
  type MailReader,
} from './mail-sentences.ts';

/*
 * Notification e-mails and digests laid out, in the reader's language (users.display_lang), each with a
 * text part and an HTML part: subject, greeting, the sentences of mail-sentences.ts, links and footer.
 * The HTML part escapes every title and name; links are written out in full in the text part.
 */

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}

/** An absolute address in the app for a notification's path (never another site's). */
export function appUrl(publicUrl: string, path: string): string {
  return path.startsWith('/') && !path.startsWith('//') ? `${publicUrl}${path}` : `${publicUrl}/`;
}

/** Longest subject after the product's name; the body has the whole of the title. */
const SUBJECT_LENGTH = 120;

export interface MailSite {
  productName: string;
  /** The app's address without a trailing slash (config.publicUrl). */
  publicUrl: string;
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

function subjectLine(productName: string, text: string, lang: Lang): string {
  const name = oneLine(productName);
  const line = shorten(oneLine(text), SUBJECT_LENGTH);
  return lang === 'ja' ? `【${name}】${line}` : `[${name}] ${line}`;
}

function greeting(name: string, lang: Lang): string {
  if (lang === 'ja') return name ? `${name} 様` : 'こんにちは。';
  return name ? `Dear ${name},` : 'Hello,';
}

/** A line of the footer: its words, and the link it offers, when it has one. */
interface FooterLine {
  words: string;
  url?: string;
}

function footerLines(site: MailSite, lang: Lang, why: string, offers: FooterLine[]): FooterLine[] {
  const product = oneLine(site.productName);
  return [
    { words: why },
    ...offers,
    {
      words:
        lang === 'ja'
          ? `${product} ／ このメールは送信専用です。返信はできません。`
          : `${product} / This message was sent automatically; replies are not read.`,
    },
  ];
}

/** Words that introduce a link, then the link: after a full-width colon with no space. */
const withLink = (words: string, url: string) => `${words}${words.endsWith('：') ? '' : ' '}${url}`;

const textFooter = (lines: FooterLine[]) =>
  ['-- ', ...lines.map((line) => (line.url ? withLink(line.words, line.url) : line.words))].join('\n');

/** Inline styles (mail clients drop style sheets), written into attributes as they are: no `"` in them. */
const STYLE = {
  body: "margin:0;padding:16px;font-family:system-ui,-apple-system,'Segoe UI','Hiragino Sans','Noto Sans JP',sans-serif;font-size:15px;line-height:1.6;color:#1f2328;background:#ffffff",
  headline: 'font-size:18px;font-weight:600;margin:16px 0 8px',
  button:
    'display:inline-block;padding:8px 16px;border-radius:6px;background:#1c64c8;color:#ffffff;text-decoration:none',
  footer: 'margin-top:24px;padding-top:12px;border-top:1px solid #d0d7de;font-size:12px;color:#57606a',
  course: 'font-size:16px;font-weight:600;margin:20px 0 4px',
  meta: 'color:#57606a;font-size:13px',
};

function htmlFooter(lines: FooterLine[]): string {
  return `<div style="${STYLE.footer}">${lines
    .map(
      (line) =>
        `<p style="margin:4px 0">${
          line.url
            ? `<a href="${escapeHtml(line.url)}" style="color:#57606a">${escapeHtml(line.words.replace(/[：:]$/, ''))}</a>`
            : escapeHtml(line.words)
        }</p>`,
    )
    .join('')}</div>`;
}

function htmlPage(lang: Lang, subject: string, inner: string): string {
  return (
    `<!DOCTYPE html><html lang="${lang === 'ja' ? 'ja' : 'en'}"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<title>${escapeHtml(subject)}</title></head><body style="${STYLE.body}">${inner}</body></html>`
  );
}

export interface NotificationMailLinks {
  /** The settings page. */
  settings: string;
  /** A page that turns this kind off. */
  stopKind: string;
  /** A page that mutes this notification's course (none without a course). */
  stopCourse: string | null;
}

/** One notification's own e-mail ("immediately"). */
export function renderNotificationEmail(
  n: MailNotification,
  reader: MailReader,
  site: MailSite,
  links: NotificationMailLinks,
): RenderedMail {
  const lang = langOf(reader.language);
  const said = say(n, reader);
  const subject = subjectLine(site.productName, said.headline, lang);
  const url = appUrl(site.publicUrl, n.link);
  const course = n.courseTitle ? oneLine(n.courseTitle) : null;
  const courseLine = course ? (lang === 'ja' ? `コース：${course}` : `Course: ${course}`) : null;
  const kindName = KIND_NAMES[lang][n.kind];
  const footer = footerLines(
    site,
    lang,
    lang === 'ja'
      ? 'このメールは通知の設定に従ってお送りしています。'
      : 'You receive this e-mail because of your notification settings.',
    [
      {
        words: lang === 'ja' ? '通知の設定を変える：' : 'Change your notification settings:',
        url: links.settings,
      },
      {
        words: lang === 'ja' ? `「${kindName}」のメールを停止する：` : `Stop e-mails about ${kindName}:`,
        url: links.stopKind,
      },
      ...(links.stopCourse && course
        ? [
            {
              words:
                lang === 'ja' ? `コース「${course}」のメールを停止する：` : `Stop e-mails from "${course}":`,
              url: links.stopCourse,
            },
          ]
        : []),
    ],
  );
  const open = lang === 'ja' ? '開く' : 'Open';
  const text = [
    greeting(reader.name, lang),
    '',
    said.headline,
    ...(courseLine ? [courseLine] : []),
    ...said.details,
    '',
    `${open}${lang === 'ja' ? '：' : ': '}${url}`,
    '',
    textFooter(footer),
  ].join('\n');
  const html = htmlPage(
    lang,
    subject,
    [
      `<p style="margin:0">${escapeHtml(greeting(reader.name, lang))}</p>`,
      `<p style="${STYLE.headline}">${escapeHtml(said.headline)}</p>`,
      ...[...(courseLine ? [courseLine] : []), ...said.details].map(
        (line) => `<p style="margin:2px 0">${escapeHtml(line)}</p>`,
      ),
      `<p style="margin:16px 0"><a href="${escapeHtml(url)}" style="${STYLE.button}">${escapeHtml(open)}</a></p>`,
      htmlFooter(footer),
    ].join(''),
  );
  return { subject, text, html };
}

export interface DigestMailLinks {
  settings: string;
  /** A page that turns every notification e-mail off. */
  stopAll: string;
  /** The app's list of notifications (for what the digest leaves out). */
  list: string;
}

/**
 * The daily digest: the notifications it lists, grouped by course (the course of the newest first),
 * newest first within each; `more` counts those left out past the cap.
 */
export function renderDigestEmail(
  items: MailNotification[],
  more: number,
  reader: MailReader,
  site: MailSite,
  links: DigestMailLinks,
): RenderedMail {
  const lang = langOf(reader.language);
  const total = items.length + more;
  const subject = subjectLine(
    site.productName,
    lang === 'ja'
      ? `通知のまとめ（${total} 件）`
      : `Your daily summary: ${total} new notification${total === 1 ? '' : 's'}`,
    lang,
  );
  const newestFirst = [...items].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id);
  const groups = new Map<string, { title: string; items: MailNotification[] }>();
  for (const item of newestFirst) {
    const key = item.courseId === null ? 'none' : String(item.courseId);
    const title = item.courseTitle ? oneLine(item.courseTitle) : lang === 'ja' ? 'その他' : 'Other';
    const group = groups.get(key) ?? { title, items: [] };
    group.items.push(item);
    groups.set(key, group);
  }
  const intro =
    lang === 'ja'
      ? `前回のまとめ以降の新しい通知が ${total} 件あります。`
      : `Here ${total === 1 ? 'is' : 'are'} ${total} new notification${total === 1 ? '' : 's'} since your last summary.`;
  const moreLine =
    more > 0
      ? lang === 'ja'
        ? `ほか ${more} 件はアプリで確認できます：`
        : `…and ${more} more in the app:`
      : null;
  const footer = footerLines(
    site,
    lang,
    lang === 'ja'
      ? 'このメールは通知の設定（毎日のまとめ）に従ってお送りしています。'
      : 'You receive this daily summary because of your notification settings.',
    [
      {
        words: lang === 'ja' ? '通知の設定を変える：' : 'Change your notification settings:',
        url: links.settings,
      },
      {
        words: lang === 'ja' ? '通知メールをすべて停止する：' : 'Stop all notification e-mails:',
        url: links.stopAll,
      },
    ],
  );

  const textGroups: string[] = [];
  const htmlGroups: string[] = [];
  for (const group of groups.values()) {
    textGroups.push(`■ ${group.title}`);
    const htmlItems: string[] = [];
    for (const item of group.items) {
      const said = say(item, reader);
      const when = formatWhen(item.createdAt, reader.language, reader.timeZone) ?? '';
      const url = appUrl(site.publicUrl, item.link);
      textGroups.push(`- ${said.headline}`, ...said.details.map((d) => `  ${d}`), `  ${when}`, `  ${url}`);
      htmlItems.push(
        `<li style="margin:6px 0"><a href="${escapeHtml(url)}">${escapeHtml(said.headline)}</a>` +
          said.details.map((d) => `<br>${escapeHtml(d)}`).join('') +
          `<br><span style="${STYLE.meta}">${escapeHtml(when)}</span></li>`,
      );
    }
    textGroups.push('');
    htmlGroups.push(
      `<p style="${STYLE.course}">${escapeHtml(group.title)}</p><ul style="margin:0;padding-left:20px">${htmlItems.join('')}</ul>`,
    );
  }

  const text = [
    greeting(reader.name, lang),
    '',
    intro,
    '',
    ...textGroups,
    ...(moreLine ? [withLink(moreLine, links.list), ''] : []),
    textFooter(footer),
  ].join('\n');
  const html = htmlPage(
    lang,
    subject,
    [
      `<p style="margin:0">${escapeHtml(greeting(reader.name, lang))}</p>`,
      `<p style="margin:12px 0">${escapeHtml(intro)}</p>`,
      ...htmlGroups,
      ...(moreLine
        ? [
            `<p style="margin:16px 0"><a href="${escapeHtml(links.list)}">${escapeHtml(moreLine.replace(/[：:]$/, ''))}</a></p>`,
          ]
        : []),
      htmlFooter(footer),
    ].join(''),
  );
  return { subject, text, html };
}
