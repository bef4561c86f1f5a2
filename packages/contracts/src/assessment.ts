import { z } from 'zod';
import { Id, IsoDate, markdown, PageQuery, paginated, str, text } from './common.ts';
import { UserSummary } from './users.ts';

/* Assessment analysis: skills, per-student scores, class histograms, feedback and workshops (docs/assessment.md). */

/** A course has at most this many skills. */
export const MAX_SKILLS_PER_COURSE = 100;
/** Items one skill may be tagged on, of each kind. */
export const MAX_SKILL_ITEMS = 1000;
/** A workshop invites at most this many students. */
export const MAX_WORKSHOP_PARTICIPANTS = 1000;
/** Histograms have this many bins of equal width over 0–100 %; the last includes 100 %. */
export const HISTOGRAM_BINS = 10;

const SkillName = text(100).refine((name) => !name.includes('/'), 'A skill name may not contain "/".');
const SkillType = text(50);

/** Points earned over points that could be earned; `ratio` is null when nothing could be earned yet. */
export const Score = z.object({
  earned: z.number(),
  possible: z.number(),
  ratio: z.number().min(0).max(1).nullable(),
});
export type Score = z.infer<typeof Score>;

export const SkillItems = z.object({
  assignments: z.array(z.number().int()),
  test_cases: z.array(z.number().int()),
  quiz_questions: z.array(z.number().int()),
});
export type SkillItems = z.infer<typeof SkillItems>;

export const Skill = z
  .object({
    id: z.number().int(),
    course: z.number().int(),
    name: z.string(),
    skill_type: z.string(),
    description: z.string(),
    items: SkillItems,
  })
  .meta({ id: 'Skill' });
export type Skill = z.infer<typeof Skill>;

export const SkillList = z.object({ results: z.array(Skill) });
export type SkillList = z.infer<typeof SkillList>;

export const CourseQuery = z.object({ course: Id });

export const SkillCreate = z.strictObject({
  course: Id,
  name: SkillName,
  skill_type: SkillType,
  description: markdown(2000).default(''),
});
export type SkillCreate = z.infer<typeof SkillCreate>;

export const SkillUpdate = z.strictObject({
  name: SkillName.optional(),
  skill_type: SkillType.optional(),
  description: markdown(2000).optional(),
});
export type SkillUpdate = z.infer<typeof SkillUpdate>;

/** The items a skill is tagged on, replaced as a whole; each must belong to the skill's course. */
export const SkillItemsUpdate = z.strictObject({
  assignments: z.array(Id).max(MAX_SKILL_ITEMS),
  test_cases: z.array(Id).max(MAX_SKILL_ITEMS),
  quiz_questions: z.array(Id).max(MAX_SKILL_ITEMS),
});
export type SkillItemsUpdate = z.infer<typeof SkillItemsUpdate>;

/** What an editor may tag in a course: its assignments with their test cases, its quizzes with their questions. */
export const SkillCatalogue = z.object({
  assignments: z.array(
    z.object({
      id: z.number().int(),
      title: z.string(),
      test_cases: z.array(z.object({ id: z.number().int(), name: z.string(), points: z.number().int() })),
    }),
  ),
  quizzes: z.array(
    z.object({
      id: z.number().int(),
      title: z.string(),
      questions: z.array(
        z.object({
          id: z.number().int(),
          position: z.number().int(),
          prompt: z.string(),
          points: z.number().int(),
        }),
      ),
    }),
  ),
});
export type SkillCatalogue = z.infer<typeof SkillCatalogue>;

/** `Existence/Course/{course_id}`: whether the course has assessment analysis to show. */
export const AssessmentExistence = z.object({ data: z.boolean() });
export type AssessmentExistence = z.infer<typeof AssessmentExistence>;

const Column = z.object({
  id: z.number().int(),
  title: z.string(),
  /** The assignment's due date or the quiz's closing time in this course. */
  due_at: z.iso.datetime(),
  max_score: z.number(),
});

/** `{course_id}`: every student × skill, assignment and quiz; each row's arrays follow the column lists. */
export const AssessmentTable = z
  .object({
    course: z.number().int(),
    skills: z.array(z.object({ name: z.string(), skill_type: z.string() })),
    assignments: z.array(Column),
    quizzes: z.array(Column),
    students: z.array(
      z.object({
        user: UserSummary,
        total: Score,
        skills: z.array(Score),
        /** Points of the counted submission; null when it does not count yet (not due, nothing graded). */
        assignments: z.array(z.number().nullable()),
        quizzes: z.array(z.number().nullable()),
      }),
    ),
  })
  .meta({ id: 'AssessmentTable' });
export type AssessmentTable = z.infer<typeof AssessmentTable>;

export const StudentAnalysisQuery = z.object({ skill_type: SkillType.optional() });

/** `{course_id}/{user_id}`: one student's skills (of one type when asked), and their trend over the work. */
export const StudentAnalysis = z
  .object({
    course: z.number().int(),
    user: UserSummary,
    skill_types: z.array(z.string()),
    total: Score,
    skills: z.array(z.object({ name: z.string(), skill_type: z.string(), score: Score })),
    /** In order of due date: the student's points, or null while it does not count. */
    assignments: z.array(Column.extend({ score: z.number().nullable() })),
    quizzes: z.array(Column.extend({ score: z.number().nullable() })),
  })
  .meta({ id: 'StudentAnalysis' });
export type StudentAnalysis = z.infer<typeof StudentAnalysis>;

/** The class's distribution of one result: counts only, never who; `mine` is the student's bin. */
export const Histogram = z
  .object({
    bins: z.array(z.object({ from: z.number(), to: z.number(), count: z.number().int() })),
    /** Index of the student's bin, or null when their result does not count. */
    mine: z.number().int().nullable(),
    my_ratio: z.number().nullable(),
    /** Students whose result counts. */
    students: z.number().int(),
    mean: z.number().nullable(),
  })
  .meta({ id: 'Histogram' });
export type Histogram = z.infer<typeof Histogram>;

export const StudentParams = z.object({ course_id: Id, user_id: Id });
export const AssignmentHistogramParams = StudentParams.extend({ assignment_id: Id });
export const SkillHistogramParams = StudentParams.extend({ skill_name: str().min(1).max(100) });

export const ParticipantQuery = PageQuery.extend({ course: Id, user: Id.optional() });
export type ParticipantQuery = z.infer<typeof ParticipantQuery>;

export const Feedback = z
  .object({
    id: z.number().int(),
    course: z.number().int(),
    user: z.number().int(),
    skill: z.string().nullable(),
    author: UserSummary.nullable(),
    body: z.string(),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: 'Feedback' });
export type Feedback = z.infer<typeof Feedback>;
export const FeedbackList = paginated(Feedback);
export type FeedbackList = z.infer<typeof FeedbackList>;

export const FeedbackCreate = z.strictObject({
  course: Id,
  user: Id,
  skill: Id.nullable().default(null),
  body: text(5000),
});
export type FeedbackCreate = z.infer<typeof FeedbackCreate>;
export const FeedbackUpdate = z.strictObject({ body: text(5000) });

export const WORKSHOP_STATUSES = ['invited', 'attended', 'absent'] as const;
export const WorkshopStatus = z.enum(WORKSHOP_STATUSES);
export type WorkshopStatus = z.infer<typeof WorkshopStatus>;

export const Workshop = z
  .object({
    id: z.number().int(),
    course: z.number().int(),
    skill: z.string().nullable(),
    skill_id: z.number().int().nullable(),
    title: z.string(),
    description: z.string(),
    location: z.string(),
    starts_at: z.iso.datetime(),
    ends_at: z.iso.datetime(),
    /** Editors and staff see everyone; a student only themself. */
    participants: z.array(z.object({ user: UserSummary, status: WorkshopStatus })),
  })
  .meta({ id: 'Workshop' });
export type Workshop = z.infer<typeof Workshop>;
export const WorkshopList = paginated(Workshop);
export type WorkshopList = z.infer<typeof WorkshopList>;

const Participants = z
  .array(z.strictObject({ user: Id, status: WorkshopStatus }))
  .max(MAX_WORKSHOP_PARTICIPANTS);

const WorkshopFields = {
  skill: Id.nullable(),
  title: text(200),
  description: markdown(5000),
  location: str().trim().normalize('NFC').max(200),
  starts_at: IsoDate,
  ends_at: IsoDate,
  participants: Participants,
};

export const WorkshopCreate = z
  .strictObject({
    course: Id,
    ...WorkshopFields,
    skill: WorkshopFields.skill.default(null),
    description: WorkshopFields.description.default(''),
    location: WorkshopFields.location.default(''),
    participants: Participants.default([]),
  })
  .refine((w) => Date.parse(w.ends_at) > Date.parse(w.starts_at), {
    path: ['ends_at'],
    message: 'A workshop ends after it starts.',
  });
export type WorkshopCreate = z.infer<typeof WorkshopCreate>;
export const WorkshopUpdate = z.strictObject(WorkshopFields).partial();
export type WorkshopUpdate = z.infer<typeof WorkshopUpdate>;
