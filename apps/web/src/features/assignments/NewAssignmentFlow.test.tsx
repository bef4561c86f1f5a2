import { AssignmentCreate } from '@kadai/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../i18n/index.ts';
import { stubFetch } from '../../test/fetch.ts';
import { renderApp } from '../../test/render.tsx';
import { signInAsStudent } from '../../test/session.ts';
import { wallTimeIn } from '../courses/course-time.ts';
import { AssignmentEditorHost } from './AssignmentEditorHost.tsx';
import { assignmentDraftKey } from './assignment-draft.ts';
import { assignmentKeys } from './assignments.queries.ts';
import { browserTimeZone } from './dates.ts';
import { COURSE_ID, NEW_ID, fakeAssignmentServer } from './new-assignment-fixtures.ts';

// Each flow walks three steps of a page (dialogs, a reference run): 3–5 s alone, past the web
// project's 15 s when the journeys share the two cores.
vi.setConfig({ testTimeout: 45_000 });

/** A course in another zone than the browser's, so the dates get the hint. */
const COURSE_ZONE = browserTimeZone() === 'Asia/Tokyo' ? 'America/New_York' : 'Asia/Tokyo';

const ROUTES = [
  {
    path: '/course/:course_id/assignment',
    element: <AssignmentEditorHost courseId={COURSE_ID} timeZone={COURSE_ZONE} />,
  },
  { path: '/course/:course_id/assignment/:assignment_id', element: <p>The assignment page</p> },
];

function openNewAssignment() {
  const server = fakeAssignmentServer();
  stubFetch(server.responder);
  const view = renderApp(`/course/${COURSE_ID}/assignment?edit=new`, ROUTES);
  return { server, view };
}

const dialog = () => screen.getByRole('dialog', { name: 'New assignment' });
const type = (element: HTMLElement, value: string) => fireEvent.change(element, { target: { value } });

async function fillTitle(title: string) {
  type(await screen.findByRole('textbox', { name: 'Title' }), title);
}

async function createAndMoveOn() {
  fireEvent.click(within(dialog()).getByRole('button', { name: 'Create and add tests' }));
  return screen.findByRole('heading', { name: 'Step 2 of 3: Test cases' });
}

function storedDraft(): unknown {
  return JSON.parse(localStorage.getItem(assignmentDraftKey(COURSE_ID)) ?? 'null');
}

beforeEach(async () => {
  signInAsStudent();
  await i18n.changeLanguage('en-US');
});

describe('a new assignment in one pass', () => {
  it('creates the assignment, then writes its tests, runs the reference and opens it', async () => {
    const { server, view } = openNewAssignment();
    await fillTitle('Sum of two numbers');
    expect(screen.getByText(new RegExp(`^Course time zone: ${COURSE_ZONE} \\(23:59 there is`))).toBeTruthy();
    const testsHeading = await createAndMoveOn();

    const [create] = server.writes();
    expect(create?.method).toBe('POST');
    expect(create?.body).toMatchObject({ title: 'Sum of two numbers', courses: [{ course_id: COURSE_ID }] });
    // Due at 23:59 in the course's zone, not the browser's.
    const due = new Date(AssignmentCreate.parse(create?.body).courses[0]?.due_at ?? '');
    expect(wallTimeIn(due, COURSE_ZONE)).toMatchObject({ hour: 23, minute: 59 });
    await waitFor(() => expect(document.activeElement).toBe(testsHeading));
    expect(screen.getByText('Assignment “Sum of two numbers” created. Now add its test cases.')).toBeTruthy();
    expect(await screen.findByText('No test cases yet: add the first with New test case.')).toBeTruthy();

    // Escape closes the test-case dialog only, not the one under it.
    fireEvent.click(within(dialog()).getByRole('button', { name: 'New test case' }));
    fireEvent.keyDown(await screen.findByRole('dialog', { name: 'New test case' }), { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'New test case' })).toBeNull());
    expect(dialog()).toBeTruthy();

    fireEvent.click(within(dialog()).getByRole('button', { name: 'New test case' }));
    const testDialog = await screen.findByRole('dialog', { name: 'New test case' });
    type(within(testDialog).getByRole('textbox', { name: 'Name' }), 'Small numbers');
    type(within(testDialog).getByRole('textbox', { name: 'Input (stdin)' }), '3 4\n');
    type(within(testDialog).getByRole('textbox', { name: 'Expected output' }), '7\n');
    fireEvent.click(within(testDialog).getByRole('button', { name: 'Create' }));

    const table = await screen.findByRole('table', { name: 'Test cases, in the order they run' });
    expect(await within(table).findByText('Small numbers')).toBeTruthy();
    expect(screen.getByText('1 test case, 1 point in all')).toBeTruthy();
    const testCreate = server.requests.find((r) => r.method === 'POST' && r.url.includes('/TestCase/'));
    expect(testCreate?.url).toBe(`/api/Assignment/${NEW_ID}/${COURSE_ID}/TestCase/`);
    expect(testCreate?.body).toMatchObject({ name: 'Small numbers', stdin: '3 4\n', position: 0 });

    fireEvent.click(within(dialog()).getByRole('button', { name: 'Next: reference run' }));
    const referenceHeading = await screen.findByRole('heading', { name: 'Step 3 of 3: Reference run' });
    await waitFor(() => expect(document.activeElement).toBe(referenceHeading));
    const reference = await screen.findByRole('region', { name: 'Run against reference solution' });
    expect(within(reference).getByRole('button', { name: 'Run against reference solution' })).toBeTruthy();

    fireEvent.click(within(dialog()).getByRole('button', { name: 'Finish' }));
    expect(await screen.findByText('The assignment page')).toBeTruthy();
    expect(view.router.state.location.pathname).toBe(`/course/${COURSE_ID}/assignment/${NEW_ID}`);
    expect(server.writes()).toHaveLength(1);
  });

  it('shows the server’s field messages under their fields and stays on Details', async () => {
    const { server } = openNewAssignment();
    server.refuseNextCreate({ title: ['An assignment of this title exists already.'] });
    await fillTitle('Sum');
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Create and add tests' }));
    expect(await screen.findByText('An assignment of this title exists already.')).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'Title' }).getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByRole('heading', { name: 'Step 2 of 3: Test cases' })).toBeNull();
  });

  it('changes the created assignment when going back to Details, and never creates a second one', async () => {
    const { server } = openNewAssignment();
    await fillTitle('Sum');
    await createAndMoveOn();
    // The steps can be chosen once the assignment exists.
    expect(
      within(dialog())
        .getByRole('button', { name: /Details/ })
        .getAttribute('aria-disabled'),
    ).toBeNull();

    fireEvent.click(within(dialog()).getByRole('button', { name: 'Back' }));
    const detailsHeading = await screen.findByRole('heading', { name: 'Step 1 of 3: Details' });
    await waitFor(() => expect(document.activeElement).toBe(detailsHeading));
    const title = screen.getByRole('textbox', { name: 'Title' });
    expect(title).toHaveProperty('value', 'Sum');
    // Attachments need the assignment's id: they appear once it exists.
    expect(await screen.findByRole('button', { name: 'Upload files' })).toBeTruthy();

    type(title, 'Sum of two numbers');
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Save and continue' }));
    await screen.findByRole('heading', { name: 'Step 2 of 3: Test cases' });

    const writes = server.writes();
    expect(writes.map((request) => request.method)).toEqual(['POST', 'PATCH']);
    expect(writes[1]?.url).toBe(`/api/Assignment/${NEW_ID}/`);
    expect(writes[1]?.body).toMatchObject({ title: 'Sum of two numbers' });
    // The dates did not change, so the course list (which replaces every course) is not sent.
    expect(writes[1]?.body).not.toHaveProperty('courses');

    // Nothing changed since: Save and continue just moves on.
    fireEvent.click(within(dialog()).getByRole('button', { name: /Details/ }));
    await screen.findByRole('heading', { name: 'Step 1 of 3: Details' });
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Save and continue' }));
    await screen.findByRole('heading', { name: 'Step 2 of 3: Test cases' });
    expect(server.writes()).toHaveLength(2);

    // Choosing another step while Details has changes saves them first.
    fireEvent.click(within(dialog()).getByRole('button', { name: /Details/ }));
    type(await screen.findByRole('textbox', { name: 'Title' }), 'Sum of numbers');
    fireEvent.click(within(dialog()).getByRole('button', { name: /Check the tests/ }));
    await screen.findByRole('heading', { name: 'Step 3 of 3: Reference run' });
    expect(server.writes().map((request) => request.method)).toEqual(['POST', 'PATCH', 'PATCH']);
    expect(server.writes()[2]?.body).toMatchObject({ title: 'Sum of numbers' });
  });

  it('shows the assignment as stored when going back, so a save does not undo the reference run', async () => {
    const { server, view } = openNewAssignment();
    await fillTitle('Sum');
    await createAndMoveOn();
    // A reference run stores the code it ran as the reference solution.
    server.changeStored({ reference_solution: 'print(sum(map(int, input().split())))\n' });
    await view.queryClient.invalidateQueries({ queryKey: assignmentKeys.detail(NEW_ID, COURSE_ID) });

    fireEvent.click(within(dialog()).getByRole('button', { name: 'Back' }));
    await screen.findByRole('heading', { name: 'Step 1 of 3: Details' });
    expect(screen.getByRole('textbox', { name: 'Reference solution' })).toHaveProperty(
      'value',
      'print(sum(map(int, input().split())))\n',
    );
    type(screen.getByRole('textbox', { name: 'Title' }), 'Sum of two numbers');
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Save and continue' }));
    await screen.findByRole('heading', { name: 'Step 2 of 3: Test cases' });
    expect(server.writes()[1]?.body).toMatchObject({
      title: 'Sum of two numbers',
      reference_solution: 'print(sum(map(int, input().split())))\n',
    });
  });

  it('does not let the later steps be chosen before the assignment exists', async () => {
    openNewAssignment();
    await fillTitle('Sum');
    const testsStep = within(dialog()).getByRole('button', { name: /What the grader checks/ });
    expect(testsStep.getAttribute('aria-disabled')).toBe('true');
    fireEvent.click(testsStep);
    expect(screen.getByRole('heading', { name: 'Step 1 of 3: Details' })).toBeTruthy();
    expect(screen.getByText(/A draft keeps what you type, not files\./)).toBeTruthy();
  });
});

describe('the draft of a new assignment', () => {
  it('is saved while typing, restored on the next opening, and discarded on request', async () => {
    const first = openNewAssignment();
    await fillTitle('Sum of two numbers');
    type(screen.getByRole('textbox', { name: 'Statement (Markdown)' }), 'Print **a + b**.');
    // Only what was typed: the dates left as proposed are proposed afresh next time.
    await waitFor(() =>
      expect(storedDraft()).toMatchObject({
        values: { title: 'Sum of two numbers', statement: 'Print **a + b**.' },
      }),
    );
    expect(Object.keys((storedDraft() as { values: object }).values).sort()).toEqual(['statement', 'title']);
    first.view.unmount();

    openNewAssignment();
    expect(await screen.findByText('Draft restored')).toBeTruthy();
    expect(screen.getByText(/Drafts keep no files/)).toBeTruthy();
    await waitFor(() =>
      expect(screen.getByRole('textbox', { name: 'Title' })).toHaveProperty('value', 'Sum of two numbers'),
    );
    expect(screen.getByRole('textbox', { name: 'Statement (Markdown)' })).toHaveProperty(
      'value',
      'Print **a + b**.',
    );

    // A restored draft is unsaved work: closing asks first.
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Cancel' }));
    const confirm = await screen.findByRole('dialog', { name: 'Discard changes' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Discard changes' })).toBeNull());

    fireEvent.click(screen.getByRole('button', { name: 'Discard draft' }));
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Title' })).toHaveProperty('value', ''));
    expect(screen.queryByText('Draft restored')).toBeNull();
    expect(localStorage.getItem(assignmentDraftKey(COURSE_ID))).toBeNull();
  });

  it('is cleared once the assignment is created', async () => {
    openNewAssignment();
    await fillTitle('Sum');
    await waitFor(() => expect(storedDraft()).toMatchObject({ values: { title: 'Sum' } }));
    await createAndMoveOn();
    expect(localStorage.getItem(assignmentDraftKey(COURSE_ID))).toBeNull();
    // Nothing is written back after creation, even for changes made in Details later.
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Back' }));
    type(await screen.findByRole('textbox', { name: 'Title' }), 'Sum again');
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(localStorage.getItem(assignmentDraftKey(COURSE_ID))).toBeNull();
  });

  it('is dropped when the changes are thrown away on closing', async () => {
    const { view } = openNewAssignment();
    await fillTitle('Sum');
    await waitFor(() => expect(storedDraft()).not.toBeNull());
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Cancel' }));
    const confirm = await screen.findByRole('dialog', { name: 'Discard changes' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Discard' }));
    await waitFor(() => expect(view.router.state.location.search).toBe(''));
    expect(localStorage.getItem(assignmentDraftKey(COURSE_ID))).toBeNull();
  });
});
