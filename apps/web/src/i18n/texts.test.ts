import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  keysIn,
  pageTexts,
  planTexts,
  selectLeaves,
  textsFor,
  type Dictionary,
  type TextPlan,
} from '../../vite-page-texts.ts';
import { PAGES } from '../app/pages.ts';
import enUS from './en-US.json';
import { addDictionary, forgetTexts, i18n, missingTexts } from './index.ts';
import ja from './ja.json';
import { TEXTS } from './texts.ts';

const root = path.resolve(import.meta.dirname, '../..');
let plan: TextPlan | undefined;
const realPlan = () =>
  (plan ??= planTexts({ root, read: (file) => readFileSync(file, 'utf8'), english: enUS }));

function leavesOf(dictionary: Dictionary, at = ''): string[] {
  return Object.entries(dictionary).flatMap(([key, value]) =>
    typeof value === 'string' ? [`${at}${key}`] : leavesOf(value, `${at}${key}.`),
  );
}

/** Keys no module names: the tests list them, so a text shown by a key the reading misses is seen. */
const UNUSED = ['app.tagline', 'laterRelease.description', 'laterRelease.title'];

describe('the keys a module names', () => {
  it('reads quoted keys, templates cut at their first gap, and nothing else', () => {
    const source = [
      `t('auth.login.heading'); t("common.close");`,
      'const k = `status.${state}`; const m = `members.${kind}.title`;',
      `import x from './a.ts'; const file = 'notes.txt'; const word = 'plain';`,
    ].join('\n');
    expect(keysIn(source).sort()).toEqual([
      'auth.login.heading',
      'common.close',
      'members.',
      'notes.txt',
      'status.',
    ]);
  });

  it('selects a key with its plural forms, an object whole, and nothing for what is not a key', () => {
    const dictionary: Dictionary = {
      a: { count_one: 'one', count_other: 'many', counter: 'x', b: { c: 'c', d: 'd' } },
    };
    expect(selectLeaves(dictionary, 'a.count')).toEqual(['a.count_one', 'a.count_other']);
    expect(selectLeaves(dictionary, 'a.b')).toEqual(['a.b.c', 'a.b.d']);
    expect(selectLeaves(dictionary, 'a.')).toHaveLength(5);
    expect(selectLeaves(dictionary, 'notes.txt')).toEqual([]);
    expect(selectLeaves(dictionary, 'a.b.c.d')).toEqual([]);
  });

  it('gives each language its own plural forms of the English keys chosen', () => {
    const chosen = ['a.count_one', 'a.count_other', 'a.b.c'];
    // As Japanese has it: one form, `_other`.
    const other: Dictionary = { a: { count_other: '件', b: { c: 'c', d: 'd' } }, z: 'z' };
    expect(textsFor(other, chosen)).toEqual({ a: { count_other: '件', b: { c: 'c' } } });
  });
});

describe('the parts of the real app', () => {
  it('hold every text of the dictionary that a module names', () => {
    const { shell, pages } = realPlan();
    const held = new Set([...shell, ...Object.values(pages).flat()]);
    const notHeld = leavesOf(enUS)
      .filter((leaf) => !held.has(leaf))
      .sort();
    // A key here is either unused, or shown by a module in a way vite-page-texts.ts cannot read (a
    // key built from variables): name it as a literal, or take it out of both dictionaries.
    expect(notHeld).toEqual(UNUSED);
  });

  it('give every page of the table a part, and no page a text the shell has', () => {
    const { shell, pages } = realPlan();
    expect(Object.keys(pages).sort()).toEqual(Object.keys(PAGES).sort());
    const inShell = new Set(shell);
    for (const leaves of Object.values(pages)) expect(leaves.filter((leaf) => inShell.has(leaf))).toEqual([]);
  });

  it('give the sign-in page its texts, and none of the course pages', () => {
    const { shell, pages } = realPlan();
    const login = new Set([...shell, ...pages.Login!]);
    expect(login.has('auth.login.heading')).toBe(true);
    expect(login.has('common.close')).toBe(true);
    expect([...login].some((leaf) => leaf.startsWith('forum.') || leaf.startsWith('quiz.'))).toBe(false);
    // About a tenth of the dictionary: what the first screen downloads instead of all of it.
    expect(login.size).toBeLessThan(leavesOf(enUS).length / 5);
  });

  it('bring the texts a text nests with $t()', () => {
    const { pages } = realPlan();
    expect(pages.QuizDetailV2).toEqual(
      expect.arrayContaining(['quiz.facts.questionsAndPoints_other', 'quiz.question.points_other']),
    );
    expect(pages.TestCase).toEqual(
      expect.arrayContaining(['testCases.summary_one', 'assignments.pointCount_one']),
    );
  });

  it('are loaders for every language and page', () => {
    for (const language of ['ja', 'en-US'] as const) {
      expect(Object.keys(TEXTS[language]).sort()).toEqual(['shell', ...Object.keys(PAGES)].sort());
    }
  });

  it('are modules of the build that hold a part in its language', async () => {
    const plugin = pageTexts();
    const hook = <T>(h: unknown) => (typeof h === 'function' ? h : (h as { handler: T }).handler) as T;
    type Load = (this: { error: (message: string) => never }, id: string) => string | null;
    hook<(config: { command: string }) => void>(plugin.configResolved)({ command: 'build' });
    const context = {
      error: (message: string): never => {
        throw new Error(message);
      },
    };
    const load = hook<Load>(plugin.load).bind(context);
    const code = load('\0kadai-texts:ja:Login');
    const texts = JSON.parse(
      JSON.parse(/JSON\.parse\((".*")\)/u.exec(code ?? '')![1]!) as string,
    ) as Dictionary;
    expect(texts).toEqual(textsFor(ja, realPlan().pages.Login!));
    expect(load('\0kadai-texts:ja:shell')).toContain(JSON.stringify(ja.common.close).slice(1, -1));
    expect(() => load('\0kadai-texts:fr:Login')).toThrow(/No texts/u);
    expect(() => load('\0kadai-texts:ja:Nowhere')).toThrow(/No texts/u);
  });
});

describe('a text missing from the parts loaded', () => {
  afterEach(async () => {
    await i18n.changeLanguage('ja');
    addDictionary('en-US', enUS);
    missingTexts.length = 0;
  });

  it('brings the whole dictionary, and is noted for the browser journeys', async () => {
    forgetTexts('en-US');
    await i18n.changeLanguage('en-US');
    expect(i18n.t('forum.newPost')).toBe('forum.newPost');
    expect(missingTexts).toContain('forum.newPost');
    await vi.waitFor(() => expect(i18n.t('forum.newPost')).toBe(enUS.forum.newPost));
  });
});
