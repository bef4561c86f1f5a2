import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { addStudent, createCourse, createUser, type TestUser } from '../../../test/factories.ts';
import { notificationsOf } from '../../../test/notifications.ts';
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
