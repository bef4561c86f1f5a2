import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addEditor, addStudent, createCourse, createUser, tokenFor } from './factories.ts';
import { call, createTestApp, type TestApp } from './harness.ts';

/** The rules every route shares (docs/development.md, "Input"), seen through real routes. */
let t: TestApp;
let student: { id: number };
let studentToken: string;
let editorToken: string;
let courseId: number;

beforeAll(async () => {
  t = await createTestApp();
  const course = await createCourse(t, { title: 'Algorithms' });
  courseId = course.id;
  student = await createUser(t);
  const editor = await createUser(t);
  await addStudent(t, course.id, student.id);
  await addEditor(t, course.id, editor.id);
  studentToken = await tokenFor(t, student);
  editorToken = await tokenFor(t, editor);
});
afterAll(() => t.close());

describe('text', () => {
  it('refuses NUL in a student’s own name with 400 naming the field, and changes nothing', async () => {
    const before = await call(t, 'GET', `/api/Auth/User/${student.id}/`, { token: studentToken });
    const res = await call(t, 'PATCH', `/api/Auth/User/${student.id}/`, {
      token: studentToken,
      body: { first_name: 'Ta\u0000ro' },
    });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({
      code: 'invalid',
      first_name: ['Control characters (U+0000) are not allowed.'],
    });
    const after = await call(t, 'GET', `/api/Auth/User/${student.id}/`, { token: studentToken });
    expect(after.json.first_name).toBe(before.json.first_name);
  });

  it('refuses an unpaired surrogate in a forum post', async () => {
    const res = await call(t, 'POST', '/api/Forum/Record/', {
      token: studentToken,
      body: { course: courseId, title: 'Question', content: 'half a \ud83d character' },
    });
    expect(res.status).toBe(400);
    expect(res.json.content).toEqual(['Contains an unpaired surrogate: not valid Unicode text.']);
  });

  it('refuses control characters in a query string too', async () => {
    const res = await call(t, 'GET', '/api/Course/', { token: studentToken, query: { search: 'a\u0007' } });
    expect(res.status).toBe(400);
    expect(res.json).toHaveProperty('search');
  });

  it('keeps tabs and newlines, and stores a name typed in NFD as NFC', async () => {
    const res = await call(t, 'PATCH', `/api/Auth/User/${student.id}/`, {
      token: studentToken,
      body: { first_name: ' か\u3099くせい ', last_name: 'Yamada' },
    });
    expect(res.status).toBe(200);
    expect(res.json.first_name).toBe('がくせい');
    const post = await call(t, 'POST', '/api/Forum/Record/', {
      token: studentToken,
      body: { course: courseId, title: 'Tabs', content: 'def f():\r\n\treturn 1\n' },
    });
    expect(post.status).toBe(201);
    expect(post.json.content).toBe('def f():\r\n\treturn 1\n');
  });
});

describe('an empty PATCH', () => {
  it('is 400 nothing_to_change on every kind of object, before its handler runs', async () => {
    for (const [url, token] of [
      [`/api/Course/${courseId}/`, editorToken],
      [`/api/Auth/User/${student.id}/`, studentToken],
      ['/api/quiz-courses/999999/', editorToken],
    ] as const) {
      const res = await call(t, 'PATCH', url, { token, body: {} });
      expect(res.status, url).toBe(400);
      expect(res.json).toEqual({
        detail: 'Nothing to change: send at least one field.',
        code: 'nothing_to_change',
      });
    }
  });

  it('still needs a signed-in caller first', async () => {
    const res = await call(t, 'PATCH', `/api/Course/${courseId}/`, { body: {} });
    expect(res.status).toBe(401);
  });
});

describe('addresses the router refuses', () => {
  it('answers broken percent-encoding with 400 bad_url in the one error shape', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/Download/%ED%A0%80' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ detail: 'The address is not valid.', code: 'bad_url' });
  });

  it('answers a path segment over 1,000 characters with 414 uri_too_long', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/api/calendar/${'a'.repeat(1200)}` });
    expect(res.statusCode).toBe(414);
    expect(res.json()).toEqual({ detail: 'The address is too long.', code: 'uri_too_long' });
  });
});
