import { QuestionInput, type AnswerValue } from '@kadai/contracts';
import type { Tx } from '../../db/client.ts';
import type { DemoWorld } from '../../demo/world.ts';
import { insertAttempt, submitAttempt } from './attempts.repo.ts';
import { toNewQuestions } from './questions.ts';
import { scoreAnswer } from './scoring.ts';
import * as repo from './quizzes.repo.ts';
import { insertQuizWithCourses } from './quizzes.service.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export const DEMO_QUIZ_TITLES = {
  open: 'Python basics check',
  upcoming: 'Functions and scope',
  closed: 'Warm-up: values and types',
} as const;

/** Every kind of question, in both languages. */
const BASICS: unknown[] = [
  {
    kind: 'single',
    prompt: 'What does `print(7 // 2)` print?\n\n`print(7 // 2)` は何を表示しますか。',
    shuffle_options: true,
    options: [
      { id: 'a', text: '3' },
      { id: 'b', text: '3.5' },
      { id: 'c', text: '4' },
    ],
    answer_key: { correct: 'a' },
    explanation: '`//` is floor division. `//` は切り捨て除算です。',
  },
  {
    kind: 'multiple',
    prompt: 'Which of these are mutable? / 変更可能（ミュータブル）なものをすべて選んでください。',
    points: 2,
    shuffle_options: true,
    options: [
      { id: 'list', text: 'list' },
      { id: 'tuple', text: 'tuple' },
      { id: 'dict', text: 'dict' },
      { id: 'str', text: 'str' },
    ],
    answer_key: { correct: ['list', 'dict'] },
    explanation:
      'Tuples and strings cannot change after they are made. タプルと文字列は作成後に変更できません。',
  },
  {
    kind: 'true_false',
    prompt: '`len("こんにちは")` is 5. / `len("こんにちは")` は 5 である。',
    answer_key: { correct: true },
    explanation: 'len counts characters, not bytes. len はバイト数ではなく文字数を数えます。',
  },
  {
    kind: 'short_text',
    prompt: 'Which keyword starts a loop over a list? / リストを順に処理するループを始めるキーワードは？',
    answer_key: { mode: 'exact', accepted: ['for'], case_sensitive: true },
    explanation: '`for x in items:`',
  },
  {
    kind: 'numeric',
    prompt: 'What is `round(2.675, 2)` in Python, to two decimals? / Python で `round(2.675, 2)` の値は？',
    points: 2,
    answer_key: { value: 2.67, tolerance: 0.001 },
    explanation:
      '2.675 is stored as 2.67499999…, so it rounds down. 2.675 は 2.67499999… として保存されるため切り下げられます。',
  },
  {
    kind: 'ordering',
    prompt: 'Order the steps to run a script. / スクリプトを実行する手順を並べてください。',
    points: 2,
    shuffle_options: true,
    options: [
      { id: 'write', text: 'Write the code / コードを書く' },
      { id: 'save', text: 'Save the file / ファイルを保存する' },
      { id: 'run', text: 'Run python main.py / python main.py を実行する' },
    ],
    answer_key: { order: ['write', 'save', 'run'] },
  },
];

const FUNCTIONS: unknown[] = [
  {
    kind: 'single',
    prompt: 'What does a function without `return` give back? / `return` のない関数は何を返しますか。',
    options: [
      { id: 'none', text: 'None' },
      { id: 'zero', text: '0' },
      { id: 'error', text: 'An error / エラー' },
    ],
    answer_key: { correct: 'none' },
  },
  {
    kind: 'short_text',
    prompt:
      'Name the statement that makes a name refer to the module-level variable. / モジュールレベルの変数を指すための文は？',
    answer_key: { mode: 'pattern', accepted: ['global*'], case_sensitive: false },
  },
];

const WARM_UP: unknown[] = [
  {
    kind: 'single',
    prompt: 'What is `type(3.0)`? / `type(3.0)` は何ですか。',
    options: [
      { id: 'int', text: 'int' },
      { id: 'float', text: 'float' },
      { id: 'str', text: 'str' },
    ],
    answer_key: { correct: 'float' },
    explanation: 'A decimal point makes a float. 小数点があると float になります。',
  },
  {
    kind: 'true_false',
    prompt: '`"1" + 1` is 2. / `"1" + 1` は 2 になる。',
    answer_key: { correct: false },
    explanation: 'It raises TypeError. TypeError になります。',
  },
  {
    kind: 'numeric',
    prompt: 'What is `2 ** 10`? / `2 ** 10` の値は？',
    answer_key: { value: 1024, tolerance: 0 },
  },
];

async function addQuiz(
  tx: Tx,
  world: DemoWorld,
  fields: { title: string; description: string; questions: unknown[] },
  window: Omit<repo.QuizCourseFields, 'courseId'>,
) {
  const { quiz, quizCourseIds } = await insertQuizWithCourses(
    tx,
    { title: fields.title, description: fields.description, createdBy: world.editor.id },
    toNewQuestions(fields.questions.map((q) => QuestionInput.parse(q))),
    [{ courseId: world.course.id, ...window }],
  );
  return { quizCourseId: quizCourseIds[0]!, questions: await repo.listQuestions(tx, [quiz.id]) };
}

/**
 * Demo content of the seed: in the demo course, a quiz of every kind open now, a timed one opening in
 * three days, and one closed a week ago whose scores and answers are open for review, with two students'
 * submissions (the third never took it), so every state of the pages can be tried at once.
 */
export async function seedDemoQuizzes(tx: Tx, world: DemoWorld): Promise<void> {
  const now = Date.now();
  await addQuiz(
    tx,
    world,
    {
      title: DEMO_QUIZ_TITLES.open,
      description:
        'Six questions, one of each kind. You can submit once.\n\n各形式の問題が 1 問ずつあります。提出は 1 回だけです。',
      questions: BASICS,
    },
    {
      opensAt: new Date(now - HOUR),
      closesAt: new Date(now + 14 * DAY),
      timeLimitMinutes: null,
      scoresVisibleAt: new Date(now - HOUR),
      answersVisibleAt: new Date(now + 14 * DAY),
    },
  );
  await addQuiz(
    tx,
    world,
    {
      title: DEMO_QUIZ_TITLES.upcoming,
      description: '20 minutes from the moment you start. 開始から 20 分以内に解答してください。',
      questions: FUNCTIONS,
    },
    {
      opensAt: new Date(now + 3 * DAY),
      closesAt: new Date(now + 10 * DAY),
      timeLimitMinutes: 20,
      scoresVisibleAt: new Date(now + 10 * DAY),
      answersVisibleAt: new Date(now + 10 * DAY),
    },
  );
  const closesAt = new Date(now - 7 * DAY);
  const closed = await addQuiz(
    tx,
    world,
    {
      title: DEMO_QUIZ_TITLES.closed,
      description: 'Review is open. 解答と解説を確認できます。',
      questions: WARM_UP,
    },
    {
      opensAt: new Date(now - 14 * DAY),
      closesAt,
      timeLimitMinutes: 15,
      scoresVisibleAt: closesAt,
      answersVisibleAt: closesAt,
    },
  );
  const answers: AnswerValue[][] = [
    ['float', false, 1024],
    ['int', false, 1024],
  ];
  for (const [i, values] of answers.entries()) {
    const student = world.students[i]!;
    const startedAt = new Date(now - 10 * DAY + i * HOUR);
    const key = { quizCourseId: closed.quizCourseId, userId: student.id };
    await insertAttempt(tx, key, startedAt);
    const scored = closed.questions.map((q, n) => scoreAnswer(q, values[n]!));
    await submitAttempt(
      tx,
      key,
      {
        submittedAt: new Date(startedAt.getTime() + 9 * 60_000),
        score: scored.reduce((sum, a) => sum + a.points, 0),
        maxScore: closed.questions.reduce((sum, q) => sum + q.points, 0),
      },
      scored,
    );
  }
}
