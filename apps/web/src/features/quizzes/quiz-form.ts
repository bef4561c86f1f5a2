import {
  MAX_OPTIONS,
  type QuestionInput,
  type QuestionKind,
  type Quiz,
  type QuizCourse,
  type QuizCourseInput,
  type QuizCreate,
} from '@kadai/contracts';
import type { TranslationKey } from '../../i18n/keys.ts';
import { defaultWindow, fromLocalInput, toLocalInput } from '../assignments/dates.ts';
import { parseNumber } from './answers.ts';

export type EditorQuiz = Extract<Quiz, { view: 'editor' }>;

/** When students who submitted see scores or answers. */
export const REVIEW_PRESETS = ['after_submission', 'after_closing', 'on_date', 'not_yet'] as const;
export type ReviewPreset = (typeof REVIEW_PRESETS)[number];

export interface OptionValues {
  id: string;
  text: string;
}

/**
 * One question as the editor edits it: the fields of every kind side by side, so switching the kind
 * keeps what can be kept. Ordering items are written in their correct order (students get them shuffled).
 */
export interface QuestionFormValues {
  kind: QuestionKind;
  prompt: string;
  points: number;
  shuffle_options: boolean;
  explanation: string;
  options: OptionValues[];
  single_correct: string;
  multiple_correct: string[];
  true_false_correct: boolean;
  short_mode: 'exact' | 'pattern';
  short_accepted: string[];
  short_case_sensitive: boolean;
  /** As typed; read with `parseNumber`. */
  numeric_value: string;
  numeric_tolerance: string;
}

/** The quiz and its window in this course; dates are `datetime-local` values in the browser's zone. */
export interface QuizFormValues {
  title: string;
  description: string;
  questions: QuestionFormValues[];
  opens_at: string;
  closes_at: string;
  /** Minutes; empty: no limit. */
  time_limit: number | '';
  scores_preset: ReviewPreset;
  scores_at: string;
  answers_preset: ReviewPreset;
  answers_at: string;
}

export const CHOICE_KINDS: ReadonlySet<QuestionKind> = new Set(['single', 'multiple', 'ordering']);

/** The next free option id: a, b, … z, then o27, o28, …; ids stay put when options move or go. */
export function nextOptionId(options: readonly OptionValues[]): string {
  const used = new Set(options.map((option) => option.id));
  for (let code = 97; code <= 122; code += 1) {
    const id = String.fromCharCode(code);
    if (!used.has(id)) return id;
  }
  for (let n = 27; ; n += 1) if (!used.has(`o${n}`)) return `o${n}`;
}

function blankOptions(count: number): OptionValues[] {
  const options: OptionValues[] = [];
  for (let i = 0; i < count; i += 1) options.push({ id: nextOptionId(options), text: '' });
  return options;
}

export function emptyQuestion(kind: QuestionKind = 'single'): QuestionFormValues {
  return {
    kind,
    prompt: '',
    points: 1,
    shuffle_options: kind === 'ordering',
    explanation: '',
    options: CHOICE_KINDS.has(kind) ? blankOptions(kind === 'ordering' ? 3 : 4) : [],
    single_correct: '',
    multiple_correct: [],
    true_false_correct: true,
    short_mode: 'exact',
    short_accepted: [],
    short_case_sensitive: false,
    numeric_value: '',
    numeric_tolerance: '0',
  };
}

/** The same question as another kind: prompt, points, explanation and choice options carry over. */
export function changeKind(question: QuestionFormValues, kind: QuestionKind): QuestionFormValues {
  const fresh = emptyQuestion(kind);
  const keepOptions = CHOICE_KINDS.has(kind) && question.options.length >= 2;
  return {
    ...fresh,
    prompt: question.prompt,
    points: question.points,
    explanation: question.explanation,
    shuffle_options: kind === 'ordering' ? true : question.shuffle_options && CHOICE_KINDS.has(kind),
    options: keepOptions ? question.options : fresh.options,
  };
}

/**
 * A new quiz: open now until 23:59 a week from today in the course's zone; scores and answers shown
 * after it closes.
 */
export function emptyQuizValues(courseZone: string, now: Date = new Date()): QuizFormValues {
  const dates = defaultWindow(courseZone, now);
  return {
    title: '',
    description: '',
    questions: [emptyQuestion('single')],
    opens_at: dates.opens,
    closes_at: dates.closes,
    time_limit: '',
    scores_preset: 'after_closing',
    scores_at: '',
    answers_preset: 'after_closing',
    answers_at: '',
  };
}

function presetOf(at: string | null, quizCourse: QuizCourse): ReviewPreset {
  if (at === null) return 'not_yet';
  if (Date.parse(at) === Date.parse(quizCourse.opens_at)) return 'after_submission';
  if (Date.parse(at) === Date.parse(quizCourse.closes_at)) return 'after_closing';
  return 'on_date';
}

function questionValues(question: EditorQuiz['questions'][number]): QuestionFormValues {
  const values: QuestionFormValues = {
    ...emptyQuestion(question.kind),
    prompt: question.prompt,
    points: question.points,
    shuffle_options: question.shuffle_options,
    explanation: question.explanation,
    options: question.options.map((option) => ({ id: option.id, text: option.text })),
  };
  const key = question.answer_key;
  if ('order' in key) {
    const byId = new Map(values.options.map((option) => [option.id, option]));
    values.options = key.order.flatMap((id) => byId.get(id) ?? []);
  } else if ('accepted' in key) {
    values.short_mode = key.mode;
    values.short_accepted = key.accepted;
    values.short_case_sensitive = key.case_sensitive;
  } else if ('tolerance' in key) {
    values.numeric_value = String(key.value);
    values.numeric_tolerance = String(key.tolerance);
  } else if (typeof key.correct === 'boolean') {
    values.true_false_correct = key.correct;
  } else if (Array.isArray(key.correct)) {
    values.multiple_correct = key.correct;
  } else {
    values.single_correct = key.correct;
  }
  return values;
}

export function quizValues(quiz: EditorQuiz, quizCourse: QuizCourse): QuizFormValues {
  const scores = presetOf(quizCourse.scores_visible_at, quizCourse);
  const answers = presetOf(quizCourse.answers_visible_at, quizCourse);
  return {
    title: quiz.title,
    description: quiz.description,
    questions: quiz.questions.map(questionValues),
    opens_at: toLocalInput(quizCourse.opens_at),
    closes_at: toLocalInput(quizCourse.closes_at),
    time_limit: quizCourse.time_limit_minutes ?? '',
    scores_preset: scores,
    scores_at: scores === 'on_date' ? toLocalInput(quizCourse.scores_visible_at) : '',
    answers_preset: answers,
    answers_at: answers === 'on_date' ? toLocalInput(quizCourse.answers_visible_at) : '',
  };
}

/** The first thing wrong with a question, as a translation key; null when it can be saved. */
export function questionProblem(question: QuestionFormValues): TranslationKey | null {
  if (!question.prompt.trim()) return 'quiz.editor.problems.prompt';
  if (!Number.isInteger(question.points) || question.points < 0 || question.points > 1000)
    return 'quiz.editor.problems.points';
  if (CHOICE_KINDS.has(question.kind)) {
    if (question.options.length < 2 || question.options.length > MAX_OPTIONS)
      return 'quiz.editor.problems.optionCount';
    if (question.options.some((option) => !option.text.trim())) return 'quiz.editor.problems.optionText';
  }
  const ids = new Set(question.options.map((option) => option.id));
  switch (question.kind) {
    case 'single':
      return ids.has(question.single_correct) ? null : 'quiz.editor.problems.singleKey';
    case 'multiple':
      return question.multiple_correct.some((id) => ids.has(id)) ? null : 'quiz.editor.problems.multipleKey';
    case 'short_text':
      return question.short_accepted.some((text) => text.trim()) ? null : 'quiz.editor.problems.shortKey';
    case 'numeric': {
      if (parseNumber(question.numeric_value) === null) return 'quiz.editor.problems.numericValue';
      const tolerance = parseNumber(question.numeric_tolerance);
      return tolerance !== null && tolerance >= 0 ? null : 'quiz.editor.problems.tolerance';
    }
    default:
      return null;
  }
}

/** The question as the API takes it (call only when `questionProblem` is null). */
export function toQuestionInput(question: QuestionFormValues): QuestionInput {
  const common = {
    prompt: question.prompt.trim(),
    points: question.points,
    explanation: question.explanation,
  };
  const options = question.options.map((option) => ({ id: option.id, text: option.text.trim() }));
  const ids = new Set(options.map((option) => option.id));
  switch (question.kind) {
    case 'single':
      return {
        ...common,
        kind: 'single',
        shuffle_options: question.shuffle_options,
        options,
        answer_key: { correct: question.single_correct },
      };
    case 'multiple':
      return {
        ...common,
        kind: 'multiple',
        shuffle_options: question.shuffle_options,
        options,
        answer_key: {
          correct: options
            .map((o) => o.id)
            .filter((id) => question.multiple_correct.includes(id) && ids.has(id)),
        },
      };
    case 'ordering':
      return {
        ...common,
        kind: 'ordering',
        shuffle_options: true,
        options,
        answer_key: { order: options.map((o) => o.id) },
      };
    case 'true_false':
      return {
        ...common,
        kind: 'true_false',
        shuffle_options: false,
        options: [],
        answer_key: { correct: question.true_false_correct },
      };
    case 'short_text':
      return {
        ...common,
        kind: 'short_text',
        shuffle_options: false,
        options: [],
        answer_key: {
          mode: question.short_mode,
          accepted: [...new Set(question.short_accepted.map((text) => text.trim()).filter(Boolean))],
          case_sensitive: question.short_case_sensitive,
        },
      };
    case 'numeric':
      return {
        ...common,
        kind: 'numeric',
        shuffle_options: false,
        options: [],
        answer_key: {
          value: parseNumber(question.numeric_value) ?? 0,
          tolerance: parseNumber(question.numeric_tolerance) ?? 0,
        },
      };
  }
}

function reviewAt(preset: ReviewPreset, at: string, opens: string | null, closes: string | null) {
  if (preset === 'after_submission') return opens;
  if (preset === 'after_closing') return closes;
  if (preset === 'on_date') return fromLocalInput(at);
  return null;
}

/** The window of the quiz in this course, as `quiz-courses` takes it. */
export function toQuizCourseDates(values: QuizFormValues) {
  const opens = fromLocalInput(values.opens_at);
  const closes = fromLocalInput(values.closes_at);
  return {
    opens_at: opens ?? '',
    closes_at: closes ?? '',
    time_limit_minutes: values.time_limit === '' ? null : values.time_limit,
    scores_visible_at: reviewAt(values.scores_preset, values.scores_at, opens, closes),
    answers_visible_at: reviewAt(values.answers_preset, values.answers_at, opens, closes),
  };
}

export function toQuizCreate(values: QuizFormValues, courseId: number): QuizCreate {
  const course: QuizCourseInput = { course_id: courseId, ...toQuizCourseDates(values) };
  return {
    title: values.title.trim(),
    description: values.description,
    questions: values.questions.map(toQuestionInput),
    courses: [course],
  };
}
