import type { FastifyInstance } from 'fastify';
import { FastifyOtelInstrumentation } from '@fastify/otel';
import { routeLabel } from './metrics.ts';

/*
 * The API's request spans (issue 41; docs/operations.md, "Traces"), when OTEL_EXPORTER_OTLP_ENDPOINT is
 * set: @fastify/otel starts a span per request (continuing a caller's `traceparent`) and one for its
 * handler, under which the pg instrumentation's query spans and a submission's grading job hang. The
 * SDK itself is started before the app loads (@kadai/grader/tracing, scripts/run-ts.mjs).
 */

/** Registers the request spans on `app`; call before the routes, so their handlers are wrapped. */
export async function traceRequests(app: FastifyInstance): Promise<void> {
  const instrumentation = new FastifyOtelInstrumentation({
    // A span per hook would be a dozen per request, and a handler's span is named after its plugin's
    // source text: the request's span, with its queries and jobs beneath, says where the time goes.
    instrumentHooks: false,
    instrumentHandler: false,
    // Prometheus's scrapes every 15 s are not worth a trace each.
    ignorePaths: '/metrics',
    // Named and labelled by route template: a URL can carry a secret (signed download links, calendar
    // feed tokens) that a trace store must not keep.
    requestHook: (span, request) => {
      const route = routeLabel(request);
      span.updateName(`${request.method} ${route}`);
      span.setAttribute('url.path', route);
    },
  });
  await app.register(instrumentation.plugin());
}
