import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { json, stubFetch } from '../../test/fetch.ts';
import { renderApp } from '../../test/render.tsx';
import { signInAsStudent } from '../../test/session.ts';
import { draftKey } from './answers.ts';
import { inCourse, quizServer, SUBMISSION, type Route } from './quiz-fixtures.ts';

// Pages load their code on demand: the first render of each takes a while in jsdom.
vi.setConfig({ testTimeout: 20_000 });

const PAGE = '/course/1/quizzes/3/quiz-courses/7';
const SUBMIT_URL = '/api/Submission/SubmitQuiz/';

beforeEach(() => {
  sessionStorage.clear();
  signInAsStudent();
});

const question = (number: number) => screen.getByRole('region', { name: `Question ${number}` });

async function openQuiz(...extra: Route[]) {
  const fetch = stubFetch(quizServer('student', inCourse(), ...extra));
  const view = renderApp(PAGE);
  // The first render loads the page's code on demand.
  await screen.findByRole('heading', { level: 1, name: 'Week 1 check' }, { timeout: 5000 });
  await screen.findByRole('region', { name: 'Question 6' });
  return { ...fetch, ...view };
}

/** Answers questions 1–5; question 6 (ordering) only when `all`. */
function answer({ all }: { all: boolean }) {
  fireEvent.click(within(question(1)).getByRole('radio', { name: '3' }));
  fireEvent.click(within(question(2)).getByRole('checkbox', { name: 'list' }));
  fireEvent.click(within(question(2)).getByRole('checkbox', { name: 'dict' }));
  fireEvent.click(within(question(3)).getByRole('radio', { name: 'False' }));
  fireEvent.change(within(question(4)).getByRole('textbox', { name: 'Answer to question 4' }), {
    target: { value: ' for ' },
  });
  fireEvent.change(within(question(5)).getByRole('textbox', { name: 'Answer to question 5 (a number)' }), {
    target: { value: '8' },
  });
  if (all) {
    // Write, Save, Run: move "Write" up, then "Run" down to the end.
    fireEvent.click(within(question(6)).getByRole('button', { name: 'Move “Write” up' }));
    fireEvent.click(within(question(6)).getByRole('button', { name: 'Move “Run” down' }));
  }
}

/** The alert on the page (not the notification, also an alert) that says `text`. */
async function alertSaying(text: string): Promise<HTMLElement> {
  let found: HTMLElement | undefined;
  await waitFor(() => {
    found = screen.getAllByRole('alert').find((alert) => alert.textContent?.includes(text));
    expect(found).toBeDefined();
  });
  return found!;
}

const submitted = (requests: { url: string; method: string }[]) =>
  requests.filter((r) => r.url === SUBMIT_URL && r.method === 'POST');

describe('answering a quiz', () => {
  it('tracks progress as questions are answered', async () => {
    await openQuiz();
    expect(screen.getByText('Answered 0 of 6')).toBeTruthy();
    answer({ all: false });
    expect(screen.getByText('Answered 5 of 6')).toBeTruthy();
  });

  it('moves ordering items with buttons, keeps focus on the moved item and announces it', async () => {
    await openQuiz();
    const ordering = question(6);
    const down = within(ordering).getByRole('button', { name: 'Move “Run” down' });
    down.focus();
    fireEvent.click(down);
    const items = within(ordering)
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(items[0]).toContain('Write');
    expect(items[1]).toContain('Run');
    expect(document.activeElement?.getAttribute('aria-label')).toBe('Move “Run” down');
    expect(within(ordering).getByText('“Run” is now at position 2 of 3.')).toBeTruthy();
    expect(screen.getByText('Answered 1 of 6')).toBeTruthy();
  });

  it('keeps the answers in sessionStorage and restores them after a reload', async () => {
    sessionStorage.setItem(draftKey(4, 7), JSON.stringify({ 11: 'b', 13: true, 14: 'while', 99: 'x' }));
    await openQuiz();
    const single = within(question(1)).getByRole('radio', { name: '3.5' });
    expect(single).toHaveProperty('checked', true);
    expect(within(question(3)).getByRole('radio', { name: 'True' })).toHaveProperty('checked', true);
    expect(within(question(4)).getByRole('textbox')).toHaveProperty('value', 'while');
    expect(screen.getByText('Answered 3 of 6')).toBeTruthy();

    fireEvent.click(within(question(1)).getByRole('radio', { name: '3' }));
    expect(JSON.parse(sessionStorage.getItem(draftKey(4, 7)) ?? '{}')).toMatchObject({ 11: 'a' });
  });
});

describe('submitting', () => {
  it('with a question unanswered: says so, marks it and sends nothing', async () => {
    const { requests } = await openQuiz();
    answer({ all: false });
    fireEvent.click(screen.getByRole('button', { name: 'Submit answers' }));

    const alert = await alertSaying('Please answer all questions before submitting.');
    expect(within(alert).getByRole('button', { name: 'Question 6' })).toBeTruthy();
    expect(question(6).getAttribute('data-unanswered')).toBe('true');
    expect(question(1).getAttribute('data-unanswered')).toBeNull();
    expect(screen.queryByRole('dialog')).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(submitted(requests)).toHaveLength(0);
  });

  it('asks once, sends every answer and goes to the submission', async () => {
    const { requests, router } = await openQuiz((request, url) =>
      url.pathname === SUBMIT_URL ? json(201, SUBMISSION) : undefined,
    );
    answer({ all: true });
    fireEvent.click(screen.getByRole('button', { name: 'Submit answers' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('Only allow submitting once. Sure to submit your answers?');
    fireEvent.click(within(dialog).getByRole('button', { name: 'OK' }));

    await waitFor(() => expect(submitted(requests)).toHaveLength(1));
    expect(submitted(requests)[0]).toMatchObject({
      body: {
        quiz_course: 7,
        answers: [
          { question: 11, answer: 'a' },
          { question: 12, answer: ['list', 'dict'] },
          { question: 13, answer: false },
          { question: 14, answer: 'for' },
          { question: 15, answer: 8 },
          { question: 16, answer: ['write', 'save', 'run'] },
        ],
      },
    });
    expect(await screen.findByText('Quiz Submitted Successfully')).toBeTruthy();
    await waitFor(() =>
      expect(router.state.location.pathname).toBe('/course/1/quizzes/3/quiz-submissions/42'),
    );
    expect(sessionStorage.getItem(draftKey(4, 7))).toBeNull();
    expect(await screen.findByText('6 / 8', {}, { timeout: 5000 })).toBeTruthy();
  });

  it('refused with 409: "Failed to submit quiz" and the reason in the reader’s language', async () => {
    const { requests } = await openQuiz((request, url) =>
      url.pathname === SUBMIT_URL
        ? json(409, { detail: 'Only allow submitting once.', code: 'already_submitted' })
        : undefined,
    );
    answer({ all: true });
    fireEvent.click(screen.getByRole('button', { name: 'Submit answers' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'OK' }));

    await waitFor(() => expect(submitted(requests)).toHaveLength(1));
    const reason = 'You have already submitted this quiz; it can be submitted only once.';
    const alert = await alertSaying(reason);
    expect(alert.textContent).toContain('Failed to submit quiz');
  });

  it('a server or network failure: "Submission failed. Please try again." and the answers stay', async () => {
    let calls = 0;
    const { requests } = await openQuiz((request, url) => {
      if (url.pathname !== SUBMIT_URL) return undefined;
      calls += 1;
      if (calls === 1) return json(503, { detail: 'Unavailable', code: 'unavailable' });
      throw new TypeError('Failed to fetch');
    });
    answer({ all: true });
    for (let attempt = 1; attempt <= 2; attempt += 1) {
      fireEvent.click(screen.getByRole('button', { name: 'Submit answers' }));
      fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'OK' }));
      await waitFor(() => expect(submitted(requests)).toHaveLength(attempt));
      await alertSaying('Submission failed. Please try again.');
      expect(within(question(1)).getByRole('radio', { name: '3' })).toHaveProperty('checked', true);
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    }
    expect(JSON.parse(sessionStorage.getItem(draftKey(4, 7)) ?? '{}')).toMatchObject({ 11: 'a', 15: 8 });
  });
});
