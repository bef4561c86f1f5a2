import { expect, type APIRequestContext } from '@playwright/test';
import { ForumFile, ForumRecord, type ForumRecordCreate } from '@kadai/contracts';
import { ACCOUNTS, apiToken, unique } from './support.ts';
import { randomPassword } from './api-client.ts';

/** Forum data made through the API (the journeys make theirs in the browser). */
export interface ForumClient {
  id: number;
  email: string;
  token: string;
}

async function call(
  request: APIRequestContext,
  client: Pick<ForumClient, 'token'>,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  data?: unknown,
): Promise<unknown> {
  const response = await request.fetch(`/api${path}`, {
    method,
    data,
    headers: { authorization: `Bearer ${client.token}` },
  });
  expect(response.ok(), `${method} ${path}: ${response.status()} ${await response.text()}`).toBe(true);
  return response.status() === 204 ? null : response.json();
}

/** A demo account signed in through the API. */
export async function forumClient(request: APIRequestContext, email: string): Promise<ForumClient> {
  const { token, id } = await apiToken(request, email);
  return { id, email, token };
}

export const forumPath = (courseId: number) => `/course/${courseId}/forum`;
export const postPath = (courseId: number, recordId: number) => `/course/${courseId}/forum/${recordId}`;

/** A topic (a discussion unless `is_announcement`); the author must be a member, or staff. */
export async function createTopic(
  request: APIRequestContext,
  author: ForumClient,
  post: ForumRecordCreate,
): Promise<ForumRecord> {
  return ForumRecord.parse(await call(request, author, 'POST', '/Forum/Record/', post));
}

export async function createComment(
  request: APIRequestContext,
  author: ForumClient,
  topic: Pick<ForumRecord, 'id' | 'course_id'>,
  content: string,
): Promise<ForumRecord> {
  return createTopic(request, author, { course: topic.course_id, parent_record: topic.id, content });
}

export async function upvote(request: APIRequestContext, who: ForumClient, recordId: number): Promise<void> {
  await call(request, who, 'PUT', `/Forum/Record/${recordId}/upvote/`);
}

/** Uploads one file into the uploader's tray of the course; a post claims it through `attachments`. */
export async function uploadForumFile(
  request: APIRequestContext,
  uploader: ForumClient,
  courseId: number,
  file: { name: string; mimeType: string; buffer: Buffer },
): Promise<ForumFile> {
  const response = await request.post(`/api/Forum/ForumFileUpload/${courseId}/`, {
    multipart: { file },
    headers: { authorization: `Bearer ${uploader.token}` },
  });
  expect(response.status(), `upload ${file.name}: ${await response.text()}`).toBe(201);
  const files = ForumFile.array().parse(await response.json());
  expect(files).toHaveLength(1);
  return files[0]!;
}

export async function signedUrlOf(
  request: APIRequestContext,
  who: ForumClient,
  fileId: number,
): Promise<string> {
  const body = (await call(request, who, 'GET', `/Forum/ForumSignedURL/?file=${fileId}`)) as { url: string };
  return body.url;
}

/**
 * A new student of the course with the given (possibly hostile) names, so a journey can post as
 * someone whose name no other journey reads. Staff open the account, the set-password link is used
 * through the API, and staff enrol the student.
 */
export async function freshStudent(
  request: APIRequestContext,
  courseId: number,
  names: { first_name: string; last_name: string },
): Promise<ForumClient> {
  const staff = await forumClient(request, ACCOUNTS.staff);
  const email = `${unique('forum-student')}@example.com`;
  const created = (await call(request, staff, 'POST', '/Auth/User/', {
    email,
    ...names,
    roles: ['student'],
    display_lang: 'en-US',
  })) as { user: { id: number }; set_password: { uid: string; token: string } };
  const password = randomPassword();
  const reset = await request.post('/api/Auth/password/reset/confirm/', {
    data: {
      uid: created.set_password.uid,
      token: created.set_password.token,
      new_password1: password,
      new_password2: password,
    },
  });
  expect(reset.ok(), `set the password of ${email}: ${await reset.text()}`).toBe(true);
  await call(request, staff, 'POST', `/StudentList/${courseId}/`, { user_ids: [created.user.id] });
  const login = await request.post('/api/Auth/Email/Login/', { data: { email, password } });
  expect(login.status(), `API sign-in of ${email}`).toBe(200);
  const body = (await login.json()) as { access: string; user: { pk: number } };
  return { id: body.user.pk, email, token: body.access };
}

export interface ForumAxeData {
  courseId: number;
  /** A discussion by a student: Markdown of every common kind, a code block, an attachment, comments. */
  discussion: ForumRecord;
}

const AXE_CONTENT = [
  '## Setting up Python',
  '',
  'Install **Python 3.12** and check it with `python --version`. See the [docs](https://docs.python.org/3/).',
  '',
  '- one',
  '- two',
  '',
  '> A quote from the textbook.',
  '',
  '```python',
  'def greet(name):',
  '    return f"Hello, {name}!"',
  '```',
  '',
  '| Week | Topic |',
  '| ---- | ----- |',
  '| 1 | Values |',
].join('\n');

/** A discussion with an attachment, two comments and an upvote, for the accessibility checks. */
export async function forumAxeData(request: APIRequestContext, courseId: number): Promise<ForumAxeData> {
  const student = await forumClient(request, ACCOUNTS.savedStudent);
  const editor = await forumClient(request, ACCOUNTS.editor);
  const file = await uploadForumFile(request, student, courseId, {
    name: 'notes.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('print("hello")\n'),
  });
  const discussion = await createTopic(request, student, {
    course: courseId,
    title: unique('Axe discussion'),
    content: AXE_CONTENT,
    attachments: [file.id],
  });
  await createComment(request, editor, discussion, 'Good question: `pip` comes with it.');
  await createComment(request, student, discussion, 'Thank you!');
  await upvote(request, editor, discussion.id);
  return { courseId, discussion };
}
