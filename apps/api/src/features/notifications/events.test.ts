import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp } from '../../../test/harness.ts';
import { addStudent, createCourse, createUser, type TestUser } from '../../../test/factories.ts';
import { notificationsOf } from '../../../test/notifications.ts';
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
