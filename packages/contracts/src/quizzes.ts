import { z } from 'zod';
import { BoolQuery, Id, IsoDate, markdown, PageQuery, paginated, str, text } from './common.ts';
import { UserSummary } from './users.ts';
import {
  MAX_OPTIONS,
  MAX_QUESTIONS,
  MAX_SHORT_TEXT_ANSWER,
  Question,
  QuestionEditorView,
  QuestionInput,
  QuestionKind,
} from './quiz-questions.ts';

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
    /**
     * The closing time and time limit are the caller's own, from an extension (docs/extensions.md): a
     * later close, minutes added to the limit.
     */
    extended: z.boolean(),
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
/** `PATCH quiz-courses/{id}/`: one or more of the dates; the service checks the merged window. */
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
  description: markdown(100_000).default(''),
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
  description: markdown(100_000),
  questions: z.array(QuestionInput).min(1).max(MAX_QUESTIONS),
});
export type QuizReplace = z.infer<typeof QuizReplace>;
/** PATCH: one or more of them; `questions` replaces the list (refused with 409 once anyone submitted). */
export const QuizUpdate = QuizReplace.partial();
export type QuizUpdate = z.infer<typeof QuizUpdate>;

export const QUIZ_ORDERINGS = ['id', '-id', 'title', '-title', 'created_at', '-created_at'] as const;
/** `Quiz/` and `quizzes/`; `courses`: comma-separated course ids. */
export const QuizListQuery = PageQuery.extend({
  courses: str()
    .regex(/^\d+(,\d+)*$/, 'Comma-separated course ids.')
    .max(1000)
    .optional(),
  search: str().trim().normalize('NFC').max(100).optional(),
  ordering: z.enum(QUIZ_ORDERINGS).default('-created_at'),
});
export type QuizListQuery = z.infer<typeof QuizListQuery>;
export const QuizList = paginated(Quiz);
export type QuizList = z.infer<typeof QuizList>;

export const QuizCourseSpecificQuery = z.object({
  course_id: Id,
  hide_submitted: BoolQuery.default(false),
  search: str().trim().normalize('NFC').max(100).optional(),
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
  str().max(MAX_SHORT_TEXT_ANSWER),
  z.array(str().max(20)).max(MAX_OPTIONS),
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
