import { describe, expect, it } from 'vitest';
import { NOTIFICATION_KINDS, type NotificationKind } from '@kadai/contracts';
import type { MailNotification, MailReader } from './mail-sentences.ts';
import { appUrl, renderDigestEmail, renderNotificationEmail } from './mail-templates.ts';

const site = { productName: 'Kadai', publicUrl: 'https://lms.example.ac.jp' };
const links = {
  settings: 'https://lms.example.ac.jp/notifications/settings',
  stopKind: 'https://lms.example.ac.jp/unsubscribe?token=k',
  stopCourse: 'https://lms.example.ac.jp/unsubscribe?token=c',
};
const ja: MailReader = { name: '鈴木 陽菜', language: 'ja', timeZone: 'Asia/Tokyo' };
const en: MailReader = { name: 'Ada Byron', language: 'en-US', timeZone: 'America/Los_Angeles' };

const HOSTILE = 'Week 3 <script>alert("x")</script> & \'more\'\r\nBcc: victim@example.com';

function notification(kind: NotificationKind, fields: Partial<MailNotification> = {}): MailNotification {
  return {
    id: 1,
    kind,
    courseId: 3,
    courseTitle: 'Algorithms <b>I</b>',
    link: '/course/3/forum/12',
    facts: {
      title: HOSTILE,
      actor: { first_name: 'Grace', last_name: 'Hopper' },
      score: 8,
      max_score: 10,
      due_at: '2026-11-30T14:59:00Z',
      member: { first_name: 'Alan', last_name: 'Turing' },
      role: 'student',
    },
    createdAt: new Date('2026-11-29T03:00:00Z'),
    ...fields,
  };
}

describe('notification e-mails', () => {
  it('say every kind in both languages, with a subject on one line and the links', () => {
    for (const kind of NOTIFICATION_KINDS) {
      for (const reader of [ja, en]) {
        const mail = renderNotificationEmail(notification(kind), reader, site, links);
        expect(mail.subject, kind).not.toMatch(/[\r\n]/);
        expect(mail.subject).toMatch(reader === ja ? /^【Kadai】/ : /^\[Kadai\] /);
        expect(mail.text).toContain('https://lms.example.ac.jp/course/3/forum/12');
        expect(mail.text).toContain(links.settings);
        expect(mail.text).toContain(links.stopKind);
        expect(mail.text).toContain(links.stopCourse);
        // The title's line break does not start a header-like line in the text part.
        expect(mail.text).not.toMatch(/^Bcc:/m);
        expect(mail.html).toContain('href="https://lms.example.ac.jp/course/3/forum/12"');
      }
    }
  });

  it('escape what people typed in the HTML part', () => {
    const mail = renderNotificationEmail(notification('announcement'), en, site, links);
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).not.toContain('<b>I</b>');
    expect(mail.html).toContain(
      'Week 3 &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;more&#39;',
    );
    expect(mail.html).toContain('Course: Algorithms &lt;b&gt;I&lt;/b&gt;');
    expect(mail.text).toContain(
      'Announcement: Week 3 <script>alert("x")</script> & \'more\' Bcc: victim@example.com',
    );
  });

  it("write names, scores and dates as the reader reads them, in the reader's zone", () => {
    const graded = renderNotificationEmail(notification('submission_graded'), ja, site, links);
    expect(graded.text).toContain('得点：8 / 10');
    const deadlineJa = renderNotificationEmail(notification('deadline_soon'), ja, site, links);
    expect(deadlineJa.text).toMatch(/締め切り：2026年11月30日\(月\) 23:59 JST/);
    const deadlineEn = renderNotificationEmail(notification('deadline_soon'), en, site, links);
    expect(deadlineEn.text).toContain('Due: Mon, Nov 30, 2026, 06:59 AM PST');
    const reply = renderNotificationEmail(notification('forum_reply'), ja, site, links);
    expect(reply.subject).toContain('Hopper Grace さんが');
    expect(renderNotificationEmail(notification('forum_reply'), en, site, links).subject).toContain(
      'Grace Hopper replied',
    );
  });

  it('link only into the app', () => {
    expect(appUrl(site.publicUrl, '/course/3')).toBe('https://lms.example.ac.jp/course/3');
    expect(appUrl(site.publicUrl, '//evil.example/x')).toBe('https://lms.example.ac.jp/');
    expect(appUrl(site.publicUrl, 'https://evil.example/')).toBe('https://lms.example.ac.jp/');
  });
});

describe('digest e-mails', () => {
  const digestLinks = {
    settings: links.settings,
    stopAll: 'https://lms.example.ac.jp/unsubscribe?token=a',
    list: 'https://lms.example.ac.jp/notifications',
  };

  it('group by course, the course of the newest first, newest first within each, and count the rest', () => {
    const at = (hour: number) => new Date(`2026-11-29T${String(hour).padStart(2, '0')}:00:00Z`);
    const items = [
      notification('forum_reply', { id: 1, createdAt: at(1), facts: { title: 'Oldest in Algorithms' } }),
      notification('submission_graded', {
        id: 2,
        courseId: 4,
        courseTitle: 'Databases',
        createdAt: at(2),
        facts: { title: 'Joins', score: 3, max_score: 5 },
      }),
      notification('forum_reply', { id: 3, createdAt: at(3), facts: { title: 'Newest in Algorithms' } }),
    ];
    const mail = renderDigestEmail(items, 4, en, site, digestLinks);
    expect(mail.subject).toBe('[Kadai] Your daily summary: 7 new notifications');
    const order = [
      '■ Algorithms <b>I</b>',
      'Newest in Algorithms',
      'Oldest in Algorithms',
      '■ Databases',
      'Joins',
    ];
    const positions = order.map((text) => mail.text.indexOf(text));
    expect(
      positions.every((p) => p >= 0),
      mail.text,
    ).toBe(true);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(mail.text).toContain('…and 4 more in the app: https://lms.example.ac.jp/notifications');
    expect(mail.text).toContain(digestLinks.stopAll);
    expect(mail.html).toContain('Algorithms &lt;b&gt;I&lt;/b&gt;');
    const inJapanese = renderDigestEmail(items, 0, ja, site, digestLinks);
    expect(inJapanese.subject).toBe('【Kadai】通知のまとめ（3 件）');
    expect(inJapanese.text).toContain('鈴木 陽菜 様');
    expect(inJapanese.text).not.toContain('ほか');
  });
});

describe('the HTML part', () => {
  it('keeps its own attributes whole: no quote inside a quoted value', () => {
    const mail = renderNotificationEmail(notification('announcement'), ja, site, links);
    const styles = mail.html.match(/style="/g)?.length ?? 0;
    expect(styles).toBeGreaterThan(3);
    // Each value closes before the next attribute or the end of its tag.
    expect([...mail.html.matchAll(/style="[^"<>]*"(?=[ >])/g)].length).toBe(styles);
    expect(mail.html).toMatch(/^<!DOCTYPE html><html lang="ja">/);
    expect(mail.html.match(/<a /g)?.length).toBe(mail.html.match(/<\/a>/g)?.length);
  });
});
