import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { json, stubFetch, type RecordedRequest } from '../../test/fetch.ts';
import { renderApp } from '../../test/render.tsx';
import { signInAsStudent } from '../../test/session.ts';
import { PHONE_QUERY } from '../../ui/useIsPhone.ts';
import { QUIZ_COURSE, inCourse, quizServer } from '../quizzes/quiz-fixtures.ts';
import { ASSIGNMENT_DETAIL } from '../submissions/submission-fixtures.ts';
import { LOOPS, course } from './extension-fixtures.ts';
import { stubScreenMatching } from '../../test/media.ts';

// Pages load their code on demand: the first render of each takes a while in jsdom.
vi.setConfig({ testTimeout: 20_000 });
const SLOW = { timeout: 8000 };

/** A student's course whose assignment 1 (list) and 5 (detail) carry their own dates. */
function assignmentServer(request: RecordedRequest) {
  const path = new URL(request.url, 'http://test').pathname;
  if (path === '/api/Config/')
    return json(200, { product_name: 'Kadai', google_client_id: null, provider_url: '' });
  if (path === '/api/Course/1/') return json(200, course('student'));
  if (path === '/api/Assignment/CourseSpecific/')
    return json(200, {
      count: 2,
      results: [
        { ...LOOPS, extended: true, submitted_students: null },
        { ...LOOPS, id: 2, title: 'Strings', submitted_students: null },
      ],
    });
  if (path === '/api/Assignment/5/CourseSpecificDetail/')
    return json(200, { ...ASSIGNMENT_DETAIL, course: { ...ASSIGNMENT_DETAIL.course, extended: true } });
  return json(404, { detail: 'Not found.', code: 'not_found' });
}

const extendedQuiz = inCourse({ quiz_course: { ...QUIZ_COURSE, extended: true } });
const quizList = quizServer('student', extendedQuiz, (_request, url) =>
  url.pathname === '/api/Quiz/CourseSpecific/' ? json(200, { count: 1, results: [extendedQuiz] }) : undefined,
);

beforeEach(() => signInAsStudent());

describe('a student’s own dates', () => {
  it('are marked "Extended for you" in the assignment list, on that assignment only', async () => {
    stubFetch(assignmentServer);
    renderApp('/course/1/assignment');
    const table = await screen.findByRole('table', { name: 'Assignments' }, SLOW);
    const [, loops, strings] = within(table).getAllByRole('row');
    expect(within(loops!).getByText('Extended for you')).toBeTruthy();
    expect(within(strings!).queryByText('Extended for you')).toBeNull();
  });

  it('are marked on the phone cards too', async () => {
    stubScreenMatching(PHONE_QUERY);
    stubFetch(assignmentServer);
    renderApp('/course/1/assignment');
    const list = await screen.findByRole('list', { name: 'Assignments' }, SLOW);
    const [loops, strings] = within(list).getAllByRole('listitem');
    expect(within(loops!).getByText('Extended for you')).toBeTruthy();
    expect(within(strings!).queryByText('Extended for you')).toBeNull();
  });

  it('are marked beside the due date on the assignment page', async () => {
    stubFetch(assignmentServer);
    renderApp('/course/1/assignment/5');
    const due = await screen.findByText('Due', { selector: 'dt' }, SLOW);
    expect(within(due.parentElement!).getByText('Extended for you')).toBeTruthy();
  });

  it('are marked beside the closing time in the quiz list and on the quiz page', async () => {
    stubFetch(quizList);
    const { router } = renderApp('/course/1/quizzes');
    const open = await screen.findByRole('table', { name: 'Open (1)' }, SLOW);
    expect(within(open).getByText('Extended for you')).toBeTruthy();
    await router.navigate('/course/1/quizzes/3/quiz-courses/7');
    const closes = await screen.findByText('Closes', { selector: 'dt' }, SLOW);
    expect(within(closes.parentElement!).getByText('Extended for you')).toBeTruthy();
  });
});
