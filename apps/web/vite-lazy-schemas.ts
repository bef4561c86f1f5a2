// The shared contracts (packages/contracts) build their zod schemas as their modules load. The web app
// imports a feature's contracts with its page — every form, query and answer of it — but its first
// screen parses a handful of answers; building the rest cost a phone a fifth of the start-up's CPU
// time (docs/first-load.md). This plugin rewrites, in the web build and the web tests only, each
// top-level `const X = <a call that makes a schema>` of a contracts module into
// `const X = lazySchema(() => <the call>)` (src/api/lazy-schema.ts): the schema is built on first use.
// The API and the grader load the contracts as written.
//
// A call makes a schema when it starts from `z`, from a name in PascalCase (another schema: `Base.extend(…)`,
// `Id.nullable()`) or from one of the contracts' schema factories. src/api/lazy-schema.test.ts checks that
// every wrapped name of every contracts module is a zod schema, so a call this rule misjudges fails there.
import path from 'node:path';
import MagicString from 'magic-string';
import { parseAst } from 'rolldown/parseAst';
import type { Plugin } from 'vite';

const CONTRACTS = /[\\/]packages[\\/]contracts[\\/]src[\\/][^\\/]+\.ts$/u;
const LAZY_SCHEMA = path.resolve(import.meta.dirname, 'src/api/lazy-schema.ts');
/** The contracts' functions that return a schema (common.ts, text.ts, courses.ts). */
const SCHEMA_FACTORIES = new Set(['paginated', 'str', 'text', 'markdown', 'optionalText', 'timeZone']);
/** zod's functions that make something other than a schema (a check for `.check(…)`, a registry). */
const NOT_SCHEMAS = new Set(['check', 'superRefine', 'refine', 'registry', 'config']);

interface Node {
  type: string;
  start: number;
  end: number;
  [key: string]: unknown;
}

function child(node: Node, key: string): Node | null {
  const value = node[key];
  return typeof value === 'object' && value !== null ? (value as Node) : null;
}

/** The identifier a chain of calls and member accesses starts from: `z` in `z.object(…).strict()`. */
function chainRoot(expression: Node): string | null {
  let node: Node | null = expression;
  while (node !== null && (node.type === 'CallExpression' || node.type === 'MemberExpression')) {
    node = child(node, node.type === 'CallExpression' ? 'callee' : 'object');
  }
  return node?.type === 'Identifier' ? (node['name'] as string) : null;
}

/** The name of the zod function a call is, `check` in `z.check(…)`; null for a call of something else. */
function zodFunction(call: Node): string | null {
  const callee = child(call, 'callee');
  if (callee?.type !== 'MemberExpression') return null;
  const object = child(callee, 'object');
  const property = child(callee, 'property');
  if (object?.type !== 'Identifier' || object['name'] !== 'z' || property?.type !== 'Identifier') return null;
  return property['name'] as string;
}

function makesSchema(init: Node): boolean {
  if (init.type !== 'CallExpression') return false;
  const zod = zodFunction(init);
  if (zod !== null && NOT_SCHEMAS.has(zod)) return false;
  const root = chainRoot(init);
  return root !== null && (root === 'z' || /^[A-Z][a-z]/u.test(root) || SCHEMA_FACTORIES.has(root));
}

export function isContractsModule(id: string): boolean {
  return CONTRACTS.test(id) && !id.endsWith('.test.ts');
}

/** The module with its schema-making top-level constants wrapped, and their names; null when it has none. */
export function wrapSchemas(
  code: string,
): { code: string; names: string[]; map: ReturnType<MagicString['generateMap']> } | null {
  const ast = parseAst(code, { lang: 'ts' }) as unknown as { body: Node[] };
  const output = new MagicString(code);
  const names: string[] = [];
  for (const statement of ast.body) {
    const declaration =
      statement.type === 'ExportNamedDeclaration' ? child(statement, 'declaration') : statement;
    if (declaration?.type !== 'VariableDeclaration' || declaration['kind'] !== 'const') continue;
    for (const declarator of declaration['declarations'] as Node[]) {
      const id = child(declarator, 'id');
      const init = child(declarator, 'init');
      if (id?.type !== 'Identifier' || init === null || !makesSchema(init)) continue;
      output.appendLeft(init.start, '/* @__PURE__ */ __lazySchema(() => (');
      output.appendRight(init.end, '))');
      names.push(id['name'] as string);
    }
  }
  if (names.length === 0) return null;
  output.prepend(`import { lazySchema as __lazySchema } from ${JSON.stringify(LAZY_SCHEMA)};\n`);
  return { code: output.toString(), names, map: output.generateMap({ hires: 'boundary' }) };
}

export function lazySchemas(): Plugin {
  return {
    name: 'kadai-lazy-schemas',
    transform(code, id) {
      if (!isContractsModule(id)) return null;
      const wrapped = wrapSchemas(code);
      return wrapped === null ? null : { code: wrapped.code, map: wrapped.map };
    },
  };
}
