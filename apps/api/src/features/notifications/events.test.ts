import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { call, createTestApp, type TestApp } from '../../../test/harness.ts';
import {
  addEditor,
  addStudent,
  createCourse,
  createUser,
  tokenFor,
  type TestUser,
} from '../../../test/factories.ts';
import { notificationsOf } from '../../../test/notifications.ts';
import { courses } from '../../db/schema.ts';
import { hoursFromNow } from '../assignments/testing.ts';
import { createExtensionWorld, type ExtensionWorld } from '../extensions/testing.ts';
import { createReviewWorld, gradeAndRelease } from '../review/testing.ts';
import { links, notify, notifyEach } from './notify.service.ts';

/*
 * The events that notify (docs/notifications.md, "Events"), each made in the transaction of the change:
 * one row per recipient, none for the one who acted, and none more when the same thing happens again.
 * (A graded submission: test/grading-notifications.test.ts, with the real grader.)
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('feedback released', () => {
  it('tells the student once, naming who released it, and not again for a release of the same feedback', async () => {
    const w = await createReviewWorld(t);
    await gradeAndRelease(t, w);
    const told = await notificationsOf(t, 'feedback_released', w.course.id);
    expect(told).toEqual([
      expect.objectContaining({
        user_id: w.users.student!.id,
        link: links.submission(w.course.id, w.completed.id),
        facts: { title: w.assignment.title, actor: { first_name: 'Test', last_name: 'User' } },
      }),
    ]);
    expect(told[0]!.event_key).toMatch(new RegExp(`^feedback:\\d+:[0-9a-f]{32}$`));

    const release = () =>
      call(t, 'POST', `${w.assignmentUrl}/reviews/release/`, {
        token: w.tokens.staff,
        body: { scope: 'all' },
      });
    const retract = () => call(t, 'POST', `${w.assignmentUrl}/reviews/retract/`, { token: w.tokens.staff });
    // Nothing left to release; then hidden and shown again as it was.
    expect((await release()).body).toMatchObject({ released: 0 });
    expect((await retract()).body).toMatchObject({ retracted: 1 });
    expect((await release()).body).toMatchObject({ released: 1 });
    expect(await notificationsOf(t, 'feedback_released', w.course.id)).toHaveLength(1);

    // Hidden, graded differently, shown again: the student hears of it.
    await retract();
    const current = await call(t, 'GET', w.reviewUrl, { token: w.tokens.staff });
    const saved = await call(t, 'PUT', w.reviewUrl, {
      token: w.tokens.staff,
      body: {
        version: (current.body as { version: number }).version,
        status: 'graded',
        selected_item_ids: [w.items[1]],
        comment: 'Better names now.',
      },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    await release();
    const after = await notificationsOf(t, 'feedback_released', w.course.id);
    expect(after.map((n) => n.user_id)).toEqual([w.users.student!.id, w.users.student!.id]);
    expect(new Set(after.map((n) => n.event_key)).size).toBe(2);
  });

  it('tells every student of a release in one go, each of their own submission', async () => {
    const w = await createReviewWorld(t);
    await gradeAndRelease(t, w, false);
    const classmateSubmission = await t.database.query(
      `INSERT INTO submissions (assignment_id, course_id, user_id, status, score, max_score, graded_at)
       VALUES ($1, $2, $3, 'Completed', 0, 3, now()) RETURNING id`,
      [w.assignment.id, w.course.id, w.users.classmate!.id],
    );
    const classmateId = Number(classmateSubmission.rows[0]!.id);
    const review = await call(t, 'PUT', `/api/Submission/${classmateId}/review/`, {
      token: w.tokens.editor,
      body: { version: 0, status: 'draft', selected_item_ids: [w.items[2]] },
    });
    expect(review.status, JSON.stringify(review.body)).toBe(200);
    const res = await call(t, 'POST', `${w.assignmentUrl}/reviews/release/`, {
      token: w.tokens.editor,
      body: { scope: 'all' },
    });
    expect(res.body).toMatchObject({ released: 2 });
    const told = await notificationsOf(t, 'feedback_released', w.course.id);
    expect(told.map((n) => [n.user_id, n.link]).sort()).toEqual(
      [
        [w.users.student!.id, links.submission(w.course.id, w.completed.id)],
        [w.users.classmate!.id, links.submission(w.course.id, classmateId)],
      ].sort(),
    );
    expect(told.every((n) => n.facts.actor?.last_name === 'Editor')).toBe(true);
  });
});

describe('an extension granted or changed', () => {
  let w: ExtensionWorld;
  beforeAll(async () => {
    w = await createExtensionWorld(t);
  });

  const grant = (body: Record<string, unknown>) =>
    call(t, 'POST', `/api/Course/${w.course.id}/extensions/`, {
      token: w.tokens.editor,
      body: { reason: 'Illness (certificate seen)', ...body },
    });
  const assignmentGrant = async (dueAt: Date, userIds = [w.users.student.id]) => {
    const res = await grant({
      kind: 'assignment',
      item_id: w.assignment.id,
      user_ids: userIds,
      due_at: dueAt.toISOString(),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  };

  it('tells the student of the new date once; a change tells again, a repeat does not', async () => {
    const first = hoursFromNow(48);
    await assignmentGrant(first);
    let told = await notificationsOf(t, 'extension', w.course.id);
    expect(told).toEqual([
      expect.objectContaining({
        user_id: w.users.student.id,
        link: links.assignment(w.course.id, w.assignment.id),
        facts: {
          title: 'Week 3: recursion',
          due_at: first.toISOString(),
          actor: { first_name: 'Test', last_name: 'User' },
        },
      }),
    ]);
    await assignmentGrant(first);
    expect(await notificationsOf(t, 'extension', w.course.id)).toHaveLength(1);

    const later = hoursFromNow(72);
    await assignmentGrant(later);
    // Back to the first date: a change too.
    await assignmentGrant(first);
    told = await notificationsOf(t, 'extension', w.course.id);
    expect(told.map((n) => n.facts.due_at)).toEqual([
      first.toISOString(),
      later.toISOString(),
      first.toISOString(),
    ]);
    expect(told.every((n) => n.user_id === w.users.student.id)).toBe(true);

    // Given to both: only the classmate's dates change.
    await assignmentGrant(first, [w.users.student.id, w.users.classmate.id]);
    told = await notificationsOf(t, 'extension', w.course.id);
    expect(told.slice(3).map((n) => n.user_id)).toEqual([w.users.classmate.id]);
    expect(told.some((n) => n.user_id === w.users.editor.id)).toBe(false);
  });

  it("links a quiz's extension to the quiz, with its new closing time when it has one", async () => {
    const closesAt = hoursFromNow(30);
    const res = await grant({
      kind: 'quiz',
      item_id: w.quiz.id,
      user_ids: [w.users.student.id],
      closes_at: closesAt.toISOString(),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const minutes = await grant({
      kind: 'quiz',
      item_id: w.quiz.id,
      user_ids: [w.users.classmate.id],
      extra_minutes: 15,
    });
    expect(minutes.status, JSON.stringify(minutes.body)).toBe(201);
    const told = (await notificationsOf(t, 'extension', w.course.id)).filter((n) =>
      n.link.includes('quizzes'),
    );
    expect(told.map((n) => [n.user_id, n.link, n.facts.due_at])).toEqual([
      [w.users.student.id, links.quiz(w.course.id, w.quiz.id, w.quizCourse.id), closesAt.toISOString()],
      [w.users.classmate.id, links.quiz(w.course.id, w.quiz.id, w.quizCourse.id), undefined],
    ]);
  });
});

describe('a member added', () => {
  it("tells the course's other editors only when the course asks for it", async () => {
    const course = await createCourse(t);
    const [adder, colleague, newcomer, newEditor] = await Promise.all([
      createUser(t, { firstName: 'Ada', lastName: 'Adder' }),
      createUser(t),
      createUser(t, { firstName: 'Nao', lastName: 'Newcomer' }),
      createUser(t, { firstName: 'Eli', lastName: 'Editor' }),
    ]);
    await addEditor(t, course.id, adder.id);
    await addEditor(t, course.id, colleague.id);
    const adderToken = await tokenFor(t, adder);
    // By e-mail: an editor names by id only people of their own courses.
    const add = async (list: 'StudentList' | 'EditorList', email: string, token = adderToken) => {
      const res = await call(t, 'POST', `/api/${list}/${course.id}/`, { token, body: { emails: [email] } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    };

    // Off by default.
    const early = await createUser(t);
    await add('StudentList', early.email);
    expect(await notificationsOf(t, 'member_added', course.id)).toEqual([]);

    await t.ctx.db.update(courses).set({ notifyEditorsOfMembers: true }).where(eq(courses.id, course.id));
    await add('StudentList', newcomer.email);
    await add('StudentList', newcomer.email); // already on the list: nothing new
    let told = await notificationsOf(t, 'member_added', course.id);
    expect(told).toEqual([
      expect.objectContaining({
        user_id: colleague.id,
        link: links.members(course.id),
        facts: {
          member: { first_name: 'Nao', last_name: 'Newcomer' },
          role: 'student',
          actor: { first_name: 'Ada', last_name: 'Adder' },
        },
      }),
    ]);

    // Staff adds an editor: both editors hear of it, the new editor does not hear of themselves.
    const staff = await tokenFor(t, await createUser(t, { isStaff: true }));
    await add('EditorList', newEditor.email, staff);
    told = await notificationsOf(t, 'member_added', course.id);
    expect(
      told
        .slice(1)
        .map((n) => [n.user_id, n.facts.role])
        .sort(),
    ).toEqual(
      [
        [adder.id, 'editor'],
        [colleague.id, 'editor'],
      ].sort(),
    );
    expect(told.some((n) => n.user_id === newcomer.id || n.user_id === newEditor.id)).toBe(false);
  });
});

describe('the fan-out', () => {
  it("adds one row per active student of the course, not the actor's, and nothing on a repeat", async () => {
    const course = await createCourse(t);
    const people = await Promise.all(Array.from({ length: 5 }, () => createUser(t, { password: null })));
    for (const person of people) await addStudent(t, course.id, person.id);
    const [actor, inactive, ...others] = people as [TestUser, TestUser, ...TestUser[]];
    await t.database.query('UPDATE users SET is_active = false WHERE id = $1', [inactive.id]);
    const event = {
      kind: 'announcement' as const,
      key: `announcement:test:${course.id}`,
      courseId: course.id,
      link: links.course(course.id),
      facts: { title: 'Welcome' },
      to: { students: course.id },
      actorId: actor.id,
    };
    expect(await notify(t.ctx.db, event)).toBe(3);
    expect(await notifyEach(t.ctx.db, [event, event])).toBe(0);
    const told = await notificationsOf(t, 'announcement', course.id);
    expect(told.map((n) => n.user_id).sort()).toEqual(others.map((o) => o.id).sort());
  });
});
