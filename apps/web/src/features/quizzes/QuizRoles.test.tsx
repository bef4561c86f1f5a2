import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { AnswerKey, AnswerValue, MyQuizSubmission, QuizInCourse } from '@kadai/contracts';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { json, stubFetch } from '../../test/fetch.ts';
import { formatDateTimeRange } from '../../i18n/format.ts';
import { renderApp } from '../../test/render.tsx';
import { signInAsStudent } from '../../test/session.ts';
import { useSession } from '../auth/session.ts';
import { CONTENT, QUESTIONS, QUIZ_COURSE, SUBMISSION, inCourse, iso, quizServer } from './quiz-fixtures.ts';

// Pages load their code on demand: the first render of each takes a while in jsdom.
vi.setConfig({ testTimeout: 20_000 });
const SLOW = { timeout: 5000 };
const DAY = 86_400_000;

beforeEach(() => {
  sessionStorage.clear();
  signInAsStudent();
});

const upcoming: QuizInCourse = inCourse({
  quiz_id: 5,
  title: 'Functions',
  quiz_course: {
    ...QUIZ_COURSE,
    id: 9,
    quiz_id: 5,
    opens_at: iso(DAY),
    closes_at: iso(2 * DAY),
    state: 'upcoming',
    time_limit_minutes: 20,
  },
});
const submittedOpen: QuizInCourse = inCourse({
  my_submission: {
    id: 42,
    status: 'submitted',
    started_at: iso(-60_000),
    submitted_at: iso(-30_000),
    deadline: QUIZ_COURSE.closes_at,
    score: 6,
  },
});

function listServer(role: 'student' | 'editor', rows: QuizInCourse[]) {
  return quizServer(role, inCourse(), (request, url) => {
    if (url.pathname === '/api/Quiz/CourseSpecific/') {
      const hide = url.searchParams.get('hide_submitted') === 'true';
      const results = hide ? rows.filter((row) => row.my_submission?.status !== 'submitted') : rows;
      return json(200, { count: results.length, results });
    }
    if (url.pathname === '/api/Quiz/3/' && request.method === 'DELETE')
      return new Response(null, { status: 204 });
    return undefined;
  });
}

describe('the quiz list', () => {
  it('shows a student the groups, their submission and score, and hides submitted ones on request', async () => {
    const { requests, router } = (() => {
      const fetch = stubFetch(listServer('student', [submittedOpen, upcoming]));
      return { ...fetch, ...renderApp('/course/1/quizzes') };
    })();
    const open = await screen.findByRole('table', { name: 'Open (1)' }, SLOW);
    expect(within(open).getByRole('link', { name: 'Week 1 check' })).toBeTruthy();
    expect(within(open).getByText('Submitted')).toBeTruthy();
    expect(within(open).getByText('6 / 8')).toBeTruthy();
    // The window in the app's one date-time format at both ends, the zone once.
    const quizWindow = formatDateTimeRange(QUIZ_COURSE.opens_at, QUIZ_COURSE.closes_at, 'en-US', {
      zone: true,
    });
    expect(within(open).getByText(quizWindow)).toBeTruthy();
    expect(quizWindow).toMatch(
      /^\w{3}, \w{3} \d+, \d{4}, \d{2}:\d{2} – \w{3}, \w{3} \d+, \d{4}, \d{2}:\d{2} \S+$/,
    );
    const later = screen.getByRole('table', { name: 'Upcoming (1)' });
    expect(within(later).getByText('20 minutes')).toBeTruthy();
    expect(within(later).getByText('Not submitted')).toBeTruthy();
    expect(screen.getByText('No closed quizzes.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'New quiz' })).toBeNull();
    expect(screen.queryByRole('columnheader', { name: 'Actions' })).toBeNull();

    fireEvent.click(screen.getByRole('switch', { name: 'Hide submitted quizzes' }));
    await waitFor(() => expect(router.state.location.search).toBe('?hide_submitted=true'));
    await waitFor(() =>
      expect(
        requests.some((r) => r.url.includes('/api/Quiz/CourseSpecific/?course_id=1&hide_submitted=true')),
      ).toBe(true),
    );
    expect(await screen.findByRole('table', { name: 'Upcoming (1)' })).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Week 1 check' })).toBeNull());
  });

  it('gives editors "New quiz", the submitted counts and edit, results and delete', async () => {
    const row = inCourse({ can_edit: true, submitted_students: 2 });
    const { requests } = stubFetch(listServer('editor', [row]));
    renderApp('/course/1/quizzes');
    const open = await screen.findByRole('table', { name: 'Open (1)' }, SLOW);
    expect(screen.getByRole('button', { name: 'New quiz' })).toBeTruthy();
    expect(within(open).getByRole('columnheader', { name: 'Students submitted' })).toBeTruthy();
    expect(within(open).getByRole('cell', { name: '2' })).toBeTruthy();
    expect(within(open).getByRole('button', { name: 'Edit Week 1 check' })).toBeTruthy();
    expect(within(open).getByRole('link', { name: 'Results of Week 1 check' }).getAttribute('href')).toBe(
      '/course/1/quizzes/3/quiz-courses/7?tab=results',
    );

    fireEvent.click(within(open).getByRole('button', { name: 'Delete Week 1 check' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('Sure to delete the data?');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() =>
      expect(requests.some((r) => r.url === '/api/Quiz/3/' && r.method === 'DELETE')).toBe(true),
    );
  });
});

describe('the quiz page by role and moment', () => {
  it('editors get the preview and results tabs, not the form', async () => {
    const editorQuiz = {
      view: 'editor',
      id: 3,
      title: 'Week 1 check',
      description: '',
      created_by: 2,
      created_at: iso(-DAY),
      updated_at: iso(-DAY),
      question_count: 1,
      total_points: 1,
      courses: [QUIZ_COURSE],
      submission_count: 0,
      questions: [
        {
          ...QUESTIONS[0],
          view: 'editor',
          shuffle_options: false,
          answer_key: { correct: 'a' },
          explanation: 'Floor division.',
        },
      ],
    };
    stubFetch(
      quizServer('editor', inCourse({ can_edit: true, submitted_students: 0 }), (request, url) =>
        url.pathname === '/api/Quiz/3/' ? json(200, editorQuiz) : undefined,
      ),
    );
    renderApp('/course/1/quizzes/3/quiz-courses/7');
    expect(await screen.findByRole('tab', { name: 'Overview and preview' }, SLOW)).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Results' })).toBeTruthy();
    const preview = await screen.findByRole('region', { name: 'Preview' });
    expect(within(preview).getByRole('radiogroup', { name: 'Question 1' })).toBeTruthy();
    fireEvent.click(within(preview).getByRole('switch', { name: 'Show correct answers' }));
    expect(within(preview).getByText('Floor division.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Submit answers' })).toBeNull();
  });

  it('a timed quiz shows Start first and the questions once started', async () => {
    let started = false;
    const timed = { ...QUIZ_COURSE, time_limit_minutes: 30 };
    const { requests } = stubFetch((request) => {
      const url = new URL(request.url, 'http://test');
      if (url.pathname === '/api/quiz-submissions/create/') {
        started = true;
        return json(201, { ...SUBMISSION, status: 'in_progress', submitted_at: null, score: null });
      }
      const attempt = {
        id: 42,
        status: 'in_progress',
        started_at: iso(0),
        submitted_at: null,
        deadline: iso(30 * 60_000),
        score: null,
      } satisfies MyQuizSubmission;
      if (url.pathname === '/api/Quiz/3/CourseSpecificDetail/')
        return json(200, inCourse({ quiz_course: timed, my_submission: started ? attempt : null }));
      if (url.pathname === '/api/Quiz/3/QuizContent/')
        return json(200, { ...CONTENT, quiz_course: timed, my_submission: attempt });
      return quizServer('student', inCourse())(request);
    });
    renderApp('/course/1/quizzes/3/quiz-courses/7');
    const start = await screen.findByRole('button', { name: 'Start quiz' }, SLOW);
    expect(screen.queryByRole('region', { name: 'Question 1' })).toBeNull();
    expect(requests.some((r) => r.url.includes('QuizContent'))).toBe(false);
    fireEvent.click(start);
    await waitFor(() => expect(requests.some((r) => r.url === '/api/quiz-submissions/create/')).toBe(true));
    expect(requests.find((r) => r.url === '/api/quiz-submissions/create/')?.body).toEqual({ quiz_course: 7 });
    expect(await screen.findByRole('region', { name: 'Question 1' })).toBeTruthy();
    expect(screen.getByRole('timer').textContent).toMatch(/^(30:00|29:5\d)$/);
  });

  it('tells the student when the time is up and no longer lets them submit', async () => {
    const timed = { ...QUIZ_COURSE, time_limit_minutes: 30 };
    const attempt = {
      id: 42,
      status: 'in_progress',
      started_at: iso(-31 * 60_000),
      submitted_at: null,
      deadline: iso(-60_000),
      score: null,
    } satisfies MyQuizSubmission;
    const { requests } = stubFetch(
      quizServer('student', inCourse({ quiz_course: timed, my_submission: attempt }), (request, url) =>
        url.pathname === '/api/Quiz/3/QuizContent/'
          ? json(200, { ...CONTENT, quiz_course: timed, my_submission: attempt })
          : undefined,
      ),
    );
    renderApp('/course/1/quizzes/3/quiz-courses/7');
    // Shown, and announced once.
    expect(
      await screen.findAllByText('Time is up: answers can no longer be submitted.', {}, SLOW),
    ).toHaveLength(2);
    expect(screen.getByRole('timer').textContent).toBe('00:00');
    const submit = screen.getByRole('button', { name: 'Submit answers' });
    expect(submit).toHaveProperty('disabled', true);
    expect(
      within(screen.getByRole('region', { name: 'Question 1' })).getByRole('radio', { name: '3' }),
    ).toHaveProperty('disabled', true);
    expect(requests.some((r) => r.url.includes('SubmitQuiz'))).toBe(false);
  });

  it('once submitted, the summary and a link to it instead of the form', async () => {
    stubFetch(quizServer('student', submittedOpen));
    renderApp('/course/1/quizzes/3/quiz-courses/7');
    const summary = await screen.findByRole('region', { name: 'You submitted this quiz' }, SLOW);
    expect(within(summary).getByText('6 / 8')).toBeTruthy();
    expect(within(summary).getByRole('link', { name: 'View my answers' }).getAttribute('href')).toBe(
      '/course/1/quizzes/3/quiz-submissions/42',
    );
    expect(screen.queryByRole('button', { name: 'Submit answers' })).toBeNull();
  });
});

describe('the submission page', () => {
  /** The review views of the questions: keys and explanations, as the server sends once answers show. */
  const KEYS: Record<number, AnswerKey> = {
    11: { correct: 'a' },
    12: { correct: ['list', 'dict'] },
    13: { correct: true },
    14: { mode: 'exact', accepted: ['for'], case_sensitive: false },
    15: { value: 8, tolerance: 0 },
    16: { order: ['write', 'save', 'run'] },
  };
  const REVIEW = SUBMISSION.questions.map((question) => ({
    ...question,
    view: 'review' as const,
    answer_key: KEYS[question.id]!,
    explanation: question.id === 11 ? 'Floor division.' : '',
  }));
  const GIVEN: Record<number, AnswerValue> = {
    11: 'b',
    12: ['list', 'tuple'],
    13: true,
    14: 'while',
    15: 8,
    16: ['write', 'save', 'run'],
  };
  const ANSWERS = SUBMISSION.answers.map((answer) => ({
    ...answer,
    answer: GIVEN[answer.question_id] ?? null,
    is_correct: [13, 15, 16].includes(answer.question_id),
    points: [13, 15, 16].includes(answer.question_id) ? 1 : 0,
  }));

  /** Each option of question `number` as its text and its marks ("3.5 · Your answer"). */
  async function optionsOf(number: number) {
    const region = await screen.findByRole('region', { name: `Question ${number}` }, SLOW);
    const list = within(region).getByRole('list', { name: `Options of question ${number}` });
    return within(list)
      .getAllByRole('listitem')
      .map((item) =>
        [...item.children]
          .map((child) => child.textContent)
          .filter(Boolean)
          .join(' · '),
      );
  }

  it('lists every option with the student’s choice and, once answers show, the correct ones marked', async () => {
    stubFetch(
      quizServer('student', submittedOpen, (request, url) =>
        url.pathname === '/api/QuizSubmission/43/'
          ? json(200, { ...SUBMISSION, id: 43, answers_visible: true, questions: REVIEW, answers: ANSWERS })
          : undefined,
      ),
    );
    renderApp('/course/1/quizzes/3/quiz-submissions/43');
    const first = await screen.findByRole('region', { name: 'Question 1' }, SLOW);
    expect(within(first).getByText('Incorrect')).toBeTruthy();
    expect(await optionsOf(1)).toEqual(['3 · Correct answer', '3.5 · Your answer']);
    // Each mark has its own icon shape too, not only a colour.
    const [right, chosenWrong] = within(first).getAllByRole('listitem');
    expect(right!.querySelector('svg.tabler-icon-circle-check')).not.toBeNull();
    expect(chosenWrong!.querySelector('svg.tabler-icon-circle-x')).not.toBeNull();
    expect(within(first).getByText('Floor division.')).toBeTruthy();
    // Multiple choice: both of the student's choices, both correct options, one of them the same.
    expect(await optionsOf(2)).toEqual([
      'list · Your answer · Correct answer',
      'tuple · Your answer',
      'dict · Correct answer',
    ]);
    // True/false reads as its two options.
    expect(await optionsOf(3)).toEqual(['True · Your answer · Correct answer', 'False']);
    // Text, numbers and orders stay in words.
    const fourth = screen.getByRole('region', { name: 'Question 4' });
    expect(fourth.textContent).toContain('Your answer: while');
    expect(fourth.textContent).toContain('Correct answer: for');
    expect(screen.getByRole('region', { name: 'Question 6' }).textContent).toContain(
      'Correct answer: 1. Write → 2. Save → 3. Run',
    );
    expect(screen.queryByText('Not everything is visible yet')).toBeNull();
  });

  it('marks only the student’s choice while the correct answers are hidden', async () => {
    const answers = ANSWERS.map((answer) => ({ ...answer, is_correct: null, points: null }));
    stubFetch(
      quizServer('student', submittedOpen, (request, url) =>
        url.pathname === '/api/QuizSubmission/44/'
          ? json(200, { ...SUBMISSION, id: 44, scores_visible: false, answers })
          : undefined,
      ),
    );
    renderApp('/course/1/quizzes/3/quiz-submissions/44');
    expect(await optionsOf(1)).toEqual(['3', '3.5 · Your answer']);
    expect(await optionsOf(3)).toEqual(['True · Your answer', 'False']);
    expect(screen.queryByText('Correct answer')).toBeNull();
  });

  it('says “Chosen” rather than “Your answer” to an editor reading a student’s submission', async () => {
    useSession.setState({ userId: 2, roles: ['instructor'], editorCourses: [1] });
    const editorViews = REVIEW.map((question) => ({
      ...question,
      view: 'editor' as const,
      shuffle_options: false,
    }));
    stubFetch(
      quizServer('editor', inCourse({ can_edit: true }), (request, url) =>
        url.pathname === '/api/QuizSubmission/45/'
          ? json(200, {
              ...SUBMISSION,
              id: 45,
              answers_visible: true,
              questions: editorViews,
              answers: ANSWERS,
            })
          : undefined,
      ),
    );
    renderApp('/course/1/quizzes/3/quiz-submissions/45');
    expect(await optionsOf(1)).toEqual(['3 · Correct answer', '3.5 · Chosen']);
    expect(screen.getByRole('region', { name: 'Question 4' }).textContent).toContain('Answer: while');
  });

  it('says when answers will be visible while they are not', async () => {
    stubFetch(quizServer('student', submittedOpen));
    renderApp('/course/1/quizzes/3/quiz-submissions/42');
    const note = await screen.findByText('Not everything is visible yet', {}, SLOW);
    expect(note.closest('[role="alert"], .mantine-Alert-root')?.textContent).toContain(
      'Correct answers and explanations: Not yet: your instructor will release them.',
    );
    expect(screen.queryByText('Correct answer')).toBeNull();
    // Nothing chosen: the options are listed unmarked, and the answer is said to be missing.
    expect(await optionsOf(1)).toEqual(['3', '3.5']);
    expect(screen.getByRole('region', { name: 'Question 1' }).textContent).toContain(
      'Your answer: No answer',
    );
  });
});
