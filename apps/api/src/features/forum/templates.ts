import type { ForumTemplate, Language } from '@kadai/contracts';
import type { Actor, AppContext } from '../../lib/context.ts';
import { getCourseRole } from '../courses/courses.service.ts';
import { canManageCourse } from '../courses/courses.service.ts';
import { findDisplayLanguage } from './records.repo.ts';

/*
 * Built-in starting points for a post (`GET Forum/Templates/`). They are content, not interface text,
 * so they live here in both languages rather than in the web's i18n files: the API answers in the
 * language asked for (`lang`), else the caller's display language.
 */

type Template = Omit<ForumTemplate, 'name' | 'title' | 'content'> &
  Record<Language, Pick<ForumTemplate, 'name' | 'title' | 'content'>>;

const TEMPLATES: Template[] = [
  {
    id: 'question',
    for_announcement: false,
    'en-US': {
      name: 'Question',
      title: 'Question: ',
      content: '## What I want to know\n\n\n## What I tried\n\n\n## Where I am stuck\n\n',
    },
    ja: {
      name: '質問',
      title: '質問：',
      content: '## 知りたいこと\n\n\n## 試したこと\n\n\n## つまずいている点\n\n',
    },
  },
  {
    id: 'bug-report',
    for_announcement: false,
    'en-US': {
      name: 'Bug report / error help',
      title: 'Error: ',
      content:
        '## What happened\n\n\n## The error message\n\n```\n\n```\n\n## The code (the smallest part that shows it)\n\n```python\n\n```\n\n## What I expected\n\n',
    },
    ja: {
      name: 'バグ報告・エラーの相談',
      title: 'エラー：',
      content:
        '## 起きたこと\n\n\n## エラーメッセージ\n\n```\n\n```\n\n## コード（問題が再現する最小の部分）\n\n```python\n\n```\n\n## 期待した結果\n\n',
    },
  },
  {
    id: 'study-group',
    for_announcement: false,
    'en-US': {
      name: 'Study group',
      title: 'Study group: ',
      content: '## Topic\n\n\n## When and where\n\n\n## Who can join\n\n',
    },
    ja: {
      name: '勉強会の募集',
      title: '勉強会：',
      content: '## テーマ\n\n\n## 日時・場所\n\n\n## 参加できる人\n\n',
    },
  },
  {
    id: 'assignment-released',
    for_announcement: true,
    'en-US': {
      name: 'Assignment released',
      title: 'New assignment: ',
      content: '## Assignment\n\n\n## Deadline\n\n\n## Notes\n\n',
    },
    ja: {
      name: '課題の公開',
      title: '新しい課題：',
      content: '## 課題\n\n\n## 締切\n\n\n## 注意事項\n\n',
    },
  },
  {
    id: 'schedule-change',
    for_announcement: true,
    'en-US': {
      name: 'Schedule change',
      title: 'Schedule change: ',
      content: '## What changes\n\n\n## Before\n\n\n## After\n\n',
    },
    ja: {
      name: '日程の変更',
      title: '日程変更：',
      content: '## 変更内容\n\n\n## 変更前\n\n\n## 変更後\n\n',
    },
  },
  {
    id: 'exam-info',
    for_announcement: true,
    'en-US': {
      name: 'Exam info',
      title: 'Exam: ',
      content: '## Date and time\n\n\n## Room\n\n\n## Scope\n\n\n## What to bring\n\n',
    },
    ja: {
      name: '試験のお知らせ',
      title: '試験：',
      content: '## 日時\n\n\n## 場所\n\n\n## 範囲\n\n\n## 持ち物\n\n',
    },
  },
];

const asLanguage = (value: string | null): Language => (value === 'en-US' ? 'en-US' : 'ja');

/** Members get the discussion templates; editors of the course and staff also the announcement ones. */
export async function listTemplates(
  ctx: AppContext,
  actor: Actor,
  query: { course: number; lang?: Language },
): Promise<ForumTemplate[]> {
  const role = await getCourseRole(ctx.db, actor, query.course);
  const lang = query.lang ?? asLanguage(await findDisplayLanguage(ctx.db, actor.userId));
  return TEMPLATES.filter((t) => canManageCourse(role) || !t.for_announcement).map((t) => ({
    id: t.id,
    for_announcement: t.for_announcement,
    ...t[lang],
  }));
}
