import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { courseStudents } from '../../db/schema.ts';
import { submissions } from '../../db/schema-assignments.ts';
import { ltiScores } from '../../db/schema-lti.ts';
import { call } from '../../../test/harness.ts';
import { Browser } from '../../../test/peers/browser.ts';
import { ROLE } from '../../../test/peers/lti-shapes.ts';
import { insertAssignment, insertGraded, insertQuiz, insertQuizSubmission } from '../assessment/testing.ts';
import { listLineItemIdsOfItem, listLineItemsOfContexts } from './grades.repo.ts';
import { discoverLineItems, syncLineItem } from './grades.service.ts';
import { sweepLineItems } from './lti.jobs.ts';
import { forgetPlatformTokens } from './platform-token.ts';
import { exchange, launch, lmsPerson, startRig, type LtiRig } from './lti-testing.ts';
import { unique } from './testing.ts';

// Deep linking, grades into the LMS gradebook (AGS), rosters from it (NRPS) and dynamic registration,
// against an emulated LMS that checks every message against the 1EdTech shapes (issue 38).

let rig: LtiRig;
beforeAll(async () => {
  rig = await startRig();
}, 60_000);
afterAll(() => rig.close());

const person = lmsPerson;

/** An instructor's linked LMS course with two assignments picked by deep linking. */
async function deepLinkedCourse() {
  const contextId = `course-${unique()}`;
  const teacher = person('teacher');
  const first = await exchange(
    rig,
    await launch(rig, {
      user: teacher,
      roles: [ROLE.instructor],
      context: { id: contextId, title: 'Python 1' },
    }),
  );
  const contextRowId = Number(first.next.split('/').pop());
  const linked = await call(rig.t, 'POST', `/api/Lti/Context/${contextRowId}/`, {
    token: first.access,
    body: {},
  });
  const courseId = Number((linked.json as { next: string }).next.split('/').pop());
  const a1 = await insertAssignment(rig.t, courseId, 7, [5, 5]);
  const a2 = await insertAssignment(rig.t, courseId, 14, [4]);
  const request = await exchange(
    rig,
    await launch(rig, {
      user: teacher,
      roles: [ROLE.instructor],
      context: { id: contextId },
      messageType: 'LtiDeepLinkingRequest',
    }),
  );
  const id = request.next.split('/').pop()!;
  const info = await call(rig.t, 'GET', `/api/Lti/DeepLink/${id}/`, { token: request.access });
  expect(info.status).toBe(200);
  expect((info.json as { items: { id: number }[] }).items.map((i) => i.id)).toEqual([a1.id, a2.id]);
  const answer = await call(rig.t, 'POST', `/api/Lti/DeepLink/${id}/`, {
    token: request.access,
    body: {
      items: [
        { kind: 'assignment', id: a1.id },
        { kind: 'assignment', id: a2.id },
      ],
    },
  });
  expect(answer.status, JSON.stringify(answer.json)).toBe(200);
  const { return_url, jwt } = answer.json as { return_url: string; jwt: string };
  // The page posts the answer to the LMS as a form.
  const posted = await new Browser().request(return_url, { form: { JWT: jwt } });
  expect(posted.status, posted.body).toBeLessThan(400);
  return { contextId, contextRowId, courseId, a1, a2, teacher, deepLink: rig.lms.deepLinks.at(-1)! };
}

/** A learner launched from the course's `index`-th deep-linked resource link, and its line item. */
async function learnerOf(course: Awaited<ReturnType<typeof deepLinkedCourse>>, index: number, name: string) {
  const student = person(name);
  const link = course.deepLink.resourceLinks[index]!;
  const learner = await exchange(
    rig,
    await launch(rig, {
      user: student,
      roles: [ROLE.learner],
      context: { id: course.contextId },
      resourceLink: { id: link.id },
    }),
  );
  const item = index === 0 ? course.a1 : course.a2;
  const [lineItemId] = await listLineItemIdsOfItem(rig.t.ctx.db, 'assignment', item.id);
  return { student, learner, lineItemId };
}

describe('LTI deep linking', () => {
  it('returns two assignments as resource links with line items, signed with the current key', async () => {
    const { deepLink, a1, a2 } = await deepLinkedCourse();
    expect(deepLink.contentItems).toHaveLength(2);
    expect(
      deepLink.contentItems.map((c) => (c as { lineItem?: { resourceId?: string } }).lineItem?.resourceId),
    ).toEqual([`assignment:${a1.id}`, `assignment:${a2.id}`]);
    expect(deepLink.contentItems[0]).toMatchObject({
      type: 'ltiResourceLink',
      lineItem: { scoreMaximum: 10 },
    });
    expect(rig.lms.violations).toEqual([]);
  });

  it('still verifies after Kadai rotates its key', async () => {
    const rotated = await call(rig.t, 'POST', '/api/Lti/Tool/rotate-key/', { token: rig.staffToken });
    expect((rotated.json as { keys: unknown[] }).keys).toHaveLength(2);
    const { deepLink } = await deepLinkedCourse();
    expect(deepLink.contentItems).toHaveLength(2);
    expect(rig.lms.violations).toEqual([]);
  });

  it('opens the linked assignment at a launch of its resource link, and records its line item', async () => {
    const { contextId, courseId, a1, deepLink } = await deepLinkedCourse();
    const link = deepLink.resourceLinks[0]!;
    const learner = await exchange(
      rig,
      await launch(rig, {
        user: person('student'),
        roles: [ROLE.learner],
        context: { id: contextId },
        resourceLink: { id: link.id },
      }),
    );
    expect(learner.next).toBe(`/course/${courseId}/assignment/${a1.id}`);
    expect(await listLineItemIdsOfItem(rig.t.ctx.db, 'assignment', a1.id)).toHaveLength(1);
  });

  it("finds the line items the LMS made from Kadai's answer before anybody launches them", async () => {
    const { contextRowId, a1, a2, deepLink } = await deepLinkedCourse();
    expect(await discoverLineItems(rig.t.ctx, contextRowId)).toBe(2);
    const found = await listLineItemsOfContexts(rig.t.ctx.db, [contextRowId]);
    expect(found.map((l) => [l.kind, l.itemId, l.url])).toEqual([
      ['assignment', a1.id, deepLink.resourceLinks[0]!.lineItemUrl],
      ['assignment', a2.id, deepLink.resourceLinks[1]!.lineItemUrl],
    ]);
    expect(rig.lms.violations).toEqual([]);
  });
});

describe('LTI grade passback', () => {
  it('posts the counted score after grading, again after another final submission, and nothing twice', async () => {
    const course = await deepLinkedCourse();
    const { courseId, a1 } = course;
    const { student, learner, lineItemId } = await learnerOf(course, 0, 'graded');
    await insertGraded(rig.t, a1, courseId, learner.user.pk, [5, 5]);
    const lower = await insertGraded(rig.t, a1, courseId, learner.user.pk, [5, 0]);
    expect(await syncLineItem(rig.t.ctx, lineItemId!)).toMatchObject({ sent: 1 });
    const mine = () => rig.lms.scores.filter((s) => s.score.userId === student.sub);
    expect(mine().map((s) => [s.score.scoreGiven, s.score.scoreMaximum, s.score.gradingProgress])).toEqual([
      [10, 10, 'FullyGraded'],
    ]);
    expect(await syncLineItem(rig.t.ctx, lineItemId!)).toMatchObject({ sent: 0, unchanged: 1 });
    // The student makes the lower one final: the gradebook counts it, and so does the LMS.
    const final = await call(rig.t, 'POST', `/api/Submission/SelectFinal/${a1.id}/${courseId}/${lower.id}/`, {
      token: learner.access,
    });
    expect(final.status, JSON.stringify(final.json)).toBe(200);
    await waitFor(() => mine().length === 2);
    expect(mine().map((s) => s.score.scoreGiven)).toEqual([10, 5]);
    expect(mine().every((s) => s.applied)).toBe(true);
    // One token served every score: tokens are kept until they expire.
    expect(rig.lms.tokenRequests.length).toBeLessThanOrEqual(2);
    expect(rig.lms.violations).toEqual([]);
  });

  it('keeps a score through an outage of the LMS and sends it when it is back', async () => {
    const course = await deepLinkedCourse();
    const { contextId, courseId, a2 } = course;
    const { student, learner, lineItemId } = await learnerOf(course, 1, 'outage');
    await insertGraded(rig.t, a2, courseId, learner.user.pk, [4]);
    rig.lms.failScores(1, 503);
    await expect(syncLineItem(rig.t.ctx, lineItemId!)).rejects.toThrow(/503/);
    const [row] = await rig.t.ctx.db
      .select()
      .from(ltiScores)
      .where(and(eq(ltiScores.lineItemId, lineItemId!), eq(ltiScores.userId, learner.user.pk)));
    expect(row).toMatchObject({ status: 'pending', attempts: 1 });
    rig.lms.failScores(1, 'drop');
    await expect(syncLineItem(rig.t.ctx, lineItemId!)).rejects.toThrow();
    expect(await syncLineItem(rig.t.ctx, lineItemId!)).toMatchObject({ sent: 1 });
    expect(
      rig.lms.scores.filter((s) => s.score.userId === student.sub).map((s) => s.score.scoreGiven),
    ).toEqual([4]);
    const status = await call(rig.t, 'GET', `/api/Lti/Course/${courseId}/`, {
      token: (
        await exchange(
          rig,
          await launch(rig, { user: { sub: 'x' }, roles: [ROLE.learner], context: { id: contextId } }),
        )
      ).access,
    });
    expect(status.status).toBe(403);
  });
});

describe('LTI and quizzes', () => {
  it('links a quiz by deep linking, opens it from the LMS and sends its submitted score', async () => {
    const { contextId, courseId, teacher } = await deepLinkedCourse();
    const quiz = await insertQuiz(rig.t, courseId, { closesInDays: 3, scoresVisible: true, points: [2, 3] });
    const request = await exchange(
      rig,
      await launch(rig, {
        user: teacher,
        roles: [ROLE.instructor],
        context: { id: contextId },
        messageType: 'LtiDeepLinkingRequest',
      }),
    );
    const id = request.next.split('/').pop()!;
    const answer = await call(rig.t, 'POST', `/api/Lti/DeepLink/${id}/`, {
      token: request.access,
      body: { items: [{ kind: 'quiz', id: quiz.quizCourse.id }] },
    });
    const { return_url, jwt } = answer.json as { return_url: string; jwt: string };
    await new Browser().request(return_url, { form: { JWT: jwt } });
    const link = rig.lms.deepLinks.at(-1)!;
    expect(link.contentItems[0]).toMatchObject({
      lineItem: { scoreMaximum: 5, resourceId: `quiz:${quiz.quizCourse.id}` },
    });
    const student = person('quizzer');
    const learner = await exchange(
      rig,
      await launch(rig, {
        user: student,
        roles: [ROLE.learner],
        context: { id: contextId },
        resourceLink: { id: link.resourceLinks[0]!.id },
      }),
    );
    expect(learner.next).toBe(
      `/course/${courseId}/quizzes/${quiz.quiz.id}/quiz-courses/${quiz.quizCourse.id}`,
    );
    await insertQuizSubmission(rig.t, quiz, learner.user.pk, [2, 0]);
    const [lineItemId] = await listLineItemIdsOfItem(rig.t.ctx.db, 'quiz', quiz.quizCourse.id);
    expect(await syncLineItem(rig.t.ctx, lineItemId!)).toMatchObject({ sent: 1 });
    expect(
      rig.lms.scores
        .filter((s) => s.score.userId === student.sub)
        .map((s) => [s.score.scoreGiven, s.score.scoreMaximum]),
    ).toEqual([[2, 5]]);
    expect(rig.lms.violations).toEqual([]);
  });
});

describe('LTI grade passback in the background', () => {
  it('finds work graded since the last check every sweep, and asks for a new token when one expires', async () => {
    const course = await deepLinkedCourse();
    const { courseId, a1 } = course;
    const { student, learner, lineItemId } = await learnerOf(course, 0, 'swept');
    // Tokens that live 31 s: Kadai drops them 30 s early, so this one is gone in a second.
    rig.lms.setExpiresIn(31);
    forgetPlatformTokens(rig.t.ctx, rig.platformId);
    await insertGraded(rig.t, a1, courseId, learner.user.pk, [5, 5]);
    await syncLineItem(rig.t.ctx, lineItemId!);
    const tokensBefore = rig.lms.tokenRequests.length;
    await new Promise((resolve) => setTimeout(resolve, 1100));
    // Graded after the check, and made final: the sweep queues the line item and the job sends it.
    await insertGraded(rig.t, a1, courseId, learner.user.pk, [5, 0], true);
    expect(await sweepLineItems(rig.t.ctx)).toBeGreaterThanOrEqual(1);
    const mine = () => rig.lms.scores.filter((s) => s.score.userId === student.sub);
    await waitFor(() => mine().length === 2);
    expect(mine().map((s) => s.score.scoreGiven)).toEqual([10, 5]);
    rig.lms.setExpiresIn(3600);
    expect(rig.lms.tokenRequests.length).toBeGreaterThan(tokensBefore);
  });
});

describe('LTI roster', () => {
  it('adds and removes members from the LMS roster, keeping the work of those removed', async () => {
    const { contextId, courseId, a1, teacher } = await deepLinkedCourse();
    const staying = person('staying');
    const leaving = person('leaving');
    const stayer = await exchange(
      rig,
      await launch(rig, { user: staying, roles: [ROLE.learner], context: { id: contextId } }),
    );
    const leaver = await exchange(
      rig,
      await launch(rig, { user: leaving, roles: [ROLE.learner], context: { id: contextId } }),
    );
    await insertGraded(rig.t, a1, courseId, leaver.user.pk, [5, 5]);
    const newcomer = person('newcomer');
    rig.lms.setMembers(contextId, [
      { user_id: teacher.sub, roles: [ROLE.instructor], status: 'Active', email: teacher.email },
      { user_id: staying.sub, roles: [ROLE.learner], status: 'Active', email: staying.email },
      { user_id: leaving.sub, roles: [ROLE.learner], status: 'Inactive', email: leaving.email },
      {
        user_id: newcomer.sub,
        roles: [ROLE.learner],
        status: 'Active',
        email: newcomer.email,
        given_name: 'New',
        family_name: 'Comer',
      },
    ]);
    const teacherLaunch = await exchange(
      rig,
      await launch(rig, { user: teacher, roles: [ROLE.instructor], context: { id: contextId } }),
    );
    const links = await call(rig.t, 'GET', `/api/Lti/Course/${courseId}/`, { token: teacherLaunch.access });
    const contextRowId = (links.json as { results: { id: number }[] }).results[0]!.id;
    const synced = await call(rig.t, 'POST', `/api/Lti/Course/${courseId}/roster-sync/`, {
      token: teacherLaunch.access,
      body: { context_id: contextRowId },
    });
    expect(synced.status, JSON.stringify(synced.json)).toBe(200);
    expect(synced.json).toMatchObject({ added: 1, removed: 1, waiting: 0 });
    const students = (
      await rig.t.ctx.db.select().from(courseStudents).where(eq(courseStudents.courseId, courseId))
    ).map((s) => s.userId);
    expect(students).toContain(stayer.user.pk);
    expect(students).not.toContain(leaver.user.pk);
    expect(students).toHaveLength(2);
    const kept = await rig.t.ctx.db.select().from(submissions).where(eq(submissions.userId, leaver.user.pk));
    expect(kept).toHaveLength(1);
    expect(rig.lms.violations).toEqual([]);
  });
});

describe('LTI dynamic registration', () => {
  it('registers Kadai with the LMS through a one-time address, and only once', async () => {
    const link = await call(rig.t, 'POST', '/api/Lti/Registration/', { token: rig.staffToken });
    expect(link.status).toBe(201);
    const url = (link.json as { url: string }).url;
    const page = await new Browser().request(rig.lms.dynamicRegistrationUrl(url), {
      headers: { accept: 'text/html' },
    });
    expect(page.status, page.body).toBe(200);
    expect(page.body).toContain('org.imsglobal.lti.close');
    expect(rig.lms.registrations).toHaveLength(1);
    const platforms = await call(rig.t, 'GET', '/api/Lti/Platform/', { token: rig.staffToken });
    const dynamic = (
      platforms.json as { results: { source: string; client_id: string; deployment_ids: string[] }[] }
    ).results.find((p) => p.source === 'dynamic');
    expect(dynamic).toBeTruthy();
    expect(rig.lms.violations).toEqual([]);
    const again = await new Browser().request(rig.lms.dynamicRegistrationUrl(url), {
      headers: { accept: 'text/html' },
    });
    expect(again.status).toBe(410);
  });
});

async function waitFor(condition: () => boolean, ms = 15_000) {
  const until = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
