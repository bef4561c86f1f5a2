import type { Notification } from '@kadai/contracts';
import { describe, expect, it } from 'vitest';
import { i18n } from '../../i18n/index.ts';
import { notificationSentence } from './notification-text.ts';

const EMILY = { first_name: 'Emily', last_name: 'Carter' };
const TARO = { first_name: '太郎', last_name: '山田' };
const DUE = '2026-04-08T14:59:00.000Z';

function say(language: 'en-US' | 'ja', kind: Notification['kind'], facts: Notification['facts']) {
  return notificationSentence({ kind, facts }, i18n.getFixedT(language), language);
}

describe('what a notification says', () => {
  it('says each kind in English from its facts', () => {
    expect(say('en-US', 'announcement', { title: 'Exam room' })).toBe('New announcement: Exam room');
    expect(say('en-US', 'submission_graded', { title: 'Loops', score: 8, max_score: 10 })).toBe(
      'Your submission to “Loops” was graded: 8 / 10 points',
    );
    expect(say('en-US', 'submission_graded', { title: 'Loops' })).toBe(
      'Your submission to “Loops” was graded',
    );
    expect(say('en-US', 'feedback_released', { title: 'Loops', actor: EMILY })).toBe(
      'Emily Carter released feedback on “Loops”',
    );
    expect(say('en-US', 'forum_reply', { title: 'Week 3', actor: EMILY })).toBe(
      'Emily Carter replied to “Week 3”',
    );
    expect(say('en-US', 'quiz_opened', { title: 'Quiz 1' })).toBe('Quiz “Quiz 1” is open');
    expect(say('en-US', 'member_added', { member: TARO, role: 'student' })).toBe(
      '山田 太郎 joined as a student',
    );
    expect(say('en-US', 'member_added', { member: EMILY, role: 'editor' })).toBe(
      'Emily Carter joined as an editor',
    );
  });

  it('names people family name first in Japanese', () => {
    expect(say('ja', 'forum_reply', { title: 'Week 3', actor: EMILY })).toBe(
      'Carter Emily さんが「Week 3」に返信しました',
    );
    expect(say('ja', 'member_added', { member: TARO, role: 'student' })).toBe(
      '山田 太郎 さんが受講生として参加しました',
    );
    expect(say('ja', 'submission_graded', { title: 'Loops', score: 8, max_score: 10 })).toBe(
      '「Loops」の提出が採点されました（8 / 10 点）',
    );
  });

  it('writes dates in the reader’s format', () => {
    const en = say('en-US', 'deadline_soon', { title: 'Loops', due_at: DUE });
    expect(en).toMatch(/^“Loops” is due .*2026/);
    const ja = say('ja', 'extension', { title: 'Loops', due_at: DUE, actor: EMILY });
    expect(ja).toMatch(/^Carter Emily さんが「Loops」の期限を 2026年4月.* まで延長しました$/);
  });

  it('picks the sentence that does without a missing fact', () => {
    expect(say('en-US', 'forum_reply', { title: 'Week 3' })).toBe('New reply to “Week 3”');
    expect(say('en-US', 'forum_reply', { title: 'Week 3', actor: { first_name: ' ', last_name: '' } })).toBe(
      'New reply to “Week 3”',
    );
    expect(say('en-US', 'extension', { title: 'Loops' })).toBe('Your dates for “Loops” changed');
    expect(say('en-US', 'deadline_soon', { title: 'Loops' })).toBe('“Loops” is due within 24 hours');
    expect(say('en-US', 'announcement', {})).toBe('New announcement: (untitled)');
    expect(say('ja', 'member_added', {})).toBe('新しいメンバーが参加しました');
  });
});
