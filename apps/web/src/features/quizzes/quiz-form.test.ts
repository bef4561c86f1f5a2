import { QuestionInput, QuizCreate, type QuizCourse } from '@kadai/contracts';
import { describe, expect, it } from 'vitest';
import { browserTimeZone, toLocalInput } from '../assignments/dates.ts';
import {
  changeKind,
  emptyQuestion,
  emptyQuizValues,
  nextOptionId,
  questionProblem,
  quizValues,
  toQuestionInput,
  toQuizCourseDates,
  toQuizCreate,
  type EditorQuiz,
  type QuestionFormValues,
} from './quiz-form.ts';

function question(overrides: Partial<QuestionFormValues>): QuestionFormValues {
  return { ...emptyQuestion(overrides.kind ?? 'single'), prompt: 'Why?', ...overrides };
}

describe('option ids', () => {
  it('takes the first free letter, then o27, o28, …', () => {
    expect(nextOptionId([])).toBe('a');
    expect(
      nextOptionId([
        { id: 'a', text: '' },
        { id: 'c', text: '' },
      ]),
    ).toBe('b');
    const letters = Array.from({ length: 26 }, (_, i) => ({ id: String.fromCharCode(97 + i), text: '' }));
    expect(nextOptionId(letters)).toBe('o27');
  });
});

describe('checking a question before saving', () => {
  it('asks for what each kind needs', () => {
    expect(questionProblem(question({ prompt: '  ' }))).toBe('quiz.editor.problems.prompt');
    expect(questionProblem(question({ kind: 'single' }))).toBe('quiz.editor.problems.optionText');
    const filled = emptyQuestion('single').options.map((o) => ({ ...o, text: `Text ${o.id}` }));
    expect(questionProblem(question({ kind: 'single', options: filled }))).toBe(
      'quiz.editor.problems.singleKey',
    );
    expect(questionProblem(question({ kind: 'single', options: filled, single_correct: 'b' }))).toBeNull();
    expect(questionProblem(question({ kind: 'multiple', options: filled }))).toBe(
      'quiz.editor.problems.multipleKey',
    );
    expect(
      questionProblem(question({ kind: 'single', options: filled.slice(0, 1), single_correct: 'a' })),
    ).toBe('quiz.editor.problems.optionCount');
    expect(questionProblem(question({ kind: 'short_text', short_accepted: [' '] }))).toBe(
      'quiz.editor.problems.shortKey',
    );
    expect(questionProblem(question({ kind: 'numeric', numeric_value: 'x' }))).toBe(
      'quiz.editor.problems.numericValue',
    );
    expect(questionProblem(question({ kind: 'numeric', numeric_value: '3', numeric_tolerance: '-1' }))).toBe(
      'quiz.editor.problems.tolerance',
    );
    expect(questionProblem(question({ kind: 'true_false' }))).toBeNull();
    expect(questionProblem(question({ kind: 'single', points: 1001 }))).toBe('quiz.editor.problems.points');
  });
});

describe('questions as the API takes them', () => {
  it('gives every kind a body the contract accepts', () => {
    const options = [
      { id: 'a', text: ' First ' },
      { id: 'b', text: 'Second' },
      { id: 'c', text: 'Third' },
    ];
    const inputs = [
      question({ kind: 'single', options, single_correct: 'b', shuffle_options: true }),
      question({ kind: 'multiple', options, multiple_correct: ['c', 'a'] }),
      question({ kind: 'true_false', true_false_correct: false }),
      question({ kind: 'short_text', short_accepted: [' for ', 'for', 'while'], short_mode: 'pattern' }),
      question({ kind: 'numeric', numeric_value: '２.５', numeric_tolerance: '0.1' }),
      question({ kind: 'ordering', options, shuffle_options: false }),
    ].map(toQuestionInput);
    for (const input of inputs) expect(QuestionInput.safeParse(input).success, input.kind).toBe(true);
    expect(inputs[0]).toMatchObject({ answer_key: { correct: 'b' }, shuffle_options: true });
    expect(inputs[0]?.options[0]?.text).toBe('First');
    // In the options' order, whatever order they were ticked in.
    expect(inputs[1]).toMatchObject({ answer_key: { correct: ['a', 'c'] } });
    expect(inputs[2]).toMatchObject({ answer_key: { correct: false }, options: [] });
    expect(inputs[3]).toMatchObject({ answer_key: { mode: 'pattern', accepted: ['for', 'while'] } });
    expect(inputs[4]).toMatchObject({ answer_key: { value: 2.5, tolerance: 0.1 } });
    // Written in the correct order; always shuffled for students.
    expect(inputs[5]).toMatchObject({ answer_key: { order: ['a', 'b', 'c'] }, shuffle_options: true });
  });

  it('keeps prompt, points and choice options when the kind changes', () => {
    const options = [
      { id: 'a', text: 'A' },
      { id: 'b', text: 'B' },
    ];
    const single = question({ kind: 'single', options, points: 3, single_correct: 'a' });
    const ordering = changeKind(single, 'ordering');
    expect(ordering).toMatchObject({
      kind: 'ordering',
      prompt: 'Why?',
      points: 3,
      options,
      shuffle_options: true,
    });
    const numeric = changeKind(single, 'numeric');
    expect(numeric).toMatchObject({ kind: 'numeric', prompt: 'Why?', options: [], single_correct: '' });
  });
});

const QUIZ_COURSE: QuizCourse = {
  id: 7,
  quiz_id: 3,
  quiz_title: 'Week 1',
  course_id: 1,
  course_title: 'Python',
  opens_at: '2026-05-01T01:00:00.000Z',
  closes_at: '2026-05-08T01:00:00.000Z',
  time_limit_minutes: 30,
  scores_visible_at: '2026-05-01T01:00:00.000Z',
  answers_visible_at: null,
  state: 'open',
  extended: false,
};

describe('the window and review presets', () => {
  it('reads presets from the dates and writes the same dates back', () => {
    const quiz: EditorQuiz = {
      view: 'editor',
      id: 3,
      title: 'Week 1',
      description: '',
      created_by: 2,
      created_at: QUIZ_COURSE.opens_at,
      updated_at: QUIZ_COURSE.opens_at,
      question_count: 1,
      total_points: 2,
      courses: [QUIZ_COURSE],
      submission_count: 0,
      questions: [
        {
          view: 'editor',
          id: 11,
          position: 0,
          kind: 'ordering',
          prompt: 'Order',
          points: 2,
          shuffle_options: true,
          options: [
            { id: 'b', text: 'Second' },
            { id: 'a', text: 'First' },
          ],
          answer_key: { order: ['a', 'b'] },
          explanation: '',
        },
      ],
    };
    const values = quizValues(quiz, QUIZ_COURSE);
    expect(values.scores_preset).toBe('after_submission');
    expect(values.answers_preset).toBe('not_yet');
    expect(values.time_limit).toBe(30);
    // Ordering items come back in their correct order.
    expect(values.questions[0]?.options.map((o) => o.id)).toEqual(['a', 'b']);
    expect(toQuizCourseDates(values)).toEqual({
      opens_at: QUIZ_COURSE.opens_at,
      closes_at: QUIZ_COURSE.closes_at,
      time_limit_minutes: 30,
      scores_visible_at: QUIZ_COURSE.opens_at,
      answers_visible_at: null,
    });

    const afterClosing = quizValues(quiz, { ...QUIZ_COURSE, scores_visible_at: QUIZ_COURSE.closes_at });
    expect(afterClosing.scores_preset).toBe('after_closing');
    const onDate = quizValues(quiz, { ...QUIZ_COURSE, answers_visible_at: '2026-06-01T00:00:00.000Z' });
    expect(onDate.answers_preset).toBe('on_date');
    expect(onDate.answers_at).toBe(toLocalInput('2026-06-01T00:00:00.000Z'));
    expect(toQuizCourseDates(onDate).answers_visible_at).toBe('2026-06-01T00:00:00.000Z');
  });

  it('opens a new quiz now, until 23:59 a week from today, with review after closing', () => {
    const now = new Date('2026-05-01T09:10:40');
    // A course in the browser's own zone: the inputs show 23:59.
    const values = emptyQuizValues(browserTimeZone(), now);
    expect(values.opens_at).toBe('2026-05-01T09:10');
    expect(values.closes_at).toBe('2026-05-08T23:59');
    expect([values.scores_preset, values.answers_preset]).toEqual(['after_closing', 'after_closing']);
    // Saved with the defaults, it is open at once.
    const dates = toQuizCourseDates(values);
    expect(Date.parse(dates.opens_at)).toBeLessThanOrEqual(now.getTime());
    expect(Date.parse(dates.closes_at)).toBeGreaterThan(now.getTime());
  });

  it('closes a new quiz at 23:59 in the course’s zone, whatever the browser’s', () => {
    const values = emptyQuizValues('America/New_York', new Date('2026-05-01T00:10:00Z'));
    // 20:10 on 30 April in New York: closes 23:59 EDT on 7 May.
    expect(toQuizCourseDates(values).closes_at).toBe('2026-05-08T03:59:00.000Z');
  });

  it('makes a new quiz the contract accepts once its question is filled in', () => {
    const values = emptyQuizValues('Asia/Tokyo', new Date('2026-05-01T00:10:00Z'));
    values.title = 'Week 2';
    values.questions = [question({ kind: 'true_false' })];
    const body = toQuizCreate(values, 1);
    expect(QuizCreate.safeParse(body).success).toBe(true);
    expect(body.courses[0]).toMatchObject({ course_id: 1, time_limit_minutes: null });
    expect(body.courses[0]?.answers_visible_at).toBe(body.courses[0]?.closes_at);
  });
});
