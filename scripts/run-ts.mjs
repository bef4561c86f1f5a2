// Runs one of the services' TypeScript entry points in this very process, with tsx's loader registered
// here: no npm and no second process in between, so a supervisor's SIGTERM reaches the service's own
// shutdown (docs/deploy.md, "Running under a supervisor").
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Imports `entry` (relative to the repository root) after registering tsx. With `tracing` (the service's
 * name) and OTEL_EXPORTER_OTLP_ENDPOINT set, OpenTelemetry starts first, so its pg instrumentation sees
 * `pg` load (docs/operations.md, "Traces").
 */
export async function runTypeScript(entry, { tracing } = {}) {
  const { register } = await import('tsx/esm/api');
  register();
  const traced =
    tracing && (process.env.OTEL_EXPORTER_OTLP_ENDPOINT || process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
  if (traced) {
    const { startTracing } = await import(path.join(root, 'apps/grader/src/tracing.ts'));
    await startTracing({ serviceName: tracing });
  }
  await import(path.join(root, entry));
}
