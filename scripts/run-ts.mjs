// Runs one of the services' TypeScript entry points in this very process, with tsx's loader registered
// here: no npm and no second process in between, so a supervisor's SIGTERM reaches the service's own
// shutdown (docs/deploy.md, "Running under a supervisor").
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Imports `entry` (relative to the repository root) after registering tsx. */
export async function runTypeScript(entry) {
  const { register } = await import('tsx/esm/api');
  register();
  await import(path.join(root, entry));
}
