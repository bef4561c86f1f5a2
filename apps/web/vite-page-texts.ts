// Each page's texts, downloaded with the page. The dictionaries (src/i18n/ja.json, en-US.json) stay one
// file per language for whoever writes them; the build cuts each into a part for the shell (what the
// app's frame and its lazy parts show) and one part per page of src/app/pages.ts (what that page and
// everything it loads show, less the shell's), found by reading the source:
//  - the modules of a part: the closure of the relative imports, static and dynamic, from the shell's
//    entries or from the page's module; the pages table's own imports are where the pages begin, and a
//    page's closure stops at the shell's modules, whose texts the shell's part has;
//  - the texts of a module: every string literal that names a key of the English dictionary (`'a.b'`,
//    `"a.b"`, `` `a.b` ``), with its plural and context forms (`a.b_one`, `a.b_other`); a template cut
//    short by `${` (`` `status.${x}` ``) takes the whole object before it (`status`); the texts a value
//    nests with `$t(key)` come along.
// The app loads the shell's part before it first renders and a page's part with the page's code
// (src/i18n/index.ts); a key that is still missing makes it load the whole dictionary, so a text the
// reading above cannot see costs a moment, never a key in place of a text.
//
// The virtual module `virtual:kadai-texts` exports `TEXTS[language][part]`, a loader per part. In
// development and tests every part is the whole dictionary.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';

export const LANGUAGES = ['ja', 'en-US'] as const;
export type TextLanguage = (typeof LANGUAGES)[number];
export const SHELL_PART = 'shell';

/** The modules the app starts from (index.html's scripts and the first screen's stages). */
export const SHELL_ENTRIES = ['src/boot.ts', 'src/main.tsx', 'src/app/first-screen.ts'];
/** The table of pages: each of its dynamic imports is a page's module. */
export const PAGES_TABLE = 'src/app/pages.ts';

export interface Dictionary {
  [key: string]: string | Dictionary;
}

interface ModuleInfo {
  imports: string[];
  dynamicImports: string[];
  keys: string[];
}

const STATIC_IMPORT =
  /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"](\.{1,2}\/[^'"]+)['"]|^import\s*['"](\.{1,2}\/[^'"]+)['"]/gmu;
const DYNAMIC_IMPORT = /import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/gu;
/** A quoted key: a dotted path closed by its quote, or a template's head up to its first `${`. */
const KEY_LITERAL = /(['"`])([A-Za-z]\w*(?:\.[\w-]+)*\.?)(\$\{|\1)/gu;
/** `Name: () => import('../features/x/Page.tsx')` in the pages table. */
const PAGE_ENTRY = /(\w+):\s*\(\)\s*=>\s*import\(\s*'([^']+)'\s*\)/gu;
const NESTED_KEY = /\$t\(([\w.-]+)/gu;

/** The keys a module's source names: `a.b` for a whole path, `a.` for everything under `a`. */
export function keysIn(source: string): string[] {
  const keys = new Set<string>();
  for (const [, , literal, end] of source.matchAll(KEY_LITERAL)) {
    if (literal === undefined || !literal.includes('.')) continue;
    // `status.${x}` and `a.b.${x}.c` name everything under what comes before the template's gap.
    keys.add(end === '${' ? `${literal.slice(0, literal.lastIndexOf('.'))}.` : literal);
  }
  return [...keys];
}

function relativeImports(source: string, pattern: RegExp, file: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(pattern)) {
    const specifier = match[1] ?? match[2];
    if (specifier && /\.tsx?$/u.test(specifier)) found.push(path.resolve(path.dirname(file), specifier));
  }
  return found;
}

/** What the plan needs of the sources: the dictionary to find keys in, and a file reader. */
export interface SourceTree {
  root: string;
  read: (file: string) => string;
  english: Dictionary;
}

/** The parts of one build: the shell's key paths and each page's (without the shell's). */
export interface TextPlan {
  shell: string[];
  pages: Record<string, string[]>;
}

/** Which texts each part holds, as the leaf paths of the English dictionary (`auth.signIn.title`). */
export function planTexts(tree: SourceTree): TextPlan {
  const modules = new Map<string, ModuleInfo>();
  const pagesTable = path.resolve(tree.root, PAGES_TABLE);
  const infoOf = (file: string): ModuleInfo => {
    let info = modules.get(file);
    if (!info) {
      const source = tree.read(file);
      info = {
        imports: relativeImports(source, STATIC_IMPORT, file),
        dynamicImports: relativeImports(source, DYNAMIC_IMPORT, file),
        keys: keysIn(source),
      };
      modules.set(file, info);
    }
    return info;
  };
  const closure = (starts: string[], outside: ReadonlySet<string>): Set<string> => {
    const seen = new Set<string>();
    const pending = [...starts];
    for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
      if (seen.has(file) || outside.has(file)) continue;
      seen.add(file);
      const info = infoOf(file);
      pending.push(...info.imports);
      if (file !== pagesTable) pending.push(...info.dynamicImports);
    }
    return seen;
  };
  const leavesOf = (files: Iterable<string>): Set<string> => {
    const leaves = new Set<string>();
    for (const file of files) {
      for (const key of infoOf(file).keys)
        for (const leaf of selectLeaves(tree.english, key)) leaves.add(leaf);
    }
    return withNestedKeys(tree.english, leaves);
  };

  const shellModules = closure(
    SHELL_ENTRIES.map((entry) => path.resolve(tree.root, entry)),
    new Set(),
  );
  const shell = leavesOf(shellModules);
  const pages: Record<string, string[]> = {};
  for (const [name, file] of pagesIn(tree.read(pagesTable), pagesTable)) {
    pages[name] = [...leavesOf(closure([file], shellModules))].filter((leaf) => !shell.has(leaf)).sort();
  }
  return { shell: [...shell].sort(), pages };
}

/** The pages table's entries: each page's name and module. */
export function pagesIn(source: string, tableFile: string): [string, string][] {
  return [...source.matchAll(PAGE_ENTRY)].map(([, name, specifier]) => [
    name!,
    path.resolve(path.dirname(tableFile), specifier!),
  ]);
}

function leafPaths(value: string | Dictionary, at: string, into: string[]): void {
  if (typeof value === 'string') into.push(at);
  else for (const [key, child] of Object.entries(value)) leafPaths(child, `${at}.${key}`, into);
}

/**
 * The leaves a key names in `dictionary`: the key itself (a text, or an object of them), and its plural
 * and context forms beside it (`key_one`, `key_other`, `key_male`); a key ending in `.` names the whole
 * object before the dot. A key the dictionary does not have names nothing.
 */
export function selectLeaves(dictionary: Dictionary, key: string): string[] {
  const whole = key.endsWith('.');
  const parts = (whole ? key.slice(0, -1) : key).split('.');
  const last = parts.pop()!;
  let parent: string | Dictionary | undefined = dictionary;
  for (const part of parts) parent = typeof parent === 'object' ? parent[part] : undefined;
  if (typeof parent !== 'object') return [];
  const base = parts.length > 0 ? `${parts.join('.')}.` : '';
  const leaves: string[] = [];
  for (const [name, value] of Object.entries(parent)) {
    if (name === last || (!whole && name.startsWith(`${last}_`))) leafPaths(value, `${base}${name}`, leaves);
  }
  return leaves;
}

function textAt(dictionary: Dictionary, leaf: string): string | Dictionary | undefined {
  let node: string | Dictionary | undefined = dictionary;
  for (const part of leaf.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  return node;
}

/** `leaves` with every key their texts nest (`$t(quiz.question.points, …)`), and theirs in turn. */
function withNestedKeys(dictionary: Dictionary, leaves: Set<string>): Set<string> {
  const pending = [...leaves];
  for (let leaf = pending.pop(); leaf !== undefined; leaf = pending.pop()) {
    const text = textAt(dictionary, leaf);
    if (typeof text !== 'string') continue;
    for (const [, nested] of text.matchAll(NESTED_KEY)) {
      for (const found of selectLeaves(dictionary, nested!)) {
        if (!leaves.has(found)) {
          leaves.add(found);
          pending.push(found);
        }
      }
    }
  }
  return leaves;
}

/**
 * One language's texts for a part: the English leaves chosen, with each language's own plural forms
 * (Japanese has only `_other`, where English has `_one` and `_other`).
 */
export function textsFor(dictionary: Dictionary, englishLeaves: readonly string[]): Dictionary {
  const out: Dictionary = {};
  const chosen = new Set<string>();
  for (const leaf of englishLeaves) {
    const plural = /_(?:zero|one|two|few|many|other)$/u.exec(leaf);
    const key = plural ? leaf.slice(0, plural.index) : leaf;
    for (const found of plural ? selectLeaves(dictionary, key) : [leaf]) chosen.add(found);
  }
  for (const leaf of chosen) {
    const text = textAt(dictionary, leaf);
    if (typeof text !== 'string') continue;
    const parts = leaf.split('.');
    const last = parts.pop()!;
    let node = out;
    for (const part of parts) {
      const next = node[part];
      node = typeof next === 'object' ? next : (node[part] = {});
    }
    node[last] = text;
  }
  return out;
}

const VIRTUAL_ID = 'virtual:kadai-texts';
const RESOLVED_TABLE = `\0${VIRTUAL_ID}`;
/** A part's module: `\0kadai-texts:ja:Login`. */
const PART_PREFIX = '\0kadai-texts:';

function loaderTable(parts: readonly string[], partId: (language: string, part: string) => string): string {
  const byLanguage = LANGUAGES.map((language) => {
    const loaders = parts.map(
      (part) => `${JSON.stringify(part)}: () => import(${JSON.stringify(partId(language, part))})`,
    );
    return `${JSON.stringify(language)}: {${loaders.join(',')}}`;
  });
  return `export const TEXTS = {${byLanguage.join(',')}};\n`;
}

/** The Vite plugin: `virtual:kadai-texts` and its parts. */
export function pageTexts(): Plugin {
  const root = import.meta.dirname;
  const dictionaryFile = (language: string) => path.join(root, 'src/i18n', `${language}.json`);
  // Each dictionary read once per build, not once per part (two languages, a part per page).
  const dictionaries = new Map<string, Dictionary>();
  const dictionary = (language: string): Dictionary => {
    let read = dictionaries.get(language);
    if (!read) {
      read = JSON.parse(readFileSync(dictionaryFile(language), 'utf8')) as Dictionary;
      dictionaries.set(language, read);
    }
    return read;
  };
  let building = false;
  let plan: TextPlan | undefined;
  const planned = (): TextPlan =>
    (plan ??= planTexts({
      root,
      read: (file) => readFileSync(file, 'utf8'),
      english: dictionary('en-US'),
    }));
  const partsOf = (): string[] => [
    SHELL_PART,
    ...pagesIn(readFileSync(path.join(root, PAGES_TABLE), 'utf8'), '').map(([name]) => name),
  ];
  return {
    name: 'kadai-page-texts',
    configResolved(config) {
      building = config.command === 'build';
    },
    resolveId(source) {
      if (source === VIRTUAL_ID) return RESOLVED_TABLE;
      if (source.startsWith(PART_PREFIX)) return source;
      return null;
    },
    load(id) {
      if (id === RESOLVED_TABLE) {
        // In development a part is the dictionary's own module, so an edited text shows at once.
        return loaderTable(partsOf(), (language, part) =>
          building ? `${PART_PREFIX}${language}:${part}` : `/src/i18n/${language}.json`,
        );
      }
      if (!id.startsWith(PART_PREFIX)) return null;
      const [language, part] = id.slice(PART_PREFIX.length).split(':');
      const leaves = part === SHELL_PART ? planned().shell : planned().pages[part!];
      if (!leaves || !(LANGUAGES as readonly string[]).includes(language!)) {
        this.error(`No texts for ${id.slice(1)}`);
      }
      const texts = textsFor(dictionary(language!), leaves);
      // JSON.parse of a string reads faster than an object literal of the same texts.
      return `export default JSON.parse(${JSON.stringify(JSON.stringify(texts))});\n`;
    },
  };
}
