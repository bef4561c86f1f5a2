import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Course, CourseRole, Gradebook } from '@kadai/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, stubFetch } from '../../test/fetch.ts';
import { renderApp } from '../../test/render.tsx';
import { signInAsStudent } from '../../test/session.ts';
import { useSession } from '../auth/session.ts';
import { extensionServer } from '../extensions/extension-fixtures.ts';
import { courseAs } from '../../test/course.ts';

// Pages load their code on demand: the first render of each takes a while in jsdom. The large book's
// scrolling test took 10.6 s in a whole `npm test` on a slow hour: 45 s, as the other page flows have.
vi.setConfig({ testTimeout: 45_000 });
const SLOW = { timeout: 8000 };
const AT = '2026-04-01T09:00:00.000Z';

const course = (role: CourseRole): Course => courseAs(role);

const BOOK: Gradebook = {
  course_id: 1,
  max_total: 14,
  columns: [
    { key: 'a1', kind: 'assignment', id: 1, item_id: 1, title: 'Loops', due_at: AT, max_score: 10 },
    { key: 'q2', kind: 'quiz', id: 2, item_id: 3, title: 'Quiz 1', due_at: AT, max_score: 4 },
  ],
  rows: [
    {
      user: { id: 4, email: 'taro@example.jp', first_name: 'Taro', last_name: 'Yamada' },
      cells: [
        { score: 8, attempts: 2, late: true, missing: false, extended: false },
        { score: 3, attempts: 1, late: false, missing: false, extended: false },
      ],
      total: 11,
      late: 1,
      missing: 0,
    },
    {
      user: { id: 5, email: 'ann@example.jp', first_name: 'Ann', last_name: 'Abe' },
      cells: [
        { score: null, attempts: 0, late: false, missing: true, extended: false },
        { score: 4, attempts: 1, late: false, missing: false, extended: true },
      ],
      total: 4,
      late: 0,
      missing: 1,
    },
  ],
};

function server(role: CourseRole, book: Gradebook = BOOK) {
  return stubFetch((request) => {
    const path = new URL(request.url, 'http://test').pathname;
    if (path === '/api/Config/')
      return json(200, { product_name: 'Kadai', google_client_id: null, provider_url: '' });
    if (path === '/api/Course/1/') return json(200, course(role));
    if (path === '/api/Course/1/gradebook/') return json(200, book);
    return json(404, { detail: 'Not found.', code: 'not_found' });
  });
}

/** A course of `students` students × `items` assignments; student 250 has the best total. */
function largeBook(students: number, items: number): Gradebook {
  const columns = Array.from({ length: items }, (_, i) => ({
    key: `a${i + 1}`,
    kind: 'assignment' as const,
    id: i + 1,
    item_id: i + 1,
    title: `Week ${i + 1}`,
    due_at: AT,
    max_score: 10,
  }));
  const rows = Array.from({ length: students }, (_, s) => {
    const id = s + 1;
    const cells = columns.map((_, i) => {
      const score = id === 250 ? 10 : (id * 7 + i) % 13 === 0 ? null : (id * 7 + i) % 10;
      return {
        score,
        attempts: score === null ? 0 : 1,
        late: false,
        missing: score === null,
        extended: false,
      };
    });
    return {
      user: { id, email: `s${id}@example.jp`, first_name: 'Student', last_name: String(id).padStart(3, '0') },
      cells,
      total: cells.reduce((sum, cell) => sum + (cell.score ?? 0), 0),
      late: 0,
      missing: cells.filter((cell) => cell.missing).length,
    };
  });
  return { course_id: 1, max_total: items * 10, columns, rows };
}

/** jsdom has no IntersectionObserver: this one reports the watched element in view when told to. */
class FakeIntersectionObserver implements IntersectionObserver {
  static live = new Set<FakeIntersectionObserver>();
  readonly root = null;
  readonly rootMargin = '0px';
  readonly scrollMargin = '0px';
  readonly thresholds = [0];
  private targets: Element[] = [];
  constructor(private readonly callback: IntersectionObserverCallback) {
    FakeIntersectionObserver.live.add(this);
  }
  observe(target: Element) {
    this.targets.push(target);
  }
  unobserve() {}
  disconnect() {
    FakeIntersectionObserver.live.delete(this);
  }
  takeRecords() {
    return [];
  }
  /** The end of the drawn rows comes into view (as a scroll would bring it). */
  static scrollToEnd() {
    for (const observer of [...FakeIntersectionObserver.live]) {
      const entries = observer.targets.map((target) => {
        const rect = target.getBoundingClientRect();
        return {
          target,
          isIntersecting: true,
          intersectionRatio: 1,
          boundingClientRect: rect,
          intersectionRect: rect,
          rootBounds: null,
          time: 0,
        };
      });
      observer.callback(entries, observer);
    }
  }
}

const rail = () => screen.getByRole('navigation', { name: 'Course' });
const bodyRows = () => within(screen.getByRole('table')).getAllByRole('row').slice(1);

beforeEach(() => signInAsStudent());
afterEach(() => vi.restoreAllMocks());

describe('the gradebook page', () => {
  it('is not there for a student: no rail entry, and NotFound at the URL', async () => {
    const { requests } = server('student');
    renderApp('/course/1/gradebook');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' }, SLOW)).toBeTruthy();
    await waitFor(() => expect(within(rail()).getByRole('link', { name: 'Assignment' })).toBeTruthy());
    expect(within(rail()).queryByRole('link', { name: 'Gradebook' })).toBeNull();
    expect(requests.some((request) => request.url.includes('gradebook'))).toBe(false);
  });

  it('shows an editor every student with flags in words, sorts and filters', async () => {
    useSession.setState({ userId: 2, roles: ['instructor'], editorCourses: [1] });
    server('editor');
    renderApp('/course/1/assignment');
    fireEvent.click(await waitFor(() => within(rail()).getByRole('link', { name: 'Gradebook' }), SLOW));
    expect(await screen.findByRole('heading', { level: 1, name: 'Gradebook' }, SLOW)).toBeTruthy();
    await screen.findByRole('table');
    // By name first (English: first name first): Ann Abe, then Taro Yamada.
    expect(bodyRows().map((row) => within(row).getByRole('rowheader').textContent)).toEqual([
      'Ann Abeann@example.jp',
      'Taro Yamadataro@example.jp',
    ]);
    expect(within(bodyRows()[0]!).getByText('Missing')).toBeTruthy();
    expect(within(bodyRows()[1]!).getByText('Late')).toBeTruthy();
    // Sorting by the total puts the best first.
    fireEvent.click(screen.getByTitle('Sort by Total'));
    expect(within(bodyRows()[0]!).getByRole('rowheader').textContent).toContain('Taro Yamada');
    // Only those with missing work.
    fireEvent.click(screen.getByRole('radio', { name: 'Missing work' }));
    expect(bodyRows()).toHaveLength(1);
    expect(screen.getByText('1 of 2 students')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Search students'), { target: { value: 'nobody' } });
    expect(screen.getByText('No student matches.')).toBeTruthy();
  });

  it('sets the total beside what is due so far, and shows a column’s whole title on focus', async () => {
    useSession.setState({ userId: 2, roles: ['instructor'], editorCourses: [1] });
    const title = 'Week 12: recursion, memoisation and the cost of a naive Fibonacci';
    const [loops, quiz] = BOOK.columns;
    // The quiz closes long after today: its 4 points are not due yet.
    server('editor', {
      ...BOOK,
      columns: [
        { ...loops!, title },
        { ...quiz!, due_at: '2099-01-01T00:00:00.000Z' },
      ],
    });
    renderApp('/course/1/gradebook');
    const table = await screen.findByRole('table', {}, SLOW);
    const total = within(table).getByRole('columnheader', { name: /^Total/ });
    expect(within(total).getByText('of 14')).toBeTruthy();
    expect(within(total).getByText('10 due so far')).toBeTruthy();
    // A long title is clamped in its header; the keyboard reaches the whole of it as well as a mouse.
    const sortButton = within(table).getByRole('button', { name: new RegExp(`^${title}`) });
    fireEvent.focus(sortButton);
    expect((await screen.findByRole('tooltip')).textContent).toContain(title);
  });

  it('marks extended work and grants an extension from a student’s row', async () => {
    useSession.setState({ userId: 2, roles: ['instructor'], editorCourses: [1] });
    const { requests } = stubFetch(
      extensionServer('editor', (_request, url) =>
        url.pathname === '/api/Course/1/gradebook/' ? json(200, BOOK) : undefined,
      ),
    );
    renderApp('/course/1/gradebook');
    await screen.findByRole('table', {}, SLOW);
    // Ann's quiz is extended: a word, not a colour alone.
    const [ann, taro] = bodyRows();
    expect(within(ann!).getByText('Extended')).toBeTruthy();
    expect(within(taro!).queryByText('Extended')).toBeNull();

    // jsdom lays nothing out, so the menu's positioning hides it: its items are there, only `hidden`,
    // and Mantine's focus trap, finding nothing visible to focus, warns (in development only).
    const warn = console.warn;
    vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => {
      if (!String(args[0]).includes('use-focus-trap')) warn(...args);
    });
    fireEvent.click(within(taro!).getByRole('button', { name: 'Grant an extension to Taro Yamada' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Quiz · Quiz 1', hidden: true }));
    const dialog = await screen.findByRole('dialog', { name: 'Grant an extension' });
    // The column's quiz (item 3, not its quiz-course 2) and the row's student are chosen already.
    const quiz = await within(dialog).findByRole<HTMLInputElement>('combobox', { name: 'Quiz' });
    expect(quiz.value).toBe('Week 1 check');
    expect(within(dialog).getByText('Taro Yamada <taro@example.jp>')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText(/Extra minutes/), { target: { value: '10' } });
    fireEvent.change(within(dialog).getByLabelText(/Reason/), { target: { value: 'Reader needed' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Grant' }));
    expect(await screen.findByText('Extension granted to 1 student.')).toBeTruthy();
    expect(requests.find((request) => request.method === 'POST')?.body).toEqual({
      kind: 'quiz',
      item_id: 3,
      user_ids: [4],
      closes_at: null,
      extra_minutes: 10,
      reason: 'Reader needed',
    });
    // The gradebook is asked again, for the new marks.
    await waitFor(() =>
      expect(requests.filter((request) => request.url === '/api/Course/1/gradebook/')).toHaveLength(2),
    );
  });

  it(
    'draws a large book’s rows as they scroll into view; sorting and filtering take in every row',
    { timeout: 90_000 },
    async () => {
      vi.stubGlobal('IntersectionObserver', FakeIntersectionObserver);
      useSession.setState({ userId: 2, roles: ['instructor'], editorCourses: [1] });
      server('editor', largeBook(300, 40));
      renderApp('/course/1/gradebook');
      // Plain selectors: role queries over thousands of cells take seconds each in jsdom.
      const caption = await screen.findByText('300 of 300 students', {}, SLOW);
      const table = caption.closest('table')!;
      const drawn = () => [...table.querySelectorAll('tbody > tr')];
      const firstEmail = () => drawn()[0]!.querySelector('th')!.textContent;
      // Every student counts, a screenful is drawn: 12,000 cells would block the first paint.
      expect(table.getAttribute('aria-rowcount')).toBe('301');
      expect(drawn()).toHaveLength(20);
      expect(drawn()[19]!.getAttribute('aria-rowindex')).toBe('21');
      act(() => FakeIntersectionObserver.scrollToEnd());
      expect(drawn()).toHaveLength(45);
      // Sorting ranks all 300, not the rows drawn: student 250 (not drawn so far) comes first.
      fireEvent.click(screen.getByTitle('Sort by Total'));
      expect(firstEmail()).toContain('s250@example.jp');
      expect(drawn()).toHaveLength(20);
      fireEvent.click(screen.getByLabelText('Missing work'));
      const missing = largeBook(300, 40).rows.filter((row) => row.missing > 0).length;
      expect(screen.getByText(`${missing} of 300 students`)).toBeTruthy();
      expect(drawn()).toHaveLength(20);
      vi.unstubAllGlobals();
    },
  );
});
