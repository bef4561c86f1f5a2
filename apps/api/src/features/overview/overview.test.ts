import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EditorCourseOverview,
  OVERVIEW_SECTION_LIMIT,
  StudentCourseOverview,
  type ForumRecord,
} from '@kadai/contracts';
import { call, createTestApp, type TestApp } from '../../../test/harness.ts';
import { addEditor, addStudent, createCourse, createUser, tokenFor } from '../../../test/factories.ts';
import { workbookNotebooks, workbookSessions } from '../../db/schema-workbooks.ts';
import { hoursFromNow, insertAssignment, insertSubmission } from '../assignments/testing.ts';
import { insertEvent } from '../events/testing.ts';
import { postRecord } from '../forum/testing.ts';
import { insertAttempt, insertQuiz } from '../quizzes/testing.ts';
import { insertConfig, STARTER } from '../workbooks/testing.ts';

const DAY = 24;

/**
 * One course seen by each role: a student gets their due work, open quizzes, unread announcements,
 * replies, results and events; editors and staff what needs them; anyone else 404.
 */
describe('course home (GET Course/{id}/overview/)', () => {
  let t: TestApp;
  let course: { id: number };
  let tok: Record<'staff' | 'editor' | 'otherEditor' | 'student' | 'classmate' | 'outsider', string>;
  let users: Record<'editor' | 'student' | 'classmate' | 'silent', { id: number; email: string }>;
  const ids: Record<string, number> = {};
  let topics: { mine: ForumRecord; theirs: ForumRecord; editors: ForumRecord; answered: ForumRecord };

  const overview = (token: string | undefined, courseId = course.id) =>
    call(t, 'GET', `/api/Course/${courseId}/overview/`, { token });

  beforeAll(async () => {
    t = await createTestApp();
    course = await createCourse(t, { title: 'Algorithms' });
    const other = await createCourse(t, { title: 'Databases' });
    const staff = await createUser(t, { isStaff: true });
    const editor = await createUser(t, { firstName: 'Emily', lastName: 'Carter' });
    const otherEditor = await createUser(t);
    const student = await createUser(t, { firstName: 'Taro', lastName: 'Yamada' });
    const classmate = await createUser(t, { firstName: 'Hanako', lastName: 'Aoki' });
    const silent = await createUser(t, { firstName: 'Jiro', lastName: 'Suzuki' });
    const outsider = await createUser(t);
    await addEditor(t, course.id, editor.id);
    await addEditor(t, other.id, otherEditor.id);
    for (const u of [student, classmate, silent]) await addStudent(t, course.id, u.id);
    await addStudent(t, other.id, outsider.id);
    users = { editor, student, classmate, silent };
    tok = {
      staff: await tokenFor(t, staff),
      editor: await tokenFor(t, editor),
      otherEditor: await tokenFor(t, otherEditor),
      student: await tokenFor(t, student),
      classmate: await tokenFor(t, classmate),
      outsider: await tokenFor(t, outsider),
    };

    // Assignments: due in 3 days; past due but accepting late work; due in 20 days; not opened yet;
    // past due (closed); and one of another course.
    const at = (courseId: number, opens: number, due: number, late: number | null = null) => ({
      courseId,
      opensAt: hoursFromNow(opens * DAY),
      dueAt: hoursFromNow(due * DAY),
      lateUntil: late === null ? null : hoursFromNow(late * DAY),
    });
    ids.soon = (await insertAssignment(t, { title: 'Sorting', courses: [at(course.id, -2, 3)] })).id;
    ids.late = (await insertAssignment(t, { title: 'Recursion', courses: [at(course.id, -9, -1, 2)] })).id;
    ids.far = (await insertAssignment(t, { title: 'Graphs', courses: [at(course.id, -1, 20)] })).id;
    ids.unopened = (await insertAssignment(t, { title: 'Heaps', courses: [at(course.id, 1, 5)] })).id;
    ids.past = (await insertAssignment(t, { title: 'Hashing', courses: [at(course.id, -10, -3)] })).id;
    ids.foreign = (await insertAssignment(t, { title: 'SQL joins', courses: [at(other.id, -1, 2)] })).id;

    // Submissions: the student's graded one and a later one stuck in the queue; the classmate's
    // InternalError; on the past assignment the student's 10/10 and the classmate's InvalidFormat; an
    // editor's reference run (never counted); nothing from the silent student.
    const sub = (fields: Parameters<typeof insertSubmission>[1]) => insertSubmission(t, fields);
    ids.graded = (
      await sub({
        assignmentId: ids.soon,
        courseId: course.id,
        userId: student.id,
        score: 7,
        maxScore: 10,
        gradedAt: hoursFromNow(-1),
        createdAt: hoursFromNow(-2),
      })
    ).id;
    ids.queued = (
      await sub({
        assignmentId: ids.soon,
        courseId: course.id,
        userId: student.id,
        status: 'Scheduled',
        queuedAt: hoursFromNow(-0.5),
        createdAt: hoursFromNow(-0.5),
      })
    ).id;
    ids.internalError = (
      await sub({
        assignmentId: ids.soon,
        courseId: course.id,
        userId: classmate.id,
        status: 'InternalError',
        message: 'The sandbox could not start.',
      })
    ).id;
    ids.perfect = (
      await sub({
        assignmentId: ids.past,
        courseId: course.id,
        userId: student.id,
        score: 10,
        maxScore: 10,
        gradedAt: hoursFromNow(-4 * DAY),
        createdAt: hoursFromNow(-4 * DAY),
      })
    ).id;
    ids.invalid = (
      await sub({
        assignmentId: ids.past,
        courseId: course.id,
        userId: classmate.id,
        status: 'InvalidFormat',
        message: 'main.py is missing.',
        score: 0,
        maxScore: 10,
        gradedAt: hoursFromNow(-3.5 * DAY),
        createdAt: hoursFromNow(-3.5 * DAY),
      })
    ).id;
    await sub({
      assignmentId: ids.late,
      courseId: course.id,
      userId: editor.id,
      isReference: true,
      status: 'InternalError',
    });
    await sub({
      assignmentId: ids.foreign,
      courseId: other.id,
      userId: outsider.id,
      status: 'InternalError',
    });
    // Not for the editors either: an InvalidFormat the student replaced since, a submission queued a minute.
    await sub({
      assignmentId: ids.soon,
      courseId: course.id,
      userId: student.id,
      status: 'InvalidFormat',
      createdAt: hoursFromNow(-3),
    });
    await sub({
      assignmentId: ids.far,
      courseId: course.id,
      userId: classmate.id,
      status: 'Scheduled',
      queuedAt: hoursFromNow(-1 / 60),
    });

    // Quizzes: open and not started; open and submitted with scores shown; upcoming; closed with scores
    // hidden (submitted).
    const quiz = async (title: string, opens: number, closes: number, scoresVisible: number | null) =>
      (
        await insertQuiz(t, {
          title,
          courses: [
            {
              courseId: course.id,
              opensAt: hoursFromNow(opens * DAY),
              closesAt: hoursFromNow(closes * DAY),
              scoresVisibleAt: scoresVisible === null ? null : hoursFromNow(scoresVisible * DAY),
            },
          ],
        })
      ).quizCourseOf(course.id);
    const openQuiz = await quiz('Quiz 1', -1, 1, null);
    const doneQuiz = await quiz('Quiz 2', -1, 2, -0.1);
    const upcomingQuiz = await quiz('Quiz 3', 2, 3, null);
    const closedQuiz = await quiz('Quiz 0', -5, -1, null);
    ids.openQuiz = openQuiz.id;
    ids.openQuizId = openQuiz.quizId;
    ids.doneQuiz = doneQuiz.id;
    ids.upcomingQuiz = upcomingQuiz.id;
    ids.doneAttempt = (
      await insertAttempt(t, {
        quizCourseId: doneQuiz.id,
        userId: student.id,
        submittedAt: hoursFromNow(-5),
        score: 5,
      })
    ).id;
    await insertAttempt(t, {
      quizCourseId: closedQuiz.id,
      userId: student.id,
      submittedAt: hoursFromNow(-2 * DAY),
      score: 3,
    });

    // The forum: two announcements (one read), one scheduled; the student's topic, answered by a
    // classmate only; the classmate's topic where the student commented and the editor answered
    // after; a discussion the editor started.
    const welcome = await postRecord(t, tok.editor, {
      course: course.id,
      title: 'Welcome',
      content: 'Hello.',
      is_announcement: true,
    });
    ids.welcome = welcome.id;
    const read = await postRecord(t, tok.editor, {
      course: course.id,
      title: 'Room change',
      content: 'Room 201.',
      is_announcement: true,
    });
    await postRecord(t, tok.editor, {
      course: course.id,
      title: 'Exam results',
      content: 'Soon.',
      is_announcement: true,
      scheduled_at: hoursFromNow(1).toISOString(),
    });
    const marked = await call(t, 'PUT', `/api/Forum/ForumUserStatus/${read.id}/`, {
      token: tok.student,
      body: { is_read: true },
    });
    expect(marked.status).toBe(200);
    const mine = await postRecord(t, tok.student, {
      course: course.id,
      title: 'Why is my sort slow?',
      content: 'It takes minutes.',
    });
    await postRecord(t, tok.classmate, {
      course: course.id,
      parent_record: mine.id,
      content: 'Use sorted().',
    });
    await postRecord(t, tok.classmate, { course: course.id, parent_record: mine.id, content: 'Or heapq.' });
    const theirs = await postRecord(t, tok.classmate, {
      course: course.id,
      title: 'What is a stable sort?',
      content: 'Anyone?',
    });
    await postRecord(t, tok.student, { course: course.id, parent_record: theirs.id, content: 'Me too.' });
    await postRecord(t, tok.editor, { course: course.id, parent_record: theirs.id, content: 'See ch. 2.' });
    // A question staff answered (staff answer for every course).
    const answered = await postRecord(t, tok.classmate, {
      course: course.id,
      title: 'Is recursion slow?',
      content: 'Asking for a friend.',
    });
    await postRecord(t, tok.staff, { course: course.id, parent_record: answered.id, content: 'Not always.' });
    const editors = await postRecord(t, tok.editor, {
      course: course.id,
      title: 'Share your solutions',
      content: 'Here.',
    });
    topics = { mine, theirs, editors, answered };

    // Events: in two days; in twenty; over; of the other course.
    ids.lecture = (
      await insertEvent(t, {
        courseId: course.id,
        title: 'Lecture 5',
        startsAt: hoursFromNow(2 * DAY),
        endsAt: hoursFromNow(2 * DAY + 1.5),
        location: 'Room 101',
      })
    ).id;
    await insertEvent(t, {
      courseId: course.id,
      startsAt: hoursFromNow(20 * DAY),
      endsAt: hoursFromNow(21 * DAY),
    });
    await insertEvent(t, { courseId: course.id, startsAt: hoursFromNow(-3), endsAt: hoursFromNow(-2) });
    await insertEvent(t, { courseId: other.id, startsAt: hoursFromNow(DAY), endsAt: hoursFromNow(DAY + 1) });

    // Workbooks: the student's live session, and an ended one of the classmate.
    const config = await insertConfig(t, { courseId: course.id });
    for (const [user, status] of [
      [student, 'live'],
      [classmate, 'ended'],
    ] as const) {
      const [notebook] = await t.ctx.db
        .insert(workbookNotebooks)
        .values({ userId: user.id, courseId: course.id, configId: config.id, name: 'Lab', content: STARTER })
        .returning();
      await t.ctx.db.insert(workbookSessions).values({
        userId: user.id,
        courseId: course.id,
        configId: config.id,
        notebookId: notebook!.id,
        status,
        expiresAt: hoursFromNow(1),
        maxExtensionMinutes: 60,
        memoryMb: 512,
        cpuSeconds: 600,
      });
    }
  });
  afterAll(() => t?.close());

  it('shows a student their due work with their standing, soonest first', async () => {
    const res = await overview(tok.student);
    expect(res.status).toBe(200);
    const body = StudentCourseOverview.parse(res.body);
    expect(body.view).toBe('student');
    expect(body.course_id).toBe(course.id);
    // The late one first (due yesterday), then the quizzes and the assignment by their deadlines. Not
    // the far one, the unopened one, the closed one, or the other course's.
    expect(body.due_soon.results.map((d) => [d.kind, d.title, d.status])).toEqual([
      ['assignment', 'Recursion', 'not_submitted'],
      ['quiz', 'Quiz 1', 'not_submitted'],
      ['quiz', 'Quiz 2', 'graded'],
      ['assignment', 'Sorting', 'graded'],
      ['quiz', 'Quiz 3', 'not_submitted'],
    ]);
    expect(body.due_soon.count).toBe(5);
    const [late, , quiz2, sorting, quiz3] = body.due_soon.results;
    expect(late).toMatchObject({ assignment_id: ids.late, is_late: true, score: null, submission_id: null });
    expect(late!.late_until).not.toBeNull();
    // The graded submission decides, not the later one still queued.
    expect(sorting).toMatchObject({
      assignment_id: ids.soon,
      score: 7,
      max_score: 10,
      submission_id: ids.graded,
    });
    expect(quiz2).toMatchObject({ quiz_course_id: ids.doneQuiz, score: 5, submission_id: ids.doneAttempt });
    expect(quiz3).toMatchObject({ quiz_course_id: ids.upcomingQuiz, is_upcoming: true });
  });

  it('lists the quizzes a student can take now', async () => {
    const body = StudentCourseOverview.parse((await overview(tok.student)).body);
    expect(body.open_quizzes).toEqual({
      count: 1,
      results: [
        expect.objectContaining({ quiz_id: ids.openQuizId, quiz_course_id: ids.openQuiz, started_at: null }),
      ],
    });
  });

  it('shows unread announcements only: not those read, not scheduled ones', async () => {
    const body = StudentCourseOverview.parse((await overview(tok.student)).body);
    expect(body.unread_announcements.count).toBe(1);
    expect(body.unread_announcements.results).toEqual([
      expect.objectContaining({
        id: ids.welcome,
        title: 'Welcome',
        author: {
          id: users.editor.id,
          display_name: 'Emily Carter',
          first_name: 'Emily',
          last_name: 'Carter',
          role: 'editor',
        },
      }),
    ]);
    // Reading it takes it off the home.
    await call(t, 'PUT', `/api/Forum/ForumUserStatus/${ids.welcome}/`, {
      token: tok.classmate,
      body: { is_read: true },
    });
    const classmate = StudentCourseOverview.parse((await overview(tok.classmate)).body);
    expect(classmate.unread_announcements.results.map((a) => a.title)).toEqual(['Room change']);
  });

  it('shows replies to a student’s posts since their own latest post, one row per topic', async () => {
    const body = StudentCourseOverview.parse((await overview(tok.student)).body);
    expect(body.forum_replies.count).toBe(2);
    expect(body.forum_replies.results).toEqual([
      expect.objectContaining({
        topic_id: topics.theirs.id,
        reply_count: 1,
        latest_author: expect.objectContaining({ display_name: 'Emily Carter', role: 'editor' }),
      }),
      expect.objectContaining({
        topic_id: topics.mine.id,
        topic_title: 'Why is my sort slow?',
        reply_count: 2,
        latest_author: {
          id: users.classmate.id,
          display_name: 'Hanako Aoki',
          first_name: 'Hanako',
          last_name: 'Aoki',
          role: 'student',
        },
      }),
    ]);
    // The classmate's own comments are not replies to them; the student's and the editor's after their
    // question are, and staff's answer to their other one.
    const classmate = StudentCourseOverview.parse((await overview(tok.classmate)).body);
    expect(classmate.forum_replies.results.map((r) => [r.topic_id, r.reply_count])).toEqual([
      [topics.answered.id, 1],
      [topics.theirs.id, 2],
    ]);
  });

  it('shows a student their latest results and the events of the next two weeks', async () => {
    const body = StudentCourseOverview.parse((await overview(tok.student)).body);
    // Graded an hour ago, the quiz shown since a tenth of a day, the past assignment four days ago; not the
    // quiz whose scores are hidden, and never the queued submission.
    expect(body.latest_results.results.map((r) => [r.kind, r.title, r.submission_id, r.score])).toEqual([
      ['assignment', 'Sorting', ids.graded, 7],
      ['quiz', 'Quiz 2', ids.doneAttempt, 5],
      ['assignment', 'Hashing', ids.perfect, 10],
    ]);
    expect(body.latest_results.count).toBe(3);
    expect(body.upcoming_events).toEqual({
      count: 1,
      results: [expect.objectContaining({ id: ids.lecture, title: 'Lecture 5', location: 'Room 101' })],
    });
  });

  it('shows editors and staff what needs them', async () => {
    for (const token of [tok.editor, tok.staff]) {
      const res = await overview(token);
      expect(res.status).toBe(200);
      const body = EditorCourseOverview.parse(res.body);
      expect(body.view).toBe('editor');
      expect(body.student_count).toBe(3);
      expect(body.open_workbook_sessions).toBe(1);

      // Stuck and failed first, then InvalidFormat (the classmate's latest on that assignment); never a
      // reference run or another course's submission.
      expect(body.grading_attention.results.map((g) => [g.submission_id, g.reason])).toEqual([
        [ids.internalError, 'internal_error'],
        [ids.queued, 'queued_long'],
        [ids.invalid, 'invalid_format'],
      ]);
      expect(body.grading_attention.results[2]).toMatchObject({
        assignment_id: ids.past,
        assignment_title: 'Hashing',
        message: 'main.py is missing.',
        student: { id: users.classmate.id, first_name: 'Hanako', last_name: 'Aoki' },
      });

      // Due within a week (editors see the unopened one too), with who handed in.
      expect(
        body.closing_soon.results.map((c) => [c.kind, c.title, c.submitted_students, c.student_count]),
      ).toEqual([
        ['quiz', 'Quiz 1', 0, 3],
        ['quiz', 'Quiz 2', 1, 3],
        ['assignment', 'Sorting', 2, 3],
        ['quiz', 'Quiz 3', 0, 3],
        ['assignment', 'Heaps', 0, 3],
      ]);

      // Past due within two weeks: who handed in nothing (the reference run does not count).
      expect(body.missing_submissions.results).toEqual([
        expect.objectContaining({
          assignment_id: ids.late,
          accepts_late: true,
          missing_count: 3,
          students: [
            expect.objectContaining({ last_name: 'Aoki' }),
            expect.objectContaining({ last_name: 'Suzuki' }),
            expect.objectContaining({ last_name: 'Yamada' }),
          ],
        }),
        expect.objectContaining({
          assignment_id: ids.past,
          accepts_late: false,
          missing_count: 1,
          students: [expect.objectContaining({ id: users.silent.id, email: users.silent.email })],
        }),
      ]);

      // The student's question has only a classmate's answers; the classmate's have the editor's and
      // staff's; the editor's own discussion is not a question.
      expect(body.unanswered_questions).toEqual({
        count: 1,
        results: [
          expect.objectContaining({
            id: topics.mine.id,
            comment_count: 2,
            author: {
              id: users.student.id,
              display_name: 'Taro Yamada',
              first_name: 'Taro',
              last_name: 'Yamada',
              role: 'student',
            },
          }),
        ],
      });
    }
  });

  it('answers 404 to anyone else, 401 without a token, 404 for an unknown or malformed course', async () => {
    expect((await overview(tok.outsider)).status).toBe(404);
    expect((await overview(tok.otherEditor)).status).toBe(404);
    expect((await overview(undefined)).status).toBe(401);
    expect((await overview(tok.staff, 2_000_000)).status).toBe(404);
    expect((await call(t, 'GET', '/api/Course/abc/overview/', { token: tok.staff })).status).toBe(404);
  });

  it('bounds every section and counts what it left out', async () => {
    const big = await createCourse(t, { title: 'Lectures galore' });
    const student = await createUser(t);
    await addStudent(t, big.id, student.id);
    for (let i = 0; i < OVERVIEW_SECTION_LIMIT + 3; i += 1) {
      await insertEvent(t, {
        courseId: big.id,
        title: `Lecture ${String(i).padStart(2, '0')}`,
        startsAt: hoursFromNow(1 + i),
        endsAt: hoursFromNow(2 + i),
      });
    }
    const body = StudentCourseOverview.parse((await overview(await tokenFor(t, student), big.id)).body);
    expect(body.upcoming_events.count).toBe(OVERVIEW_SECTION_LIMIT + 3);
    expect(body.upcoming_events.results.map((e) => e.title)).toEqual(
      Array.from({ length: OVERVIEW_SECTION_LIMIT }, (_, i) => `Lecture ${String(i).padStart(2, '0')}`),
    );
    // An empty course answers empty sections.
    expect(body.due_soon).toEqual({ count: 0, results: [] });
    expect(body.unread_announcements).toEqual({ count: 0, results: [] });
  });
});
