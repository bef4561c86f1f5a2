import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { LtiContext, LtiDeepLinkInfo } from '@kadai/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../i18n/index.ts';
import { courseAs } from '../../test/course.ts';
import { json } from '../../test/fetch.ts';
import { renderApp } from '../../test/render.tsx';
import { signInAsStudent } from '../../test/session.ts';
import { useSession } from '../auth/session.ts';
import { axeViolations, server } from './lti-fixtures.ts';

vi.setConfig({ testTimeout: 20_000 });
const SLOW = { timeout: 8000 };

const CONTEXT: LtiContext = {
  id: 12,
  platform: 'Moodle of Example University',
  title: 'Python I',
  label: 'CS101',
  course: null,
};
const MY_COURSES = {
  count: 2,
  limit: 100,
  offset: 0,
  results: [
    courseAs('editor', { id: 3, title: 'Python (2025)' }),
    courseAs('student', { id: 4, title: 'Statistics' }),
  ],
};

beforeEach(async () => {
  signInAsStudent();
  useSession.setState({ userId: 2, roles: ['instructor'], editorCourses: [3] });
  await i18n.changeLanguage('en-US');
});

describe('linking an LMS course', () => {
  it('makes a new Kadai course titled as in the LMS, then opens what the server names', async () => {
    const { requests } = server((request, path) => {
      if (path === '/api/Lti/Context/12/' && request.method === 'GET') return json(200, CONTEXT);
      if (path === '/api/Lti/Context/12/' && request.method === 'POST')
        return json(200, { next: '/course/9' });
      if (path === '/api/Course/') return json(200, MY_COURSES);
      return undefined;
    });
    const { router } = renderApp('/lti/context/12');
    expect(await screen.findByRole('heading', { name: 'Python I (CS101)' }, SLOW)).toBeTruthy();
    expect(screen.getByText(/This course in Moodle of Example University is not linked/)).toBeTruthy();
    const title = screen.getByRole('textbox', { name: /Title of the new course/ });
    expect(title).toHaveProperty('value', 'Python I');
    expect(await axeViolations()).toEqual([]);
    fireEvent.change(title, { target: { value: 'Python I (2026)' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create and link' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/course/9'));
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({ title: 'Python I (2026)' });
  });

  it('links one of the courses the person edits', async () => {
    const { requests } = server((request, path) => {
      if (path === '/api/Lti/Context/12/' && request.method === 'GET') return json(200, CONTEXT);
      if (path === '/api/Lti/Context/12/' && request.method === 'POST')
        return json(200, { next: '/course/3' });
      if (path === '/api/Course/') return json(200, MY_COURSES);
      return undefined;
    });
    const { router } = renderApp('/lti/context/12');
    fireEvent.click(await screen.findByRole('radio', { name: 'Use one of my courses' }, SLOW));
    fireEvent.click(screen.getByRole('button', { name: 'Link' }));
    expect(await screen.findByText('Choose a course.')).toBeTruthy();
    const select = screen.getByRole('combobox', { name: /^Course/ });
    fireEvent.click(select);
    // Only the courses this person edits are offered.
    // jsdom lays nothing out, so the dropdown's options are there but `hidden`.
    const python = await screen.findByRole('option', { name: 'Python (2025)', hidden: true });
    expect(screen.queryByRole('option', { name: 'Statistics', hidden: true })).toBeNull();
    fireEvent.click(python);
    fireEvent.click(screen.getByRole('button', { name: 'Link' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/course/3'));
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({ course_id: 3 });
  });

  it('offers to open the course when the LMS course is linked already', async () => {
    server((request, path) =>
      path === '/api/Lti/Context/12/'
        ? json(200, { ...CONTEXT, course: { id: 3, title: 'Python' } })
        : undefined,
    );
    renderApp('/lti/context/12');
    expect(await screen.findByText('This LMS course is linked to Python.', {}, SLOW)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Open the course' }).getAttribute('href')).toBe('/course/3');
  });
});

const DEEP_LINK: LtiDeepLinkInfo = {
  platform: 'Moodle of Example University',
  course: { id: 1, title: 'Python' },
  context_id: 12,
  accept_multiple: true,
  items: [
    { kind: 'assignment', id: 5, title: 'Lists', due_at: '2026-04-30T14:59:00.000Z', max_score: 10 },
    { kind: 'quiz', id: 8, title: 'Loops quiz', due_at: null, max_score: null },
  ],
};

describe('the deep-linking picker', () => {
  let submitted: HTMLFormElement[] = [];
  beforeEach(() => {
    submitted = [];
    vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(function (this: HTMLFormElement) {
      submitted.push(this);
    });
  });
  afterEach(() => {
    vi.restoreAllMocks();
    for (const form of submitted) form.remove();
  });

  it('posts the choice and sends the signed answer back to the LMS in a form', async () => {
    const { requests } = server((request, path) => {
      if (path === '/api/Lti/DeepLink/dl-request-0123/' && request.method === 'GET')
        return json(200, DEEP_LINK);
      if (path === '/api/Lti/DeepLink/dl-request-0123/' && request.method === 'POST')
        return json(200, {
          return_url: 'https://moodle.example.ac.jp/mod/lti/contentitem_return.php',
          jwt: 'a.b.c',
        });
      if (path === '/api/Course/1/') return json(200, courseAs('editor'));
      return undefined;
    });
    renderApp('/lti/deep-link/dl-request-0123');
    const group = await screen.findByRole('group', { name: 'Choose assignments and quizzes' }, SLOW);
    expect(within(group).getByText('Assignment')).toBeTruthy();
    expect(within(group).getByText('No due date')).toBeTruthy();
    // The due date as every deadline of the app shows it (ui/Deadline.tsx).
    expect(group.querySelector('time')?.getAttribute('datetime')).toBe('2026-04-30T14:59:00.000Z');
    expect(within(group).getByText('10 points')).toBeTruthy();
    const add = screen.getByRole('button', { name: 'Add to LMS' });
    expect(add).toHaveProperty('disabled', true);
    expect(await axeViolations()).toEqual([]);
    fireEvent.click(within(group).getByRole('checkbox', { name: 'Lists' }));
    fireEvent.click(within(group).getByRole('checkbox', { name: 'Loops quiz' }));
    fireEvent.click(add);
    await waitFor(() => expect(submitted).toHaveLength(1));
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({
      items: [
        { kind: 'assignment', id: 5 },
        { kind: 'quiz', id: 8 },
      ],
    });
    const form = submitted[0]!;
    expect(form.method).toBe('post');
    expect(form.action).toBe('https://moodle.example.ac.jp/mod/lti/contentitem_return.php');
    expect([...new FormData(form).entries()]).toEqual([['JWT', 'a.b.c']]);
    expect(await screen.findByText('Returning to the LMS…')).toBeTruthy();
  });

  it('offers one item with radio buttons when the LMS takes one', async () => {
    const { requests } = server((request, path) => {
      if (path === '/api/Lti/DeepLink/dl-request-0123/' && request.method === 'GET')
        return json(200, { ...DEEP_LINK, accept_multiple: false });
      if (path === '/api/Lti/DeepLink/dl-request-0123/' && request.method === 'POST')
        return json(200, { return_url: 'https://moodle.example.ac.jp/return', jwt: 'x.y.z' });
      return undefined;
    });
    renderApp('/lti/deep-link/dl-request-0123');
    fireEvent.click(await screen.findByRole('radio', { name: 'Lists' }, SLOW));
    fireEvent.click(screen.getByRole('radio', { name: 'Loops quiz' }));
    fireEvent.click(screen.getByRole('button', { name: 'Add to LMS' }));
    await waitFor(() => expect(submitted).toHaveLength(1));
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({ items: [{ kind: 'quiz', id: 8 }] });
  });

  it('links the LMS course first when it is not linked yet', async () => {
    let linked = false;
    const { requests } = server((request, path) => {
      if (path === '/api/Lti/DeepLink/dl-request-0123/')
        return json(200, linked ? DEEP_LINK : { ...DEEP_LINK, course: null, items: [] });
      if (path === '/api/Lti/Context/12/' && request.method === 'GET') return json(200, CONTEXT);
      if (path === '/api/Lti/Context/12/' && request.method === 'POST') {
        linked = true;
        return json(200, { next: '/course/1' });
      }
      return undefined;
    });
    const { router } = renderApp('/lti/deep-link/dl-request-0123');
    fireEvent.click(await screen.findByRole('button', { name: 'Create and link' }, SLOW));
    expect(await screen.findByRole('checkbox', { name: 'Lists' })).toBeTruthy();
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({ title: 'Python I' });
    expect(router.state.location.pathname).toBe('/lti/deep-link/dl-request-0123');
  });
});
