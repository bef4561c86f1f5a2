import type { Tx } from '../../db/client.ts';
import type { DemoWorld } from '../../demo/world.ts';
import { insertAssignment, replaceLinks } from './assignments.repo.ts';
import { insertTestCase, type TestCaseFields } from './test-cases.repo.ts';

const DAY = 86_400_000;

export const DEMO_ASSIGNMENT_TITLES = ['Hello, world', 'Sum of two numbers', 'Word count'] as const;

/** Word count's visible tests, as a teacher writes them: 7 shares (one test is worth 2) for 7 points. */
const WORD_COUNT_TESTS = `import pytest
from kadai import points
from words import count_words


def test_one_word():
    assert count_words("hello") == {"hello": 1}


@points(2)
def test_repeated_words():
    assert count_words("to be or not to be") == {"to": 2, "be": 2, "or": 1, "not": 1}


def test_case_is_ignored():
    assert count_words("Tea tea TEA") == {"tea": 3}


@pytest.mark.parametrize("text", ["", "   ", "\\n\\t"])
def test_no_words(text):
    assert count_words(text) == {}
`;

const WORD_COUNT_HIDDEN = `from words import count_words


def test_punctuation_is_not_a_word():
    assert count_words("Hello, world! Hello.") == {"hello": 2, "world": 1}


def test_japanese_words_separated_by_spaces():
    assert count_words("猫 と 犬 と 猫") == {"猫": 2, "と": 2, "犬": 1}
`;

/**
 * Demo content of the seed: three assignments in the demo course (io, script and pytest tests), opened (a day ago) and due in two
 * weeks with a two-day late period, so a fresh install can be tried end to end at once.
 */
export async function seedDemoAssignments(tx: Tx, world: DemoWorld): Promise<void> {
  const now = Date.now();
  const dates = {
    courseId: world.course.id,
    opensAt: new Date(now - DAY),
    dueAt: new Date(now + 14 * DAY),
    lateUntil: new Date(now + 16 * DAY),
    leaderboardEnabled: true,
  };
  const add = async (
    fields: {
      title: string;
      statement: string;
      starterCode: string;
      referenceSolution: string;
      entryFile?: string;
    },
    tests: (Partial<TestCaseFields> & Pick<TestCaseFields, 'name' | 'kind'>)[],
  ) => {
    const assignment = await insertAssignment(tx, { ...fields, createdBy: world.editor.id });
    await replaceLinks(tx, assignment.id, [dates]);
    for (const [position, test] of tests.entries()) {
      await insertTestCase(tx, assignment.id, { ...test, position });
    }
  };

  await add(
    {
      title: DEMO_ASSIGNMENT_TITLES[0],
      statement:
        '# Hello, world\n\nWrite a program that prints `Hello, world!`.\n\n' +
        '`Hello, world!` と表示するプログラムを書いてください。\n',
      starterCode: '# Print the greeting here.\n',
      referenceSolution: 'print("Hello, world!")\n',
    },
    [
      {
        name: 'Prints the greeting',
        kind: 'io',
        visibility: 'visible',
        stdin: '',
        expectedStdout: 'Hello, world!\n',
      },
    ],
  );

  await add(
    {
      title: DEMO_ASSIGNMENT_TITLES[1],
      statement:
        '# Sum of two numbers\n\nRead two integers on one line, separated by a space, and print their sum.\n\n' +
        '```\n1 2\n```\nprints\n```\n3\n```\n\n' +
        '1 行に空白区切りで与えられる 2 つの整数を読み、その和を出力してください。\n',
      starterCode: 'a, b = map(int, input().split())\n# Print the sum of a and b.\n',
      referenceSolution: 'a, b = map(int, input().split())\nprint(a + b)\n',
    },
    [
      {
        name: 'Small numbers',
        kind: 'io',
        visibility: 'visible',
        points: 1,
        stdin: '1 2\n',
        expectedStdout: '3\n',
      },
      {
        name: 'Negative numbers',
        kind: 'io',
        visibility: 'hidden',
        points: 2,
        stdin: '-5 12\n',
        expectedStdout: '7\n',
      },
      {
        name: 'Large numbers, judged by a script',
        kind: 'script',
        visibility: 'after_due',
        points: 2,
        stdin: '1000000000000 2345678901234\n',
        checkScript:
          '# The program ran with stdin "1000000000000 2345678901234"; /judge holds what it printed.\n' +
          'from pathlib import Path\n\n' +
          "words = Path('/judge/stdout').read_text().split()\n" +
          "assert words == ['3345678901234'], f'expected 3345678901234, got {\" \".join(words)[:60]!r}'\n",
      },
    ],
  );

  await add(
    {
      title: DEMO_ASSIGNMENT_TITLES[2],
      statement:
        '# Word count\n\nIn `words.py`, write a function `count_words(text)` that returns a dictionary ' +
        'from each word of `text`, in lower case and without punctuation, to how many times it appears.\n\n' +
        '```python\n>>> count_words("to be or not to be")\n{"to": 2, "be": 2, "or": 1, "not": 1}\n```\n\n' +
        'The tests are a pytest file: press **Run visible tests** to try yours before submitting.\n\n' +
        '`words.py` に、文字列 `text` の各単語（小文字にし、句読点を除いたもの）から出現回数への辞書を返す関数 ' +
        '`count_words(text)` を書いてください。\n',
      entryFile: 'words.py',
      starterCode:
        'def count_words(text):\n    """Map each word of text (lower case) to how often it appears."""\n    return {}\n',
      referenceSolution:
        'import string\n\n\ndef count_words(text):\n    counts = {}\n' +
        '    for word in text.lower().split():\n        word = word.strip(string.punctuation)\n' +
        '        if word:\n            counts[word] = counts.get(word, 0) + 1\n    return counts\n',
    },
    [
      {
        name: 'count_words (pytest)',
        kind: 'pytest',
        visibility: 'visible',
        points: 7,
        pointsAuto: true,
        testFileName: 'test_words.py',
        testCode: WORD_COUNT_TESTS,
      },
      {
        name: 'Punctuation and Japanese (pytest)',
        kind: 'pytest',
        visibility: 'hidden',
        points: 2,
        pointsAuto: true,
        testFileName: 'test_words_more.py',
        testCode: WORD_COUNT_HIDDEN,
      },
    ],
  );
}
