import {
  createCourse,
  createUser,
  addEditor,
  addStudent,
  tokenFor,
  type TestUser,
} from '../../../test/factories.ts';
import type { TestApp } from '../../../test/harness.ts';
import { forumSearchVector } from '../forum/search.ts';
import { seedSignInRows } from './testing-sign-in.ts';

/**
 * Marks only the person's own data carries: after an erasure none of them may be left in the
 * database (privacy.test.ts searches every table for them).
 */
export const MARKS = {
  firstName: 'Zebulon',
  lastName: 'Quimbyfrost',
  forumText: 'marmalade-otter-9431',
  code: 'print("zq-secret-code")\n',
  output: 'zq-program-output',
  institutionalId: 's-zq-77001',
};

/**
 * A world where the person has at least one row in every table that references users, as the row's
 * subject (their submission, their session) and as its actor (an assignment they created, an
 * extension they granted): a student of course A and an editor of course B. `other` is another
 * student of both, `staff` a staff member. Returns what the tests look at.
 */
export async function createPersonalDataWorld(t: TestApp) {
  const q = async (text: string, values: unknown[] = []) => (await t.database.query(text, values)).rows;
  const one = async (text: string, values: unknown[] = []): Promise<number> => {
    const [row] = await q(text, values);
    return Number(row?.id);
  };

  const courseA = await createCourse(t, { title: 'Privacy A' });
  const courseB = await createCourse(t, { title: 'Privacy B' });
  const person = await createUser(t, {
    email: `zq-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.test`,
    firstName: MARKS.firstName,
    lastName: MARKS.lastName,
  });
  const other = await createUser(t, { firstName: 'Olive', lastName: 'Other' });
  const staff = await createUser(t, { isStaff: true });
  await addStudent(t, courseA.id, person.id);
  await addEditor(t, courseB.id, person.id);
  await addStudent(t, courseA.id, other.id);
  await addStudent(t, courseB.id, other.id);
  const p = person.id;
  const o = other.id;
  const a = courseA.id;
  const b = courseB.id;

  await seedSignInRows(t, {
    person,
    institutionalId: MARKS.institutionalId,
    other: o,
    courseA: a,
    courseB: b,
  });

  // Mail and notifications: theirs, and another person's that names them.
  await q(
    `INSERT INTO email_outbox (kind, to_address, to_user_id, lang, subject, text_body, status)
     VALUES ('invitation', $1, $2, 'ja', 'Welcome', $3, 'kept')`,
    [person.email, p, `Dear ${MARKS.firstName}`],
  );
  await q(
    `INSERT INTO notifications (user_id, course_id, kind, event_key, link, facts)
     VALUES ($1, $2, 'announcement', $3, '/course', '{"title": "Hello"}')`,
    [p, a, `a:${p}`],
  );
  await q(
    `INSERT INTO notifications (user_id, course_id, kind, event_key, link, facts)
     VALUES ($1, $2, 'forum_reply', $3, '/course', $4)`,
    [o, a, `r:${p}`, JSON.stringify({ actor: { first_name: MARKS.firstName, last_name: MARKS.lastName } })],
  );
  await q(`INSERT INTO notification_profiles (user_id) VALUES ($1)`, [p]);
  await q(`INSERT INTO notification_mutes (user_id, course_id) VALUES ($1, $2)`, [p, a]);

  // Assignments: one of course A they submit to, one of course B they made.
  const assignment = await one(
    `INSERT INTO assignments (title, created_by) VALUES ('Sum', $1) RETURNING id`,
    [o],
  );
  const own = await one(
    `INSERT INTO assignments (title, created_by) VALUES ('Made by them', $1) RETURNING id`,
    [p],
  );
  await q(
    `INSERT INTO assignment_courses (assignment_id, course_id, opens_at, due_at)
     VALUES ($1, $2, now() - interval '2 days', now() + interval '2 days'), ($3, $4, now(), now() + interval '2 days')`,
    [assignment, a, own, b],
  );
  await q(
    `INSERT INTO assignment_files (assignment_id, filename, storage_key, size, content_type, created_by)
     VALUES ($1, 'data.txt', $2, 1, 'text/plain', $3)`,
    [own, `assignments/${own}/x`, p],
  );
  const visibleTest = await one(
    `INSERT INTO test_cases (assignment_id, name, kind, visibility, stdin, expected_stdout)
     VALUES ($1, 'visible one', 'io', 'visible', '1 2', '3') RETURNING id`,
    [assignment],
  );
  const hiddenTest = await one(
    `INSERT INTO test_cases (assignment_id, name, kind, visibility, stdin, expected_stdout)
     VALUES ($1, 'hidden one', 'io', 'hidden', 'hidden-input-42', 'hidden-expected-42') RETURNING id`,
    [assignment],
  );
  const submission = await one(
    `INSERT INTO submissions (assignment_id, course_id, user_id, status, score, max_score, is_final, graded_at)
     VALUES ($1, $2, $3, 'Completed', 1, 2, true, now()) RETURNING id`,
    [assignment, a, p],
  );
  const otherSubmission = await one(
    `INSERT INTO submissions (assignment_id, course_id, user_id, status, score, max_score, graded_at)
     VALUES ($1, $2, $3, 'Completed', 2, 2, now()) RETURNING id`,
    [assignment, a, o],
  );
  await q(
    `INSERT INTO submission_files (submission_id, filename, content, size) VALUES ($1, 'main.py', $2, $3)`,
    [submission, Buffer.from(MARKS.code), MARKS.code.length],
  );
  await q(
    `INSERT INTO evaluations (submission_id, test_case_id, status, points, stdout)
     VALUES ($1, $2, 'Correct', 1, $4), ($1, $3, 'Wrong', 0, $4)`,
    [submission, visibleTest, hiddenTest, MARKS.output],
  );
  await q(
    `INSERT INTO evaluations (submission_id, test_case_id, status, points, overridden_by, comment)
     VALUES ($1, $2, 'Correct', 1, $3, 'fine')`,
    [otherSubmission, visibleTest, p],
  );
  await q(`INSERT INTO precheck_runs (user_id, assignment_id) VALUES ($1, $2)`, [p, assignment]);
  await q(`INSERT INTO leaderboard_profiles (user_id, nickname) VALUES ($1, $2)`, [p, `zq-${p}`]);
  await q(`INSERT INTO submit_keys (user_id, key, request_hash, submission_id) VALUES ($1, 'k1', 'h', $2)`, [
    p,
    submission,
  ]);
  await q(`INSERT INTO snippet_runs (user_id) VALUES ($1)`, [p]);
  await q(
    `INSERT INTO similarity_reports (assignment_id, course_id, requested_by, status) VALUES ($1, $2, $3, 'done'),
       ($4, $5, $3, 'done')`,
    [assignment, a, o, own, b],
  );
  await q(`UPDATE similarity_reports SET requested_by = $1 WHERE assignment_id = $2`, [p, own]);

  // Review: a released one of their submission, one they graded, an audit, a regrade both ways.
  const rubricItem = await one(
    `INSERT INTO rubric_items (assignment_id, title, points, position) VALUES ($1, 'Style', 1, 0) RETURNING id`,
    [assignment],
  );
  const review = await one(
    `INSERT INTO reviews (submission_id, assignment_id, course_id, user_id, status, comment, grader_id, graded_at, released_at, released_by)
     VALUES ($1, $2, $3, $4, 'graded', 'Good work', $5, now(), now(), $5) RETURNING id`,
    [submission, assignment, a, p, o],
  );
  const theirReview = await one(
    `INSERT INTO reviews (submission_id, assignment_id, course_id, user_id, status, grader_id, released_by)
     VALUES ($1, $2, $3, $4, 'draft', $5, $5) RETURNING id`,
    [otherSubmission, assignment, a, o, p],
  );
  await q(`INSERT INTO review_items (review_id, rubric_item_id) VALUES ($1, $2)`, [review, rubricItem]);
  const thread = await one(
    `INSERT INTO review_comments (review_id, author_id, filename, line_start, line_end, body)
     VALUES ($1, $2, 'main.py', 1, 1, 'Look here') RETURNING id`,
    [review, o],
  );
  await q(
    `INSERT INTO review_comments (review_id, parent_id, author_id, filename, line_start, line_end, body)
     VALUES ($1, $2, $3, 'main.py', 1, 1, 'My reply')`,
    [review, thread, p],
  );
  await q(
    `INSERT INTO saved_comments (course_id, title, body, created_by) VALUES ($1, 'Tip', 'Use names', $2)`,
    [b, p],
  );
  await q(
    `INSERT INTO regrade_requests (review_id, course_id, user_id, comment_id, reason) VALUES ($1, $2, $3, $4, 'Please look')`,
    [review, a, p, thread],
  );
  await q(
    `INSERT INTO regrade_requests (review_id, course_id, user_id, rubric_item_id, reason, status, answer, answered_by, answered_at)
     VALUES ($1, $2, $3, $4, 'other asks', 'answered', 'No', $5, now())`,
    [theirReview, a, o, rubricItem, p],
  );
  await q(
    `INSERT INTO review_audit (course_id, assignment_id, submission_id, actor_id, actor_email, action)
     VALUES ($1, $2, $3, $4, $5, 'comment_replied'), ($1, $2, $3, $6, 'other@example.test', 'graded')`,
    [a, assignment, submission, p, person.email, o],
  );

  // Extensions: one they got, one they granted.
  await q(
    `INSERT INTO assignment_extensions (assignment_id, course_id, user_id, due_at, reason, granted_by)
     VALUES ($1, $2, $3, now() + interval '5 days', 'ill', $4), ($5, $6, $4, now() + interval '5 days', 'trip', $3)`,
    [assignment, a, p, o, own, b],
  );
  await q(
    `INSERT INTO extension_audit (course_id, kind, item_id, item_title, user_id, user_email, action, reason, actor_id, actor_email)
     VALUES ($1, 'assignment', $2, 'Sum', $3, $4, 'granted', 'ill', $5, 'other@example.test'),
            ($6, 'assignment', $7, 'Made by them', $5, 'other@example.test', 'granted', 'trip', $3, $4)`,
    [a, assignment, p, person.email, o, b, own],
  );

  // Quizzes: scores shown in one, not yet in the other; one they made.
  const quiz = await one(`INSERT INTO quizzes (title, created_by) VALUES ('Quiz', $1) RETURNING id`, [o]);
  await q(`INSERT INTO quizzes (title, created_by) VALUES ('Their quiz', $1)`, [p]);
  const question = await one(
    `INSERT INTO quiz_questions (quiz_id, kind, prompt, answer_key, options)
     VALUES ($1, 'single', 'Pick one', '{"option": "x-answer-key"}', '[{"id": "a", "text": "A"}]') RETURNING id`,
    [quiz],
  );
  const shown = await one(
    `INSERT INTO quiz_courses (quiz_id, course_id, opens_at, closes_at, scores_visible_at)
     VALUES ($1, $2, now() - interval '2 days', now() - interval '1 day', now() - interval '1 hour') RETURNING id`,
    [quiz, a],
  );
  const openQuiz = await one(
    `INSERT INTO quizzes (title, created_by) VALUES ('Open quiz', $1) RETURNING id`,
    [o],
  );
  const open = await one(
    `INSERT INTO quiz_courses (quiz_id, course_id, opens_at, closes_at)
     VALUES ($1, $2, now() - interval '1 day', now() + interval '1 day') RETURNING id`,
    [openQuiz, a],
  );
  for (const quizCourse of [shown, open]) {
    const attempt = await one(
      `INSERT INTO quiz_submissions (quiz_course_id, user_id, submitted_at, score, max_score)
       VALUES ($1, $2, now(), 1, 1) RETURNING id`,
      [quizCourse, p],
    );
    await q(
      `INSERT INTO quiz_answers (submission_id, question_id, answer, is_correct, points) VALUES ($1, $2, '"a"', true, 1)`,
      [attempt, question],
    );
  }
  await q(
    `INSERT INTO quiz_extensions (quiz_course_id, user_id, extra_minutes, reason, granted_by) VALUES ($1, $2, 10, 'ill', $3),
       ($4, $3, 10, 'trip', $2)`,
    [open, p, o, open],
  );

  // Forum: their topic with an attachment, their comment on another's topic, a topic they edited.
  const vector = forumSearchVector('t', MARKS.forumText);
  const topic = await one(
    `INSERT INTO forum_records (course_id, author_id, title, content, published_at, search_vector)
     VALUES ($1, $2, $3, $4, now(), $5::tsvector) RETURNING id`,
    [a, p, `About ${MARKS.forumText}`, `I think ${MARKS.forumText}`, vector],
  );
  const otherTopic = await one(
    `INSERT INTO forum_records (course_id, author_id, title, content, published_at, search_vector, updated_by, upvotes)
     VALUES ($1, $2, 'Question', 'What?', now(), ''::tsvector, $3, 1) RETURNING id`,
    [a, o, p],
  );
  await q(
    `INSERT INTO forum_records (course_id, parent_id, author_id, content, published_at, search_vector)
     VALUES ($1, $2, $3, $4, now(), $5::tsvector)`,
    [a, otherTopic, p, `Reply ${MARKS.forumText}`, vector],
  );
  const attachmentKey = `forum/${a}/zq${p}`;
  await t.ctx.storage.put(attachmentKey, Buffer.from('attachment bytes'), 'text/plain');
  await q(
    `INSERT INTO forum_files (course_id, record_id, uploaded_by, storage_key, filename, size, content_type)
     VALUES ($1, $2, $3, $4, 'notes.txt', 16, 'text/plain')`,
    [a, topic, p, attachmentKey],
  );
  await q(`INSERT INTO forum_reads (user_id, record_id, course_id) VALUES ($1, $2, $3)`, [p, otherTopic, a]);
  await q(`INSERT INTO forum_upvotes (record_id, user_id) VALUES ($1, $2)`, [otherTopic, p]);

  // Videos and workbooks.
  const video = await one(
    `INSERT INTO videos (course_id, platform, external_id, name, duration_seconds) VALUES ($1, 'youtube', 'v1', 'Lecture', 60) RETURNING id`,
    [a],
  );
  await q(`INSERT INTO video_stats (user_id, video_id, course_id, watched_seconds) VALUES ($1, $2, $3, 30)`, [
    p,
    video,
    a,
  ]);
  await q(`INSERT INTO video_syncs (course_id, requested_by, status) VALUES ($1, $2, 'succeeded')`, [b, p]);
  const config = await one(
    `INSERT INTO workbook_configs (course_id, name, lifetime_minutes, max_extension_minutes, memory_mb, cpu_seconds, starter)
     VALUES ($1, 'Lab', 60, 30, 256, 60, '{"cells": []}') RETURNING id`,
    [a],
  );
  const notebook = await one(
    `INSERT INTO workbook_notebooks (user_id, course_id, config_id, name, content) VALUES ($1, $2, $3, 'Mine', '{"cells": []}') RETURNING id`,
    [p, a, config],
  );
  await q(
    `INSERT INTO workbook_sessions (user_id, course_id, config_id, notebook_id, status, expires_at, max_extension_minutes, memory_mb, cpu_seconds)
     VALUES ($1, $2, $3, $4, 'ended', now(), 30, 256, 60)`,
    [p, a, config, notebook],
  );

  // Calendar and assessment.
  await q(
    `INSERT INTO events (course_id, title, starts_at, ends_at, created_by) VALUES ($1, 'Lecture', now(), now() + interval '1 hour', $2)`,
    [b, p],
  );
  const skill = await one(
    `INSERT INTO skills (course_id, name, skill_type) VALUES ($1, 'Loops', 'programming') RETURNING id`,
    [a],
  );
  await q(
    `INSERT INTO assessment_feedback (course_id, user_id, skill_id, author_id, body) VALUES ($1, $2, $3, $4, 'Practise loops'),
       ($5, $4, null, $2, 'Well done')`,
    [a, p, skill, o, b],
  );
  const workshop = await one(
    `INSERT INTO workshops (course_id, title, starts_at, ends_at, created_by) VALUES ($1, 'Help', now(), now() + interval '1 hour', $2) RETURNING id`,
    [b, p],
  );
  await q(`INSERT INTO workshop_participants (workshop_id, user_id) VALUES ($1, $2)`, [workshop, o]);
  const attended = await one(
    `INSERT INTO workshops (course_id, title, starts_at, ends_at, created_by) VALUES ($1, 'Loops', now(), now() + interval '1 hour', $2) RETURNING id`,
    [a, o],
  );
  await q(`INSERT INTO workshop_participants (workshop_id, user_id) VALUES ($1, $2)`, [attended, p]);

  // Privacy itself: an old export of theirs with its zip, and an erasure they did.
  const oldZipKey = `exports/${p}/old${p}`;
  await t.ctx.storage.put(oldZipKey, Buffer.from('old zip'), 'application/zip');
  await q(
    `INSERT INTO data_exports (user_id, status, storage_key, size, finished_at, expires_at)
     VALUES ($1, 'ready', $2, 7, now(), now() + interval '1 day')`,
    [p, oldZipKey],
  );
  const erased = await createUser(t);
  await q(
    `INSERT INTO user_erasures (user_id, pseudonym, actor_id, actor_email, kept_grades, forum_text)
     VALUES ($1, $2, $3, $4, true, 'replace')`,
    [erased.id, `Erased user ${erased.id}`, p, person.email],
  );

  return {
    person,
    other,
    staff: staff as TestUser,
    courseA,
    courseB,
    submission,
    otherTopic,
    attachmentKey,
    oldZipKey,
    tokens: {
      person: await tokenFor(t, person),
      other: await tokenFor(t, other),
      staff: await tokenFor(t, staff),
    },
  };
}
export type PersonalDataWorld = Awaited<ReturnType<typeof createPersonalDataWorld>>;
