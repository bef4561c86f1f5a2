import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// mantine-styles.ts imports the stylesheets of the Mantine components the app draws, not all 105 of
// them. This test works out which those are and fails, with the list to paste, when one is missing (a
// component drawn without its styles) or no longer needed.

const require = createRequire(import.meta.url);
/** A package's folder, from where its entry resolves (not every Mantine package exports package.json). */
function packageRoot(name: string): string {
  const entry = require.resolve(name);
  return entry.slice(0, entry.lastIndexOf(name) + name.length);
}
const CORE = packageRoot('@mantine/core');
const ESM = path.join(CORE, 'esm');
const SRC = path.resolve(import.meta.dirname, '..');
/** The Mantine packages the app uses that draw @mantine/core's components (they have their own CSS). */
const PACKAGES = ['@mantine/notifications', '@mantine/modals'];
/** Always needed: what styles.css begins with. */
const FOUNDATION = ['baseline', 'default-css-variables', 'global'];

const IMPORT = /import\s*\{([^}]*)\}\s*from\s*['"]([^'"]+)['"]/gu;

function importedNames(source: string, from: string): string[] {
  return [...source.matchAll(IMPORT)]
    .filter(([, , module]) => module === from)
    .flatMap(([, names = '']) => names.split(','))
    .map((name) => name.trim())
    .filter((name) => name !== '' && !name.startsWith('type '))
    .map((name) => name.split(/\s+as\s+/u)[0]!);
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'test' ? [] : sourceFiles(full);
    return /\.tsx?$/u.test(entry.name) && !/\.test\.tsx?$/u.test(entry.name) ? [full] : [];
  });
}

/** The names the app and the other Mantine packages take from @mantine/core. */
function usedNames(): Set<string> {
  const files = [
    ...sourceFiles(SRC),
    ...PACKAGES.flatMap((name) => {
      const esm = path.join(packageRoot(name), 'esm');
      return readdirSync(esm)
        .filter((file) => file.endsWith('.mjs'))
        .map((file) => path.join(esm, file));
    }),
  ];
  return new Set(files.flatMap((file) => importedNames(readFileSync(file, 'utf8'), '@mantine/core')));
}

/** Each of @mantine/core's exported names, with the module that defines it. */
function exportedFrom(): Map<string, string> {
  const index = readFileSync(path.join(ESM, 'index.mjs'), 'utf8');
  const modules = new Map<string, string>();
  for (const [, names = '', module = ''] of index.matchAll(IMPORT)) {
    // Its own modules only (it re-exports a few names of other packages, which have no stylesheet).
    if (!module.startsWith('.')) continue;
    for (const name of names.split(',')) {
      const local = name.trim().split(/\s+as\s+/u);
      modules.set((local[1] ?? local[0]!).trim(), path.resolve(ESM, module));
    }
  }
  return modules;
}

/** The stylesheets (by name) of the CSS modules that `roots` reach through their imports. */
function stylesReached(roots: string[]): Set<string> {
  const seen = new Set<string>();
  const styles = new Set<string>();
  const queue = [...roots];
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    const css = /([A-Za-z]+)\.module\.mjs$/u.exec(file)?.[1];
    if (css !== undefined && existsSync(path.join(CORE, 'styles', `${css}.css`))) styles.add(css);
    for (const [, relative = ''] of readFileSync(file, 'utf8').matchAll(/from\s*['"](\.[^'"]+)['"]/gu)) {
      queue.push(path.resolve(path.dirname(file), relative));
    }
  }
  return styles;
}

/** The order styles.css has them in (later sheets override earlier ones). */
function inStylesOrder(names: Iterable<string>): string[] {
  const all = readFileSync(path.join(CORE, 'styles.css'), 'utf8');
  const at = (name: string) =>
    all.indexOf(
      readFileSync(path.join(CORE, 'styles', `${name}.css`), 'utf8')
        .trim()
        .slice(0, 400),
    );
  return [...names].sort((a, b) => at(a) - at(b));
}

describe("Mantine's stylesheets", () => {
  it('are those of the components the app draws, in the order of styles.css', () => {
    const modules = exportedFrom();
    const roots = [...usedNames()].flatMap((name) => {
      const module = modules.get(name);
      return module === undefined ? [] : [module];
    });
    const expected = [...FOUNDATION, ...inStylesOrder(stylesReached(roots))];
    const imported = [
      ...readFileSync(path.join(SRC, 'app', 'mantine-styles.ts'), 'utf8').matchAll(
        /^import '@mantine\/core\/styles\/([\w-]+)\.css';$/gmu,
      ),
    ].map(([, name]) => name);
    const lines = expected.map((name) => `import '@mantine/core/styles/${name}.css';`).join('\n');
    expect(imported, `mantine-styles.ts should import, in this order:\n${lines}\n`).toEqual(expected);
  });
});
