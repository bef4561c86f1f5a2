// `npm run grader`: a grading worker on its own host. The TypeScript runs in this very process (tsx's
// loader registered here), so a supervisor's SIGTERM reaches the grader's own shutdown — it finishes
// or hands back its running work — with nothing in between to exit early. Under systemd, run
// `node scripts/grader.mjs` itself rather than through npm (docs/deploy.md).
import { runTypeScript } from './run-ts.mjs';

await runTypeScript('apps/grader/src/main.ts', { tracing: 'kadai-grader' });
