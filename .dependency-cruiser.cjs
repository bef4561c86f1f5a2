// The layers of ARCHITECTURE.md ("Layers"), enforced: `npm run check` runs
// `depcruise --config .dependency-cruiser.cjs apps packages bench` and fails on any `error`.
// Each rule's name and comment are what a failing import is told. docs/development.md ("Layers")
// explains the arrows and the few places that are allowed to cross them.

/** Tests and their helpers may reach inside a feature to set up data; the rules are for product code. */
const TESTS = '(\\.test\\.tsx?$|/testing\\.ts$|^apps/api/test/|^apps/web/e2e/)';
const FEATURE = '^apps/api/src/features/';
const DB = '^apps/api/src/db/';
const WEB = '^apps/web/src/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'web-imports-no-server-code',
      comment:
        'The web app talks to the server over HTTP only: it may import packages/contracts, never apps/api, apps/grader, packages/sandbox or packages/storage.',
      severity: 'error',
      from: { path: '^apps/web/' },
      to: {
        path: '^(apps/api|apps/grader|packages/sandbox|packages/storage)/',
        // The journeys (Node, not the app) start the real identity providers the API tests use:
        // test peers, not server code (apps/web/e2e/sso.spec.ts).
        pathNot: '^apps/api/test/peers/',
      },
    },
    {
      name: 'web-app-imports-no-test-peers',
      comment:
        'Only the journeys (apps/web/e2e) may start the test identity providers; the app never imports them.',
      severity: 'error',
      from: { path: '^apps/web/', pathNot: '^apps/web/e2e/' },
      to: { path: '^apps/api/test/' },
    },
    {
      name: 'nothing-imports-the-web-app',
      comment: 'Nothing outside apps/web imports the web app.',
      severity: 'error',
      from: { pathNot: '^apps/web/' },
      to: { path: '^apps/web/' },
    },
    {
      name: 'sandbox-knows-no-lms',
      comment:
        'packages/sandbox runs one untrusted program and knows nothing of the LMS: no apps/*, no contracts.',
      severity: 'error',
      from: { path: '^packages/sandbox/' },
      to: { path: '^(apps/|packages/contracts/)' },
    },
    {
      name: 'storage-knows-no-lms',
      comment:
        'packages/storage keeps bytes under keys (local disk, PostgreSQL, S3) and knows nothing of the LMS: no apps/*, no contracts, no sandbox. The API and the grader both use it.',
      severity: 'error',
      from: { path: '^packages/storage/' },
      to: { path: '^(apps/|packages/(contracts|sandbox)/)' },
    },
    {
      name: 'contracts-import-no-app-code',
      comment:
        'packages/contracts is shared by every app: it imports no app code, not the sandbox, not the storage.',
      severity: 'error',
      from: { path: '^packages/contracts/' },
      to: { path: '^(apps/|packages/(sandbox|storage)/)' },
    },
    {
      name: 'grader-imports-no-api',
      comment: 'The grader runs on hosts of its own: it imports the sandbox and contracts, never apps/api.',
      severity: 'error',
      from: { path: '^apps/grader/', pathNot: TESTS },
      to: { path: '^apps/api/' },
    },
    {
      name: 'db-imports-no-features',
      comment:
        'apps/api/src/db is the bottom layer: schema, client, migrations. It imports no feature (the demo seed lives in apps/api/src/demo).',
      severity: 'error',
      from: { path: DB, pathNot: TESTS },
      to: { path: FEATURE },
    },
    {
      name: 'only-repos-touch-the-database',
      comment:
        'Inside a feature only *.repo.ts (and the demo seeders, demo.ts) import values from apps/api/src/db; services and routes may import its types only.',
      severity: 'error',
      from: { path: FEATURE, pathNot: `(\\.repo\\.ts$|/demo\\.ts$|${TESTS})` },
      to: { path: DB, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'routes-call-services-not-repos',
      comment: 'A *.routes.ts file calls services; the service decides and calls the repos.',
      severity: 'error',
      from: { path: '\\.routes\\.ts$' },
      to: { path: '\\.repo\\.ts$' },
    },
    {
      name: 'repos-are-private-to-their-feature',
      comment:
        "A feature reads another feature's data through that feature's service, never its repo (types too: the service re-exports them).",
      severity: 'error',
      from: { path: '^apps/api/src/features/([^/]+)/', pathNot: TESTS },
      to: { path: `${FEATURE}[^/]+/.+\\.repo\\.ts$`, pathNot: '^apps/api/src/features/$1/' },
    },
    {
      name: 'repos-only-inside-features',
      comment:
        "Code outside the features (app.ts, lib/, db/, demo/, bench/) reaches a feature's data through its service, never its repo.",
      severity: 'error',
      from: { pathNot: `(${FEATURE}|${TESTS})` },
      to: { path: `${FEATURE}[^/]+/.+\\.repo\\.ts$` },
    },
    {
      name: 'arrows-point-down',
      comment: 'routes → services → repos → db: a repo imports no service or route, a service no route.',
      severity: 'error',
      from: { path: '\\.(repo|service)\\.ts$' },
      to: { path: '\\.routes\\.ts$' },
    },
    {
      name: 'repos-import-no-services',
      comment: 'routes → services → repos → db: a repo imports no service.',
      severity: 'error',
      from: { path: '\\.repo\\.ts$' },
      to: { path: '\\.service\\.ts$' },
    },
    {
      name: 'web-shell-composes-features',
      comment:
        'apps/web/src/app is the shell: it composes the features, and nothing under it imports it back. Features, ui/, routes/, i18n/ and api/ never import app/: what several features share lives below them (routes/ for paths, ui/ for NotFoundPage and PageLoader, features/courses/useCourse.ts for the current course). Only main.tsx, boot.ts and the tests import app/.',
      severity: 'error',
      from: { path: WEB, pathNot: `(${WEB}(app/|main\\.tsx$|boot\\.ts$|test/)|${TESTS})` },
      to: { path: `${WEB}app/` },
    },
    {
      name: 'no-import-cycles',
      comment:
        'Modules that import each other, directly or round a longer loop, type-only imports and import() included, have no layer above the other: move what both need into a module of its own, below both.',
      severity: 'error',
      from: { pathNot: TESTS },
      to: { circular: true },
    },
    {
      name: 'not-to-unresolvable',
      comment:
        'An import that resolves to nothing: a typo, or a package missing from package.json. ' +
        "(virtual:kadai-texts is made by the web build's plugin, apps/web/vite-page-texts.ts.)",
      severity: 'error',
      from: {},
      to: { couldNotResolve: true, pathNot: '^virtual:kadai-texts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist)/' },
    // Type-only imports count too (they are marked, so rules can tell them from value imports).
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
