/**
 * The /pygrade/ page: server-rendered, outside the single-page app, in Japanese or English by
 * Accept-Language, light or dark by the browser's colour scheme. Everyone sees the sandbox status; the
 * console (queue, jobs, hosts, snippet runner) is filled in by /pygrade/console.js for signed-in editors
 * and staff. Every value put into the HTML is escaped; the script writes only through textContent.
 */
export type PageLanguage = 'ja' | 'en';

export const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

const TEXT = {
  en: {
    lead: 'The console of the grader that runs submitted Python code in a sandbox.',
    ok: 'Sandbox: available',
    bad: 'Sandbox: unavailable — submissions wait, queued, until a grader with a sandbox takes them.',
    back: 'Back to courses',
    signIn: 'Editors and staff: sign in to use the console (grading queue, grader hosts, snippet runner).',
    signInLink: 'Sign in',
    queue: 'Grading queue',
    waiting: 'Waiting to be graded',
    running: 'Running',
    recent: 'Recently graded',
    hosts: 'Grader hosts',
    snippet: 'Run a snippet',
    snippetHelp: 'Runs as main.py in a fresh sandbox with the default limits of a test case.',
    code: 'Code',
    stdin: 'Standard input',
    run: 'Run',
    stdout: 'Standard output',
    stderr: 'Standard error',
    jobColumns: ['Submission', 'Assignment', 'Course', 'Status', 'Started', 'Graded', 'Host', 'Score'],
    hostColumns: ['Host', 'PID', 'Last seen', 'Alive', 'Sandbox', 'Concurrency', 'Running', 'Graded'],
  },
  ja: {
    lead: '提出された Python コードを隔離環境（サンドボックス）で採点するコンソールです。',
    ok: 'サンドボックス: 利用可能',
    bad: 'サンドボックス: 利用不可 — 提出は採点待ちのまま保持されます。',
    back: 'コース一覧に戻る',
    signIn:
      'エディターとスタッフはサインインするとコンソール（採点キュー、採点ホスト、コード実行）を使えます。',
    signInLink: 'サインイン',
    queue: '採点キュー',
    waiting: '採点待ちの提出',
    running: '実行中',
    recent: '最近の採点',
    hosts: '採点ホスト',
    snippet: 'コードを実行',
    snippetHelp: 'main.py として新しいサンドボックスで、テストケースと同じ既定の制限で実行します。',
    code: 'コード',
    stdin: '標準入力',
    run: '実行',
    stdout: '標準出力',
    stderr: '標準エラー出力',
    jobColumns: ['提出', '課題', 'コース', '状態', '開始', '採点', 'ホスト', '得点'],
    hostColumns: ['ホスト', 'PID', '最終応答', '稼働', 'サンドボックス', '並列数', '実行中', '採点数'],
  },
} as const;

/** Strings the script needs, handed over in a data attribute (JSON), so the page stays script-free. */
const SCRIPT_MESSAGES = {
  en: {
    forbidden: 'The console is for editors and staff.',
    expired: 'Your session has expired. Open the app and sign in again.',
    failed: 'The console could not be loaded:',
    none: 'None',
    yes: 'yes',
    no: 'no',
    runningSnippet: 'Running…',
    exitCode: 'Exit code',
    signal: 'Signal',
    time: 'Time',
    limit: 'Limit hit',
    status: {
      Pending: 'Pending',
      Scheduled: 'Scheduled',
      Executing: 'Executing',
      Completed: 'Completed',
      Canceled: 'Canceled',
      InternalError: 'InternalError',
      InvalidFormat: 'InvalidFormat',
    },
  },
  ja: {
    forbidden: 'コンソールはエディターとスタッフ専用です。',
    expired: 'セッションの有効期限が切れました。アプリを開いてもう一度サインインしてください。',
    failed: 'コンソールを読み込めませんでした:',
    none: 'なし',
    yes: 'はい',
    no: 'いいえ',
    runningSnippet: '実行中…',
    exitCode: '終了コード',
    signal: 'シグナル',
    time: '時間',
    limit: '超過した制限',
    status: {
      Pending: '保留中',
      Scheduled: '採点待ち',
      Executing: '実行中',
      Completed: '採点完了',
      Canceled: 'キャンセル',
      InternalError: '内部エラー',
      InvalidFormat: '形式エラー',
    },
  },
} as const;

const table = (id: string, columns: readonly string[]) =>
  `<div class="scroll"><table id="${id}"><thead><tr>${columns
    .map((c) => `<th scope="col">${escapeHtml(c)}</th>`)
    .join('')}</tr></thead><tbody></tbody></table></div>`;

export function renderPygradePage(options: {
  language: PageLanguage;
  productName: string;
  sandbox: { ok: boolean; detail: string };
}): string {
  const { language, sandbox } = options;
  const t = TEXT[language];
  const messages = escapeHtml(
    JSON.stringify({ lang: language === 'ja' ? 'ja' : 'en-US', ...SCRIPT_MESSAGES[language] }),
  );
  return `<!doctype html>
<html lang="${language === 'ja' ? 'ja' : 'en-US'}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>PyGrade · ${escapeHtml(options.productName)}</title>
<style>
  :root { color-scheme: light dark; background: Canvas; color: CanvasText; font-family: system-ui, 'Noto Sans CJK JP', sans-serif; }
  body { max-width: 64rem; margin: 3rem auto; padding: 0 1rem; line-height: 1.6; }
  .status { padding: .75rem 1rem; border-radius: .5rem; border: 1px solid currentColor; }
  .ok { color: #1b6e2a; } .bad { color: #a61b1b; }
  @media (prefers-color-scheme: dark) { .ok { color: #7ddc8f; } .bad { color: #ff9b9b; } }
  a { color: inherit; }
  .scroll { overflow-x: auto; }
  table { border-collapse: collapse; width: 100%; font-size: .9rem; }
  th, td { border-bottom: 1px solid GrayText; padding: .25rem .5rem; text-align: left; white-space: nowrap; }
  textarea { width: 100%; box-sizing: border-box; font-family: ui-monospace, monospace; background: Field; color: FieldText; }
  pre { background: color-mix(in srgb, CanvasText 8%, Canvas); padding: .5rem; overflow-x: auto; white-space: pre-wrap; }
  button { font: inherit; padding: .25rem 1rem; }
  .depth { font-size: 2rem; font-weight: bold; }
</style></head>
<body><main>
<h1>PyGrade</h1>
<p>${escapeHtml(t.lead)}</p>
<p class="status ${sandbox.ok ? 'ok' : 'bad'}" role="status">${escapeHtml(sandbox.ok ? t.ok : t.bad)}<br><small>${escapeHtml(sandbox.detail)}</small></p>
<p id="console-message" role="alert" hidden></p>
<p id="sign-in">${escapeHtml(t.signIn)} <a href="/login">${escapeHtml(t.signInLink)}</a></p>
<section id="console" hidden data-messages="${messages}">
  <h2>${escapeHtml(t.queue)}</h2>
  <p>${escapeHtml(t.waiting)}: <span id="queue-depth" class="depth">–</span></p>
  <h2>${escapeHtml(t.running)}</h2>
  ${table('running-jobs', t.jobColumns)}
  <h2>${escapeHtml(t.recent)}</h2>
  ${table('recent-jobs', t.jobColumns)}
  <h2>${escapeHtml(t.hosts)}</h2>
  ${table('grader-hosts', t.hostColumns)}
  <h2>${escapeHtml(t.snippet)}</h2>
  <p>${escapeHtml(t.snippetHelp)}</p>
  <form id="snippet-form">
    <p><label for="snippet-code">${escapeHtml(t.code)}</label><br>
    <textarea id="snippet-code" name="code" rows="10" spellcheck="false" required>print('Hello, PyGrade')</textarea></p>
    <p><label for="snippet-stdin">${escapeHtml(t.stdin)}</label><br>
    <textarea id="snippet-stdin" name="stdin" rows="3" spellcheck="false"></textarea></p>
    <p><button type="submit">${escapeHtml(t.run)}</button></p>
  </form>
  <div id="snippet-result" aria-live="polite" hidden>
    <p id="snippet-meta"></p>
    <h3>${escapeHtml(t.stdout)}</h3><pre id="snippet-stdout"></pre>
    <h3>${escapeHtml(t.stderr)}</h3><pre id="snippet-stderr"></pre>
  </div>
</section>
<p><a href="/course">${escapeHtml(t.back)}</a></p>
</main>
<script type="module" src="/pygrade/console.js"></script>
</body></html>`;
}
