import type { Tx } from '../../db/client.ts';
import type { DemoWorld } from '../../demo/world.ts';
import { insertAssignment, replaceLinks } from './assignments.repo.ts';
import { insertTestCase, type TestCaseFields } from './test-cases.repo.ts';

const DAY = 86_400_000;

export const DEMO_ASSIGNMENT_TITLES = ['Hello, world', 'Sum of two numbers'] as const;

/**
 * Demo content of the seed: two assignments in the demo course, opened (a day ago) and due in two
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
    fields: { title: string; statement: string; starterCode: string; referenceSolution: string },
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
}
