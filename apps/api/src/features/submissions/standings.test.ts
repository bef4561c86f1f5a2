import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Leaderboard, LeaderboardProfile } from '@kadai/contracts';
import { call, createTestApp, type TestApp } from '../../../test/harness.ts';
import { addStudent, tokenFor } from '../../../test/factories.ts';
import { csvCell, toCsv } from './csv-format.ts';
import {
  createSubmissionWorld,
  hoursFromNow,
  insertSubmission,
  quickUser,
  setLink,
  type SubmissionWorld,
} from './testing.ts';

const at = (minutes: number) => new Date(Date.UTC(2026, 0, 10, 9, minutes));

/** Parses our CSV (quoted cells, CRLF rows) back into rows, for assertions. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted && c === '"' && text[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (quoted && c === '"') {
      quoted = false;
    } else if (quoted) {
      cell += c;
    } else if (c === '"') {
      quoted = true;
    } else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else {
      cell += c;
    }
  }
  return rows;
}

describe('CSV cells', () => {
  it('quotes, doubles quotes, and defuses formulas', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('=1+2')).toBe("'=1+2");
    expect(csvCell('+81 3')).toBe("'+81 3");
    expect(csvCell('-x')).toBe("'-x");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tx')).toBe("'\tx");
    expect(csvCell('\rx')).toBe('"\'\rx"');
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe('"\'=HYPERLINK(""http://x"",""y"")"');
    expect(csvCell(7)).toBe('7');
    expect(csvCell(null)).toBe('');
    expect(toCsv(['a'], [['山田']])).toBe('\uFEFFa\r\n山田\r\n');
  });
});

describe('Submission/csv/ and leaderboards', () => {
  let t: TestApp;
  let w: SubmissionWorld;
  let late: { id: number };
  let silent: { id: number };
  beforeAll(async () => {
    t = await createTestApp();
    w = await createSubmissionWorld(t);
    const key = { assignmentId: w.assignment.id, courseId: w.course.id };
    // The student: best 1 (the world's Completed submission); the classmate: best 3, made late.
    late = await insertSubmission(t, {
      ...key,
      userId: w.users.classmate.id,
      score: 3,
      maxScore: 3,
      isLate: true,
    });
    await insertSubmission(t, { ...key, userId: w.users.classmate.id, score: 2, maxScore: 3, isFinal: true });
    const injector = await quickUser(t, { firstName: '=cmd|" /C calc"!A0', lastName: '山田' });
    await addStudent(t, w.course.id, injector.id);
    silent = injector;
  });
  afterAll(() => t.close());

  const csvUrl = (choose?: string) =>
    `/api/Submission/csv/?assignment_id=${w.assignment.id}&course_id=${w.course.id}${choose ? `&choose=${choose}` : ''}`;

  it('has one row per student, non-submitters included, final else best, injection-safe', async () => {
    const res = await call(t, 'GET', csvUrl(), { token: w.tokens.editor });
    expect(res.status).toBe(200);
    expect(String(res.headers['content-type'])).toBe('text/csv; charset=utf-8');
    expect(String(res.headers['content-disposition'])).toMatch(
      /^attachment; filename="[^"]+\.csv"; filename\*=UTF-8''/,
    );
    const text = String(res.body);
    expect(text.startsWith('\uFEFF')).toBe(true);
    const [header, ...rows] = parseCsv(text.slice(1));
    expect(header).toEqual([
      'student_id',
      'email',
      'last_name',
      'first_name',
      'submission_id',
      'chosen',
      'score',
      'max_score',
      'status',
      'late',
      'submitted_at',
      'graded_at',
      'submissions',
    ]);
    expect(rows).toHaveLength(3);
    const byId = new Map(rows.map((r) => [Number(r[0]), r]));
    const student = byId.get(w.users.student.id)!;
    expect([student[5], student[6], student[8], student[12]]).toEqual(['best', '1', 'Completed', '3']);
    const classmate = byId.get(w.users.classmate.id)!;
    expect([classmate[5], classmate[6], classmate[9]]).toEqual(['final', '2', 'false']);
    const none = byId.get(silent.id)!;
    expect([none[2], none[3], none[4], none[5], none[6], none[12]]).toEqual([
      '山田',
      '\'=cmd|" /C calc"!A0',
      '',
      'none',
      '',
      '0',
    ]);

    const best = parseCsv(
      String((await call(t, 'GET', csvUrl('best'), { token: w.tokens.staff })).body).slice(1),
    );
    const classmateBest = best.find((r) => Number(r[0]) === w.users.classmate.id)!;
    expect([classmateBest[4], classmateBest[5], classmateBest[6], classmateBest[9]]).toEqual([
      String(late.id),
      'best',
      '3',
      'true',
    ]);
  });

  it('is for managers only, and checks its query', async () => {
    expect((await call(t, 'GET', csvUrl(), { token: w.tokens.student })).status).toBe(403);
    expect((await call(t, 'GET', csvUrl(), { token: w.tokens.otherEditor })).status).toBe(404);
    expect((await call(t, 'GET', csvUrl('worst'), { token: w.tokens.editor })).status).toBe(400);
    expect((await call(t, 'GET', '/api/Submission/csv/', { token: w.tokens.editor })).status).toBe(400);
    const other = await createSubmissionWorld(t);
    const wrong = `/api/Submission/csv/?assignment_id=${other.assignment.id}&course_id=${w.course.id}`;
    expect((await call(t, 'GET', wrong, { token: w.tokens.editor })).status).toBe(404);
  });

  const board = async (token: string | undefined) => {
    const res = await call(t, 'GET', `/api/Leaderboard/${w.assignment.id}/${w.course.id}`, { token });
    expect(res.status).toBe(200);
    return Leaderboard.parse(res.body);
  };

  it('ranks by best score; students see nicknames only, managers real names', async () => {
    const seen = await board(w.tokens.student);
    expect(seen.enabled).toBe(true);
    expect(seen.max_score).toBe(3);
    expect(seen.entries.map((e) => [e.rank, e.score, e.is_me])).toEqual([
      [1, 3, false],
      [2, 1, true],
    ]);
    const [top, me] = seen.entries;
    expect(top!.name).toMatch(/^Anonymous [A-Z2-9]{4}$/);
    expect(top!.user_id).toBeNull();
    expect([top!.first_name, top!.last_name]).toEqual([null, null]);
    expect(me!.user_id).toBe(w.users.student.id);
    const raw = JSON.stringify(seen);
    expect(raw).not.toContain('Cleo');
    expect(raw).not.toContain('Classmate');
    expect(raw).not.toContain('@');
    // Stable: the same default name on every call.
    expect((await board(w.tokens.student)).entries[0]!.name).toBe(top!.name);

    const managers = await board(w.tokens.editor);
    expect(managers.entries.map((e) => [e.name, e.user_id])).toEqual([
      ['Cleo Classmate', w.users.classmate.id],
      ['Sana Student', w.users.student.id],
    ]);
    // The parts too, for the page to write in its reader's order.
    expect(managers.entries.map((e) => [e.first_name, e.last_name])).toEqual([
      ['Cleo', 'Classmate'],
      ['Sana', 'Student'],
    ]);
  });

  it('breaks ties by the earlier submission', async () => {
    const other = await createSubmissionWorld(t);
    const key = { assignmentId: other.assignment.id, courseId: other.course.id };
    const early = await quickUser(t);
    const later = await quickUser(t);
    await addStudent(t, other.course.id, early.id);
    await addStudent(t, other.course.id, later.id);
    await insertSubmission(t, { ...key, userId: later.id, score: 2, createdAt: at(5) });
    await insertSubmission(t, { ...key, userId: early.id, score: 2, createdAt: at(1) });
    await insertSubmission(t, { ...key, userId: early.id, score: 2, createdAt: at(9) });
    const res = await call(t, 'GET', `/api/Leaderboard/${other.assignment.id}/${other.course.id}`, {
      token: other.tokens.staff,
    });
    const entries = Leaderboard.parse(res.body).entries;
    expect(entries.map((e) => e.user_id)).toEqual([early.id, later.id, other.users.student.id]);
    expect(entries[0]!.submitted_at).toBe(at(1).toISOString());
  });

  it('uses chosen nicknames, unique case-insensitively, and leaves opted-out students out for others', async () => {
    const put = (token: string, body: unknown) => call(t, 'PUT', '/api/LeaderboardProfile/', { token, body });
    const set = await put(w.tokens.classmate, { nickname: 'Ｃｏｄｅ Cat' });
    expect(LeaderboardProfile.parse(set.body)).toEqual({ nickname: 'Code Cat', opt_out: false });
    expect((await board(w.tokens.student)).entries[0]!.name).toBe('Code Cat');
    const taken = await put(w.tokens.student, { nickname: 'code cat' });
    expect([taken.status, taken.json.code]).toEqual([409, 'nickname_taken']);
    expect((await put(w.tokens.student, { nickname: 'anonymous X1' })).status).toBe(400);
    expect((await put(w.tokens.student, { nickname: 'a\u202Eb' })).status).toBe(400);
    expect((await put(w.tokens.student, { nickname: '   ' })).status).toBe(400);
    expect((await put(w.tokens.student, { nickname: 'x'.repeat(41) })).status).toBe(400);
    expect((await put(w.tokens.student, { color: 'red' })).status).toBe(400);

    expect((await put(w.tokens.classmate, { opt_out: true })).json).toEqual({
      nickname: 'Code Cat',
      opt_out: true,
    });
    const forStudent = await board(w.tokens.student);
    expect(forStudent.entries.map((e) => [e.rank, e.is_me])).toEqual([[1, true]]);
    const forThemself = await board(w.tokens.classmate);
    expect(forThemself.entries.map((e) => [e.name, e.is_me])).toEqual([
      ['Code Cat', true],
      [expect.stringMatching(/^Anonymous /), false],
    ]);
    expect(forThemself.my_profile).toEqual({ nickname: 'Code Cat', opt_out: true });
    expect((await board(w.tokens.editor)).entries).toHaveLength(2);
    // Back to the default name; the opt-out stays as it was.
    expect((await put(w.tokens.classmate, { nickname: null })).json).toEqual({
      nickname: null,
      opt_out: true,
    });
    const profile = await call(t, 'GET', '/api/LeaderboardProfile/', {
      token: await tokenFor(t, w.users.classmate),
    });
    expect(profile.json).toEqual({ nickname: null, opt_out: true });
  });

  it('shows students no entries while disabled, and nothing before the assignment opens', async () => {
    await setLink(t, w.assignment.id, w.course.id, { leaderboardEnabled: false });
    const off = await board(w.tokens.student);
    expect([off.enabled, off.entries]).toEqual([false, []]);
    expect((await board(w.tokens.editor)).entries.length).toBeGreaterThan(0);
    await setLink(t, w.assignment.id, w.course.id, {
      leaderboardEnabled: true,
      opensAt: hoursFromNow(1),
      dueAt: hoursFromNow(2),
    });
    const early = await call(t, 'GET', `/api/Leaderboard/${w.assignment.id}/${w.course.id}`, {
      token: w.tokens.student,
    });
    expect(early.status).toBe(404);
    expect((await board(w.tokens.editor)).enabled).toBe(true);
  });
});
