/* global document, window */
/**
 * The PyGrade console in the browser (served as /pygrade/console.js; the CSP allows only scripts from
 * this origin). It borrows the web app's signed-in session from localStorage (`kadai-session`, the
 * zustand store of apps/web/src/features/auth/session.ts) and never refreshes tokens itself: a refresh
 * here would rotate the refresh token behind the app's back. Everything is written with textContent.
 */
const SESSION_KEY = 'kadai-session';
const REFRESH_MS = 5000;

const root = document.getElementById('console');
const messageBox = document.getElementById('console-message');
const signIn = document.getElementById('sign-in');
const messages = JSON.parse(root?.dataset.messages ?? '{}');

function accessToken() {
  try {
    const stored = JSON.parse(localStorage.getItem(SESSION_KEY) ?? 'null');
    const token = stored?.state?.authToken;
    return typeof token === 'string' && token.length > 0 ? token : null;
  } catch {
    return null;
  }
}

function showMessage(text) {
  if (!messageBox) return;
  messageBox.textContent = text;
  messageBox.hidden = text === '';
}

async function api(method, path, body) {
  const token = accessToken();
  const headers = { authorization: `Bearer ${token}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`/api/${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({}));
  return { status: response.status, data };
}

const when = (iso) => (iso ? new Date(iso).toLocaleString(messages.lang) : '–');
const statusLabel = (status) => messages.status?.[status] ?? status;

function fill(tableId, rows, cellsOf) {
  const body = document.querySelector(`#${tableId} tbody`);
  if (!body) return;
  body.replaceChildren();
  if (rows.length === 0) {
    const tr = body.insertRow();
    const td = tr.insertCell();
    td.colSpan = document.querySelectorAll(`#${tableId} thead th`).length;
    td.textContent = messages.none;
    return;
  }
  for (const row of rows) {
    const tr = body.insertRow();
    for (const value of cellsOf(row)) tr.insertCell().textContent = String(value);
  }
}

const jobCells = (job) => [
  job.submission_id,
  job.assignment_title,
  job.course_id,
  statusLabel(job.status),
  when(job.started_at),
  when(job.graded_at),
  job.grader_host ?? '–',
  job.score === null ? '–' : `${job.score} / ${job.max_score ?? '–'}`,
];

const hostCells = (host) => [
  host.hostname,
  host.pid,
  when(host.last_seen_at),
  host.alive ? messages.yes : messages.no,
  `${host.sandbox_ok ? messages.yes : messages.no} — ${host.sandbox_detail}`,
  host.concurrency,
  host.running,
  host.graded,
];

let timer = null;

async function refresh() {
  const { status, data } = await api('GET', 'Pygrade/status/');
  if (status === 200) {
    if (root) root.hidden = false;
    if (signIn) signIn.hidden = true;
    showMessage('');
    const depth = document.getElementById('queue-depth');
    if (depth) depth.textContent = String(data.queue_depth);
    fill('running-jobs', data.running, jobCells);
    fill('recent-jobs', data.recent, jobCells);
    fill('grader-hosts', data.hosts, hostCells);
    return true;
  }
  if (root) root.hidden = true;
  if (signIn) signIn.hidden = false;
  if (status === 403) showMessage(messages.forbidden);
  else if (status === 401) showMessage(messages.expired);
  else showMessage(`${messages.failed} ${data.detail ?? status}`);
  return false;
}

async function poll() {
  timer = null;
  if (document.visibilityState === 'hidden') {
    timer = window.setTimeout(poll, REFRESH_MS);
    return;
  }
  const ok = await refresh().catch((error) => {
    showMessage(`${messages.failed} ${error instanceof Error ? error.message : String(error)}`);
    return false;
  });
  // Keep polling only while signed in and allowed, and only while the page is visible.
  if (ok) timer = window.setTimeout(poll, REFRESH_MS);
}

document.addEventListener('visibilitychange', () => {
  if (document.visibilityState !== 'visible' || timer === null) return;
  window.clearTimeout(timer);
  void poll();
});

document.getElementById('snippet-form')?.addEventListener('submit', async (event) => {
  event.preventDefault();
  const form = event.currentTarget;
  const button = form.querySelector('button');
  const result = document.getElementById('snippet-result');
  const meta = document.getElementById('snippet-meta');
  const stdout = document.getElementById('snippet-stdout');
  const stderr = document.getElementById('snippet-stderr');
  if (!result || !meta || !stdout || !stderr) return;
  button?.setAttribute('disabled', '');
  result.hidden = false;
  meta.textContent = messages.runningSnippet;
  stdout.textContent = '';
  stderr.textContent = '';
  try {
    const code = document.getElementById('snippet-code')?.value ?? '';
    const stdin = document.getElementById('snippet-stdin')?.value ?? '';
    const { status, data } = await api('POST', 'Pygrade/run/', { code, stdin });
    if (status !== 200) {
      meta.textContent = data.detail ?? String(status);
      return;
    }
    const parts = [`${messages.exitCode}: ${data.exit_code ?? '–'}`, `${messages.time}: ${data.time_ms} ms`];
    if (data.signal) parts.push(`${messages.signal}: ${data.signal}`);
    if (data.limit) parts.push(`${messages.limit}: ${data.limit}`);
    meta.textContent = parts.join(' · ');
    stdout.textContent = data.stdout;
    stderr.textContent = data.stderr;
  } catch (error) {
    meta.textContent = `${messages.failed} ${error instanceof Error ? error.message : String(error)}`;
  } finally {
    button?.removeAttribute('disabled');
  }
});

if (accessToken()) void poll();
