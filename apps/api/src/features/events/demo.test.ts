import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Calendar } from '@kadai/contracts';
import { call, createTestApp, type TestApp } from '../../../test/harness.ts';
import { DEMO_PASSWORD, findDemoCourse, seedDemoData } from '../../demo/seed.ts';
import { DEMO_LECTURE_TOPICS, tuesdayMorning } from './demo.ts';

describe('demo calendar', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await seedDemoData(t.ctx);
  });
  afterAll(() => t.close());

  it('puts Tuesday 10:40 Tokyo time of the current week first in the week', () => {
    // Sunday 2026-05-10 23:30 in Tokyo belongs to the week of Monday 4 May.
    expect(new Date(tuesdayMorning(Date.parse('2026-05-10T14:30:00Z'))).toISOString()).toBe(
      '2026-05-05T01:40:00.000Z',
    );
    // Monday 2026-05-11 00:30 in Tokyo (still Sunday in UTC) starts the next week.
    expect(new Date(tuesdayMorning(Date.parse('2026-05-10T15:30:00Z'))).toISOString()).toBe(
      '2026-05-12T01:40:00.000Z',
    );
  });

  it("shows a student of the demo course the weekly lecture, the exam, the holiday and the assignments' deadlines", async () => {
    const login = await call(t, 'POST', '/api/Auth/Token/', {
      body: { email: 'student1@example.com', password: DEMO_PASSWORD },
    });
    const course = await findDemoCourse(t.ctx);
    const from = new Date(Date.now() - 30 * 86_400_000).toISOString();
    const to = new Date(Date.now() + 120 * 86_400_000).toISOString();
    const res = await call(t, 'GET', `/api/Event/${course!.id}/`, {
      token: String(login.json.access),
      query: { from, to },
    });
    expect(res.status).toBe(200);
    const entries = Calendar.parse(res.body).results;
    const lectures = entries.filter((e) => e.kind === 'lecture');
    expect(lectures).toHaveLength(DEMO_LECTURE_TOPICS.length);
    expect(new Set(lectures.map((e) => new Date(e.starts_at).getUTCDay()))).toEqual(new Set([2]));
    expect(entries.filter((e) => e.kind === 'exam')).toHaveLength(1);
    expect(entries.filter((e) => e.all_day)).toHaveLength(1);
    // The three open assignments, and the warm-up that was due last week (assessment's demo).
    expect(entries.filter((e) => e.kind === 'assignment_due')).toHaveLength(4);
  });
});
