import { z } from 'zod';
import { Id, PageQuery, paginated, text } from './common.ts';
import { UserSummary } from './users.ts';

/* Limits of quizzes (docs/quizzes.md explains the choices). */
export const MAX_QUESTIONS = 200;
export const MAX_OPTIONS = 20;
export const MAX_SHORT_TEXT_ANSWER = 500;
export const MAX_ACCEPTED_ANSWERS = 20;
/** Seconds after the time limit (or the closing time) a submission sent on time may take to arrive. */
export const QUIZ_GRACE_SECONDS = 30;

export const QUESTION_KINDS = [
  'single',
  'multiple',
  'true_false',
  'short_text',
  'numeric',
  'ordering',
] as const;
export const QuestionKind = z.enum(QUESTION_KINDS);
export type QuestionKind = z.infer<typeof QuestionKind>;

const IsoDate = z.iso.datetime({ offset: true });
const Markdown = (max: number) => z.string().max(max);

/** An option of a choice or ordering question. `id` is chosen by the editor's page ('a', 'b', …). */
export const QuestionOption = z.strictObject({
  id: z
    .string()
    .min(1)
    .max(20)
    .regex(/^[A-Za-z0-9_-]+$/, 'Letters, digits, "_" and "-".'),
  text: z.string().trim().min(1).max(2000),
});
export type QuestionOption = z.infer<typeof QuestionOption>;

/**
 * The answer key of each kind. `short_text` patterns are wildcards: `*` stands for any characters
 * (never regular expressions, which an editor could write to hang the server).
 */
export const AnswerKeySingle = z.strictObject({ correct: z.string().min(1).max(20) });
export const AnswerKeyMultiple = z.strictObject({
  correct: z.array(z.string().min(1).max(20)).min(1).max(MAX_OPTIONS),
});
export const AnswerKeyTrueFalse = z.strictObject({ correct: z.boolean() });
export const AnswerKeyShortText = z.strictObject({
  mode: z.enum(['exact', 'pattern']),
  accepted: z.array(z.string().trim().min(1).max(MAX_SHORT_TEXT_ANSWER)).min(1).max(MAX_ACCEPTED_ANSWERS),
  case_sensitive: z.boolean(),
});
export const AnswerKeyNumeric = z.strictObject({
  value: z.number().finite(),
  /** Absolute: an answer within value ± tolerance is correct. */
  tolerance: z.number().finite().min(0),
});
export const AnswerKeyOrdering = z.strictObject({
  order: z.array(z.string().min(1).max(20)).min(2).max(MAX_OPTIONS),
});

const questionInputCommon = {
  prompt: text(20_000),
  points: z.number().int().min(0).max(1000).default(1),
  shuffle_options: z.boolean().default(false),
  explanation: Markdown(20_000).default(''),
};

/**
 * A question as an editor writes it. The service checks that keys name existing options, that an
 * ordering key is a permutation of its options, and that choice questions have at least two options.
 */
export const QuestionInput = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('single'),
    ...questionInputCommon,
    options: z.array(QuestionOption).min(2).max(MAX_OPTIONS),
    answer_key: AnswerKeySingle,
  }),
  z.strictObject({
    kind: z.literal('multiple'),
    ...questionInputCommon,
    options: z.array(QuestionOption).min(2).max(MAX_OPTIONS),
    answer_key: AnswerKeyMultiple,
  }),
  z.strictObject({
    kind: z.literal('true_false'),
    ...questionInputCommon,
    options: z.array(QuestionOption).max(0).default([]),
    answer_key: AnswerKeyTrueFalse,
  }),
  z.strictObject({
    kind: z.literal('short_text'),
    ...questionInputCommon,
    options: z.array(QuestionOption).max(0).default([]),
    answer_key: AnswerKeyShortText,
  }),
  z.strictObject({
    kind: z.literal('numeric'),
    ...questionInputCommon,
    options: z.array(QuestionOption).max(0).default([]),
    answer_key: AnswerKeyNumeric,
  }),
  z.strictObject({
    kind: z.literal('ordering'),
    ...questionInputCommon,
    options: z.array(QuestionOption).min(2).max(MAX_OPTIONS),
    answer_key: AnswerKeyOrdering,
  }),
]);
export type QuestionInput = z.infer<typeof QuestionInput>;

export const AnswerKey = z.union([
  AnswerKeySingle,
  AnswerKeyMultiple,
  AnswerKeyTrueFalse,
  AnswerKeyShortText,
  AnswerKeyNumeric,
  AnswerKeyOrdering,
]);
export type AnswerKey = z.infer<typeof AnswerKey>;

const questionCommon = {
  id: z.number().int(),
  position: z.number().int(),
  kind: QuestionKind,
  /** Markdown. */
  prompt: z.string(),
  points: z.number().int(),
  /** In the order this caller sees them: shuffled per student when `shuffle_options`. */
  options: z.array(z.object({ id: z.string(), text: z.string() })),
};

/**
 * Role- and time-shaped questions: editors get the key; a student before review opens gets the
 * `student` view, whose schema has no key or explanation, so neither can leak; `review` adds both.
 */
export const QuestionEditorView = z
  .object({
    view: z.literal('editor'),
    ...questionCommon,
    shuffle_options: z.boolean(),
    answer_key: AnswerKey,
    explanation: z.string(),
  })
  .meta({ id: 'QuestionEditorView' });
export const QuestionStudentView = z
  .object({ view: z.literal('student'), ...questionCommon })
  .meta({ id: 'QuestionStudentView' });
export const QuestionReviewView = z
  .object({ view: z.literal('review'), ...questionCommon, answer_key: AnswerKey, explanation: z.string() })
  .meta({ id: 'QuestionReviewView' });
export const Question = z.discriminatedUnion('view', [
  QuestionEditorView,
  QuestionStudentView,
  QuestionReviewView,
]);
export type Question = z.infer<typeof Question>;

/* ─── Quiz courses ─────────────────────────────────────────────────────────────────────────── */

export const QuizState = z.enum(['upcoming', 'open', 'closed']);
export type QuizState = z.infer<typeof QuizState>;

/** A quiz given to a course (`quiz-courses/`). */
export const QuizCourse = z
  .object({
    id: z.number().int(),
    quiz_id: z.number().int(),
    quiz_title: z.string(),
    course_id: z.number().int(),
    course_title: z.string(),
    opens_at: z.iso.datetime(),
    closes_at: z.iso.datetime(),
    /** Minutes from the student's start; null: only `closes_at` limits them. */
    time_limit_minutes: z.number().int().nullable(),
    /** From then a student who submitted sees their score; null: not yet decided (hidden). */
    scores_visible_at: z.iso.datetime().nullable(),
    /** From then they see correct answers and explanations too; null: hidden. */
    answers_visible_at: z.iso.datetime().nullable(),
    state: QuizState,
  })
  .meta({ id: 'QuizCourse' });
export type QuizCourse = z.infer<typeof QuizCourse>;

const quizCourseDates = {
  opens_at: IsoDate,
  closes_at: IsoDate,
  time_limit_minutes: z
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .nullable()
    .default(null),
  scores_visible_at: IsoDate.nullable().default(null),
  answers_visible_at: IsoDate.nullable().default(null),
};
const closesAfterOpens = <T extends { opens_at?: string; closes_at?: string }>(c: T) =>
  c.opens_at === undefined || c.closes_at === undefined || Date.parse(c.closes_at) > Date.parse(c.opens_at);
const closesMessage = { message: 'The closing time must be after the opening time.', path: ['closes_at'] };

/** The course's window of a quiz, given when the quiz is created. */
export const QuizCourseInput = z
  .strictObject({ course_id: Id, ...quizCourseDates })
  .refine(closesAfterOpens, closesMessage);
export type QuizCourseInput = z.infer<typeof QuizCourseInput>;

/** `POST quiz-courses/`: give an existing quiz to another course. */
export const QuizCourseCreate = z
  .strictObject({ quiz: Id, course: Id, ...quizCourseDates })
  .refine(closesAfterOpens, closesMessage);
export type QuizCourseCreate = z.infer<typeof QuizCourseCreate>;
/** `PATCH quiz-courses/{id}/`: any of the dates; the service checks the merged window. */
export const QuizCourseUpdate = z
  .strictObject({
    opens_at: IsoDate,
    closes_at: IsoDate,
    time_limit_minutes: z
      .number()
      .int()
      .min(1)
      .max(24 * 60)
      .nullable(),
    scores_visible_at: IsoDate.nullable(),
    answers_visible_at: IsoDate.nullable(),
  })
  .partial();
export type QuizCourseUpdate = z.infer<typeof QuizCourseUpdate>;

export const QUIZ_COURSE_ORDERINGS = [
  'opens_at',
  '-opens_at',
  'closes_at',
  '-closes_at',
  'id',
  '-id',
] as const;
export const QuizCourseListQuery = PageQuery.extend({
  course: Id.optional(),
  ordering: z.enum(QUIZ_COURSE_ORDERINGS).default('opens_at'),
});
export type QuizCourseListQuery = z.infer<typeof QuizCourseListQuery>;
export const QuizCourseList = paginated(QuizCourse);

/* ─── Quizzes ──────────────────────────────────────────────────────────────────────────────── */

const quizFields = {
  id: z.number().int(),
  title: z.string(),
  /** Markdown. */
  description: z.string(),
  created_by: z.number().int().nullable(),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
  question_count: z.number().int(),
  total_points: z.number().int(),
  /** The courses of the quiz the caller sees (students: theirs, opened or upcoming). */
  courses: z.array(QuizCourse),
};

/** Managers (staff, editors of one of its courses, its author) get the questions with their keys. */
export const QuizEditorView = z
  .object({
    view: z.literal('editor'),
    ...quizFields,
    questions: z.array(QuestionEditorView),
    /** Once anyone submitted, the questions are locked (409 on change) so stored scores stay true. */
    submission_count: z.number().int(),
  })
  .meta({ id: 'QuizEditorView' });
export const QuizStudentView = z
  .object({ view: z.literal('student'), ...quizFields })
  .meta({ id: 'QuizStudentView' });
export const Quiz = z.discriminatedUnion('view', [QuizEditorView, QuizStudentView]);
export type Quiz = z.infer<typeof Quiz>;

export const QuizCreate = z.strictObject({
  title: text(200),
  description: Markdown(100_000).default(''),
  questions: z.array(QuestionInput).min(1).max(MAX_QUESTIONS),
  courses: z
    .array(QuizCourseInput)
    .min(1)
    .max(50)
    .refine(
      (list) => new Set(list.map((c) => c.course_id)).size === list.length,
      'A course is listed twice.',
    ),
});
export type QuizCreate = z.infer<typeof QuizCreate>;
/** PUT: title, description and the whole question list (courses through `quiz-courses/`). */
export const QuizReplace = z.strictObject({
  title: text(200),
  description: Markdown(100_000),
  questions: z.array(QuestionInput).min(1).max(MAX_QUESTIONS),
});
export type QuizReplace = z.infer<typeof QuizReplace>;
/** PATCH: any of them; `questions` replaces the list (refused with 409 once anyone submitted). */
export const QuizUpdate = QuizReplace.partial();
export type QuizUpdate = z.infer<typeof QuizUpdate>;

export const QUIZ_ORDERINGS = ['id', '-id', 'title', '-title', 'created_at', '-created_at'] as const;
/** `Quiz/` and `quizzes/`; `courses`: comma-separated course ids. */
export const QuizListQuery = PageQuery.extend({
  courses: z
    .string()
    .regex(/^\d+(,\d+)*$/, 'Comma-separated course ids.')
    .max(1000)
    .optional(),
  search: z.string().trim().max(100).optional(),
  ordering: z.enum(QUIZ_ORDERINGS).default('-created_at'),
});
export type QuizListQuery = z.infer<typeof QuizListQuery>;
export const QuizList = paginated(Quiz);
export type QuizList = z.infer<typeof QuizList>;

const BoolQuery = z.enum(['true', 'false']).transform((v) => v === 'true');

export const QuizCourseSpecificQuery = z.object({
  course_id: Id,
  hide_submitted: BoolQuery.default(false),
  search: z.string().trim().max(100).optional(),
  ordering: z
    .enum(['opens_at', '-opens_at', 'closes_at', '-closes_at', 'title', '-title'])
    .default('closes_at'),
});
export type QuizCourseSpecificQuery = z.infer<typeof QuizCourseSpecificQuery>;
export const QuizContentQuery = z.object({ course_id: Id });

export const QuizSubmissionStatus = z.enum(['in_progress', 'submitted']);
export type QuizSubmissionStatus = z.infer<typeof QuizSubmissionStatus>;

/** The caller's own attempt, as the quiz list and detail show it. */
export const MyQuizSubmission = z.object({
  id: z.number().int(),
  status: QuizSubmissionStatus,
  started_at: z.iso.datetime(),
  submitted_at: z.iso.datetime().nullable(),
  /** The last moment an answer is accepted (time limit or closing time, whichever is first). */
  deadline: z.iso.datetime(),
  /** Null until scores are visible to the caller. */
  score: z.number().int().nullable(),
});
export type MyQuizSubmission = z.infer<typeof MyQuizSubmission>;

/** One quiz in one course (`Quiz/CourseSpecific/` rows and `CourseSpecificDetail`). */
export const QuizInCourse = z
  .object({
    quiz_course: QuizCourse,
    quiz_id: z.number().int(),
    title: z.string(),
    description: z.string(),
    question_count: z.number().int(),
    total_points: z.number().int(),
    my_submission: MyQuizSubmission.nullable(),
    scores_visible: z.boolean(),
    answers_visible: z.boolean(),
    can_edit: z.boolean(),
    /** Editors and staff: how many students submitted; null for students. */
    submitted_students: z.number().int().nullable(),
  })
  .meta({ id: 'QuizInCourse' });
export type QuizInCourse = z.infer<typeof QuizInCourse>;
export const QuizInCourseList = z.object({ count: z.number().int(), results: z.array(QuizInCourse) });

/** `QuizContent`: the questions to answer (or review), shaped for the caller and the moment. */
export const QuizContent = z.object({
  quiz_course: QuizCourse,
  title: z.string(),
  description: z.string(),
  questions: z.array(Question),
  my_submission: MyQuizSubmission.nullable(),
});
export type QuizContent = z.infer<typeof QuizContent>;

/* ─── Submissions ──────────────────────────────────────────────────────────────────────────── */

/**
 * A student's answer: an option id (`single`), option ids (`multiple`; `ordering`, every option once,
 * in order), a boolean (`true_false`), text (`short_text`) or a number (`numeric`). Null: unanswered.
 */
export const AnswerValue = z.union([
  z.string().max(MAX_SHORT_TEXT_ANSWER),
  z.array(z.string().max(20)).max(MAX_OPTIONS),
  z.boolean(),
  z.number().finite(),
  z.null(),
]);
export type AnswerValue = z.infer<typeof AnswerValue>;

export const SubmitQuizRequest = z.strictObject({
  quiz_course: Id,
  answers: z
    .array(z.strictObject({ question: Id, answer: AnswerValue }))
    .max(MAX_QUESTIONS)
    .refine(
      (list) => new Set(list.map((a) => a.question)).size === list.length,
      'A question is answered twice.',
    ),
});
export type SubmitQuizRequest = z.infer<typeof SubmitQuizRequest>;

/** `quiz-submissions/create/`: start (or resume) the caller's attempt; the time limit counts from here. */
export const QuizSubmissionCreate = z.strictObject({ quiz_course: Id });
export type QuizSubmissionCreate = z.infer<typeof QuizSubmissionCreate>;

export const QuizSubmission = z
  .object({
    id: z.number().int(),
    quiz_course_id: z.number().int(),
    quiz_id: z.number().int(),
    quiz_title: z.string(),
    course_id: z.number().int(),
    user: UserSummary,
    status: QuizSubmissionStatus,
    started_at: z.iso.datetime(),
    submitted_at: z.iso.datetime().nullable(),
    deadline: z.iso.datetime(),
    /** Null for a student until scores are visible. */
    score: z.number().int().nullable(),
    max_score: z.number().int(),
    scores_visible: z.boolean(),
    answers_visible: z.boolean(),
  })
  .meta({ id: 'QuizSubmission' });
export type QuizSubmission = z.infer<typeof QuizSubmission>;

export const QuizAnswerView = z.object({
  question_id: z.number().int(),
  answer: AnswerValue,
  /** Null for a student until scores are visible. */
  is_correct: z.boolean().nullable(),
  points: z.number().int().nullable(),
});
export type QuizAnswerView = z.infer<typeof QuizAnswerView>;

export const QuizSubmissionDetail = QuizSubmission.extend({
  /** `review` views (with keys and explanations) only once answers are visible to the caller. */
  questions: z.array(Question),
  answers: z.array(QuizAnswerView),
}).meta({ id: 'QuizSubmissionDetail' });
export type QuizSubmissionDetail = z.infer<typeof QuizSubmissionDetail>;

export const QuizSubmissionList = paginated(QuizSubmission);
export type QuizSubmissionList = z.infer<typeof QuizSubmissionList>;
/** `QuizSubmission/`. */
export const QuizSubmissionByQuizCourseQuery = PageQuery.extend({ quiz_course: Id.optional() });
/** `quiz-submissions/`. */
export const QuizSubmissionListQuery = PageQuery.extend({
  course: Id.optional(),
  created_by: Id.optional(),
  quiz: Id.optional(),
  quiz_course: Id.optional(),
});
export type QuizSubmissionListQuery = z.infer<typeof QuizSubmissionListQuery>;
export const QuizSubmissionCourseParams = z.object({ course_id: Id });
export const QuizSubmissionCourseUserParams = z.object({ course_id: Id, user_id: Id });

/* ─── Results for editors ──────────────────────────────────────────────────────────────────── */

export const QuestionResult = z.object({
  question_id: z.number().int(),
  position: z.number().int(),
  kind: QuestionKind,
  prompt: z.string(),
  points: z.number().int(),
  answered: z.number().int(),
  correct: z.number().int(),
  mean_points: z.number().nullable(),
  /** Mean fraction of the points earned (0–1); null without answers. */
  facility: z.number().nullable(),
  /** Choice and true/false questions: how often each option was chosen (`true`/`false` for true/false). */
  option_counts: z.array(z.object({ option_id: z.string(), text: z.string(), count: z.number().int() })),
});
export type QuestionResult = z.infer<typeof QuestionResult>;

/** `quiz-courses/{id}/results/`: per student and per question; `.../results/csv/` the same as CSV. */
export const QuizResults = z.object({
  quiz_course: QuizCourse,
  student_count: z.number().int(),
  submitted_count: z.number().int(),
  max_score: z.number().int(),
  mean_score: z.number().nullable(),
  median_score: z.number().nullable(),
  questions: z.array(QuestionResult),
  students: z.array(
    z.object({
      user: UserSummary,
      submission_id: z.number().int().nullable(),
      status: QuizSubmissionStatus.nullable(),
      submitted_at: z.iso.datetime().nullable(),
      score: z.number().int().nullable(),
    }),
  ),
});
export type QuizResults = z.infer<typeof QuizResults>;
