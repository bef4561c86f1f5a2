import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cruise } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';

/*
 * The layer rules of .dependency-cruiser.cjs (`npm run layers`, docs/development.md "Layers") on a small
 * tree of their own, planted in a temporary folder: each forbidden import is reported under the rule
 * that forbids it, and the imports the rules allow (a repo of its own feature, a type from db/, a test
 * reaching into another feature, the web shell importing a feature) are not. `npm run layers` checks the real tree; this checks the rules.
 */

const CONFIG = fileURLToPath(new URL('../../../.dependency-cruiser.cjs', import.meta.url));

const TREE: Record<string, string> = {
  'apps/api/src/db/schema.ts': 'export const users = {};\nexport type UserId = number;\n',
  'apps/api/src/features/users/users.repo.ts':
    "import { users } from '../../db/schema.ts';\nexport const findUser = () => users;\n",
  'apps/api/src/features/users/users.service.ts':
    "import type { UserId } from '../../db/schema.ts';\nimport { findUser } from './users.repo.ts';\n" +
    'export const getUser = (_id: UserId) => findUser();\n',
  'apps/api/src/features/users/users.routes.ts':
    "import { getUser } from './users.service.ts';\nexport const route = getUser;\n",
  // Forbidden: a value from db/ in a service; another feature's repo; a route calling its repo.
  'apps/api/src/features/courses/courses.service.ts':
    "import { users } from '../../db/schema.ts';\nimport { findUser } from '../users/users.repo.ts';\n" +
    'export const both = [users, findUser];\n',
  'apps/api/src/features/courses/courses.routes.ts':
    "import { findUser } from '../users/users.repo.ts';\nexport const route = findUser;\n",
  // Allowed: tests set up their data wherever it lives.
  'apps/api/src/features/courses/courses.test.ts':
    "import { findUser } from '../users/users.repo.ts';\nexport const setUp = findUser;\n",
  // Forbidden: db/ importing a feature; code outside the features reaching a repo.
  'apps/api/src/db/seed.ts':
    "import { getUser } from '../features/users/users.service.ts';\nexport const s = getUser;\n",
  'apps/api/src/lib/access.ts':
    "import { findUser } from '../features/users/users.repo.ts';\nexport const a = findUser;\n",
  // Forbidden: two modules importing each other's values; two importing each other's types.
  'apps/api/src/lib/clock.ts': "import { tick } from './timer.ts';\nexport const now = () => tick;\n",
  'apps/api/src/lib/timer.ts': "import { now } from './clock.ts';\nexport const tick = () => now;\n",
  'apps/api/src/lib/shape.ts':
    "import type { Size } from './size.ts';\nexport type Shape = { size: Size };\n",
  'apps/api/src/lib/size.ts': "import type { Shape } from './shape.ts';\nexport type Size = Shape[];\n",
  // The web shell (app/) composes the features. Allowed: the shell loading a page, main.tsx starting the
  // shell, a feature's test rendering with the shell's providers, a feature linking through routes/.
  'apps/web/src/main.tsx': "import { App } from './app/App.tsx';\nexport const main = App;\n",
  'apps/web/src/app/App.tsx': "import { PAGES } from './pages.ts';\nexport const App = PAGES;\n",
  'apps/web/src/app/pages.ts':
    "export const PAGES = { Forum: () => import('../features/forum/ForumPage.tsx') };\n" +
    'export type PageName = keyof typeof PAGES;\n',
  'apps/web/src/app/route-table.ts': 'export const pathTo = (name: string) => `/${name}`;\n',
  'apps/web/src/routes/route-table.ts': 'export const pathTo = (name: string) => `/${name}`;\n',
  'apps/web/src/features/forum/ForumPage.test.tsx':
    "import { App } from '../../app/App.tsx';\nexport const shell = App;\n",
  // Forbidden: a feature importing the shell; i18n/ naming the pages table's type, which closes a circle
  // through a page that loads it (pages.ts → ForumPage.tsx → texts.ts ⇢ pages.ts, one arrow type-only).
  'apps/web/src/features/forum/ForumPage.tsx':
    "import { pathTo } from '../../app/route-table.ts';\nimport { pathTo as linkTo } from '../../routes/route-table.ts';\n" +
    "import { TEXTS } from '../../i18n/texts.ts';\nexport const ForumPage = [pathTo, linkTo, TEXTS];\n",
  'apps/web/src/i18n/texts.ts':
    "import type { PageName } from '../app/pages.ts';\nexport const TEXTS: PageName[] = [];\n",
  // Forbidden: the web app importing server code.
  'apps/web/src/page.ts': "import { users } from '../../api/src/db/schema.ts';\nexport const page = users;\n",
  // Forbidden: the file store knowing the LMS.
  'packages/storage/src/store.ts':
    "import { users } from '../../../apps/api/src/db/schema.ts';\nexport const store = users;\n",
};

describe('the layer rules', () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'kadai-layers-'));
    for (const [file, text] of Object.entries(TREE)) {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), text);
    }
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('name the rule each forbidden import breaks, and let the allowed ones be', async () => {
    const options = await extractDepcruiseOptions(CONFIG);
    // The planted tree has no tsconfig.json; type-only imports are still told apart without one.
    const result = await cruise(['apps', 'packages'], { ...options, baseDir: root, tsConfig: undefined });
    if (typeof result.output === 'string') throw new Error('expected the cruise result, not a report');
    const found = result.output.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`).sort();
    expect(found).toEqual(
      [
        'db-imports-no-features: apps/api/src/db/seed.ts → apps/api/src/features/users/users.service.ts',
        'only-repos-touch-the-database: apps/api/src/features/courses/courses.service.ts → apps/api/src/db/schema.ts',
        'repos-are-private-to-their-feature: apps/api/src/features/courses/courses.routes.ts → apps/api/src/features/users/users.repo.ts',
        'repos-are-private-to-their-feature: apps/api/src/features/courses/courses.service.ts → apps/api/src/features/users/users.repo.ts',
        'repos-only-inside-features: apps/api/src/lib/access.ts → apps/api/src/features/users/users.repo.ts',
        'routes-call-services-not-repos: apps/api/src/features/courses/courses.routes.ts → apps/api/src/features/users/users.repo.ts',
        'web-imports-no-server-code: apps/web/src/page.ts → apps/api/src/db/schema.ts',
        'storage-knows-no-lms: packages/storage/src/store.ts → apps/api/src/db/schema.ts',
        'web-shell-composes-features: apps/web/src/features/forum/ForumPage.tsx → apps/web/src/app/route-table.ts',
        'web-shell-composes-features: apps/web/src/i18n/texts.ts → apps/web/src/app/pages.ts',
        // A cycle is reported once, at the module where the cruise met it.
        'no-import-cycles: apps/api/src/lib/clock.ts → apps/api/src/lib/timer.ts',
        'no-import-cycles: apps/api/src/lib/shape.ts → apps/api/src/lib/size.ts',
        'no-import-cycles: apps/web/src/app/pages.ts → apps/web/src/features/forum/ForumPage.tsx',
      ].sort(),
    );
    // The service's type import of db/ was seen (as type-only), not missed.
    const service = result.output.modules.find((m) => m.source.endsWith('users/users.service.ts'));
    const typeImport = service?.dependencies.find((d) => d.resolved === 'apps/api/src/db/schema.ts');
    expect(typeImport?.dependencyTypes).toContain('type-only');
  });
});
