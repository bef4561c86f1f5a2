import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { stubFetch, type RecordedRequest } from '../../test/fetch.ts';
import { renderApp } from '../../test/render.tsx';
import { signInAsStudent } from '../../test/session.ts';
import { config, notebook, session, workbookServer, type FakeWorkbook } from './workbook-fixtures.ts';

beforeEach(() => {
  signInAsStudent();
});

const SLOW = { timeout: 10_000 };

function state(fields: Partial<FakeWorkbook> = {}): FakeWorkbook {
  return {
    role: 'student',
    configs: [config()],
    sessions: [session()],
    notebook: notebook(),
    executions: [],
    ...fields,
  };
}

const saves = (requests: RecordedRequest[]) =>
  requests.filter((r) => r.method === 'PUT' && r.url === '/api/v1/workbook/notebook/11');
const runs = (requests: RecordedRequest[]) =>
  requests.filter((r) => r.method === 'POST' && r.url === '/api/v1/workbook/7/execute');

describe('the workbook page', { timeout: 30_000 }, () => {
  it('lists the configurations and opens a session into the address', async () => {
    const fake = state({ sessions: [] });
    const { requests } = stubFetch(workbookServer(fake));
    const { router } = renderApp('/course/1/workbook');
    const card = (await screen.findByRole('article', { name: 'Intro to pandas' }, SLOW)) as HTMLElement;
    expect(within(card).getByText('CSV').tagName).toBe('STRONG');
    expect(
      within(card).getByText('60 minutes per session (can be extended by up to 60 minutes)'),
    ).toBeTruthy();
    expect(within(card).getByText('Memory 512 MB · CPU time 600 s')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'New configuration' })).toBeNull();

    fireEvent.click(within(card).getByRole('button', { name: 'Open Intro to pandas' }));
    await waitFor(() => expect(router.state.location.search).toBe('?session=8'));
    expect(requests.find((r) => r.method === 'POST' && r.url === '/api/v1/workbook')?.body).toEqual({
      course: 1,
      config: 3,
    });
    expect(await screen.findByRole('timer', { name: 'Time left' })).toBeTruthy();
  });

  it('runs a cell, shows its output and saves the notebook with its version', async () => {
    const fake = state({
      executions: [
        {
          status: 'ok',
          execution_count: 1,
          limit: null,
          time_ms: 12,
          outputs: [
            { output_type: 'stream', name: 'stdout', text: 'hello\n' },
            {
              output_type: 'execute_result',
              execution_count: 1,
              data: {
                'text/plain': '   a\n0  1',
                'text/html':
                  '<table class="dataframe"><thead><tr><th></th><th>a</th></tr></thead><tbody><tr><th>0</th><td>1</td></tr></tbody></table><img src=x onerror="alert(1)"><script>alert(2)</script>',
              },
            },
          ],
        },
      ],
    });
    const { requests } = stubFetch(workbookServer(fake));
    renderApp('/course/1/workbook?session=7');
    const run = await screen.findByRole('button', { name: 'Run cell 2' }, SLOW);
    expect(screen.getByRole('heading', { level: 2, name: 'Intro to pandas' })).toBeTruthy();
    // The Markdown cell is rendered (its heading sits below the page's h1 and h2).
    expect(screen.getByRole('heading', { level: 3, name: 'Pandas' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Run all' })).toBeTruthy();

    fireEvent.click(run);
    const output = await screen.findByRole('group', { name: 'Output of cell 2' });
    expect(within(output).getByText('hello').tagName).toBe('PRE');
    const table = within(output).getByRole('table');
    expect(within(table).getByRole('cell', { name: '1' })).toBeTruthy();
    expect(output.querySelector('script')).toBeNull();
    expect(output.querySelector('[onerror]')).toBeNull();
    expect(within(screen.getByText('[1]').parentElement!).getByText('Run number 1')).toBeTruthy();
    expect(runs(requests)[0]?.body).toEqual({ cell_id: 'load', code: 'print("hello")\ndf' });

    // Saved right after the run, naming the version it changes.
    await waitFor(() => expect(saves(requests)).toHaveLength(1));
    expect(saves(requests)[0]?.body).toMatchObject({ version: 1 });
    expect(await screen.findByText('Saved')).toBeTruthy();
  });

  it('runs a cell with Shift+Enter and opens a new cell below the last one', async () => {
    const fake = state({
      executions: [{ status: 'ok', execution_count: 4, limit: null, time_ms: 3, outputs: [] }],
    });
    const { requests } = stubFetch(workbookServer(fake));
    renderApp('/course/1/workbook?session=7');
    const code = await screen.findByRole('textbox', { name: 'Code of cell 2' }, SLOW);
    fireEvent.change(code, { target: { value: 'x = 41 + 1' } });
    fireEvent.keyDown(code, { key: 'Enter', shiftKey: true });
    expect(await screen.findByRole('textbox', { name: 'Code of cell 3' })).toBeTruthy();
    await waitFor(() => expect(runs(requests)).toHaveLength(1));
    expect(runs(requests)[0]?.body).toEqual({ cell_id: 'load', code: 'x = 41 + 1' });
    expect(await screen.findByText('[4]')).toBeTruthy();
    // The Enter of an unfinished Japanese conversion is not a command.
    fireEvent.keyDown(code, { key: 'Enter', shiftKey: true, isComposing: true });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(runs(requests)).toHaveLength(1);
  });

  it('says why the kernel died, with the memory limit, and offers a restart', async () => {
    const fake = state({
      executions: [{ status: 'dead', execution_count: null, limit: 'memory', time_ms: 900, outputs: [] }],
    });
    stubFetch(workbookServer(fake));
    renderApp('/course/1/workbook?session=7');
    fireEvent.click(await screen.findByRole('button', { name: 'Run cell 2' }, SLOW));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(
      'The kernel was stopped: it used more than its memory limit (512 MB). Restart the kernel to continue; variables are lost.',
    );
    expect(within(alert).getByRole('button', { name: 'Restart now' })).toBeTruthy();
  });

  it('interrupts the running cell from the toolbar, which allows it only while a cell runs', async () => {
    let finish = () => {};
    const fake = state({
      running: new Promise<void>((resolve) => {
        finish = resolve;
      }),
      onInterrupt: () => finish(),
      executions: [
        {
          status: 'error',
          execution_count: 2,
          limit: null,
          time_ms: 900,
          outputs: [{ output_type: 'error', ename: 'KeyboardInterrupt', evalue: '', traceback: [] }],
        },
      ],
    });
    const { requests } = stubFetch(workbookServer(fake));
    renderApp('/course/1/workbook?session=7');
    const interrupt = await screen.findByRole('button', { name: 'Interrupt' }, SLOW);
    expect(interrupt.getAttribute('aria-disabled')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'Run cell 2' }));
    await waitFor(() => expect(interrupt.getAttribute('aria-disabled')).toBe('false'));
    interrupt.focus();
    fireEvent.click(interrupt);
    const output = await screen.findByRole('group', { name: 'Output of cell 2' });
    expect(within(output).getAllByText(/KeyboardInterrupt/).length).toBeGreaterThan(0);
    expect(
      requests.filter((r) => r.method === 'POST' && r.url === '/api/v1/workbook/7/interrupt'),
    ).toHaveLength(1);
    await waitFor(() => expect(interrupt.getAttribute('aria-disabled')).toBe('true'));
    // Turned off, it keeps the keyboard focus it had (a disabled button would drop it to the page).
    expect(document.activeElement).toBe(interrupt);
    // And clicking it while off sends nothing.
    fireEvent.click(interrupt);
    expect(requests.filter((r) => r.url === '/api/v1/workbook/7/interrupt')).toHaveLength(1);
  });

  it('says when a run had to start a fresh kernel because the old one was gone', async () => {
    const fake = state({
      executions: [
        { status: 'ok', execution_count: 1, limit: null, time_ms: 5, outputs: [], kernel_restarted: true },
      ],
    });
    stubFetch(workbookServer(fake));
    renderApp('/course/1/workbook?session=7');
    fireEvent.click(await screen.findByRole('button', { name: 'Run cell 2' }, SLOW));
    const note = await screen.findByText(/a fresh one ran this cell: variables from earlier runs are gone/);
    expect(note.closest('[role="status"]')).not.toBeNull();
  });

  it('stops autosaving when the notebook was saved elsewhere, and offers to reload', async () => {
    const fake = state({ staleOnSave: true });
    const { requests } = stubFetch(workbookServer(fake));
    renderApp('/course/1/workbook?session=7');
    const code = await screen.findByRole('textbox', { name: 'Code of cell 2' }, SLOW);
    fireEvent.change(code, { target: { value: 'print(2)' } });
    expect(await screen.findByText('This notebook was changed somewhere else', {}, SLOW)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reload' })).toBeTruthy();
    // Further edits are not sent over the other save.
    fireEvent.change(code, { target: { value: 'print(3)' } });
    await new Promise((resolve) => setTimeout(resolve, 1800));
    expect(saves(requests)).toHaveLength(1);
  });
});
