/**
 * OpenTelemetry traces (issue 41; docs/operations.md, "Traces"): off unless OTEL_EXPORTER_OTLP_ENDPOINT is
 * set. The API and the grader start the SDK before their own code loads (scripts/run-ts.mjs), so the pg
 * instrumentation sees `pg` being loaded; the API's requests get spans from @fastify/otel. A grading job
 * carries the submitting request's trace context, and the grader continues that trace, so one trace
 * shows a submission from the request through the queue to its sandbox runs. Without the SDK, every call
 * here works on OpenTelemetry's no-op API: nothing is recorded and next to nothing is spent.
 */
import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  context,
  propagation,
  trace,
  type Attributes,
} from '@opentelemetry/api';
import type { NodeSDK, tracing } from '@opentelemetry/sdk-node';

/** A trace context as text (W3C `traceparent`, `tracestate`), as it travels in a job's data. */
export type TraceCarrier = Record<string, string>;

const tracer = () => trace.getTracer('kadai');

/** The active span's trace context, to carry in a job's data; undefined when nothing is being traced. */
export function currentTraceCarrier(): TraceCarrier | undefined {
  const carrier: TraceCarrier = {};
  propagation.inject(context.active(), carrier);
  return Object.keys(carrier).length > 0 ? carrier : undefined;
}

/**
 * Runs `work` in a new span (a consumer's: a job taken from the queue) continuing the trace `carrier`
 * names, or a new trace without one. The span records a thrown error and ends when `work` settles.
 */
export function inSpanFrom<T>(
  name: string,
  carrier: TraceCarrier | undefined,
  attributes: Attributes,
  work: () => Promise<T>,
): Promise<T> {
  const parent = carrier ? propagation.extract(ROOT_CONTEXT, carrier) : ROOT_CONTEXT;
  return tracer().startActiveSpan(name, { kind: SpanKind.CONSUMER, attributes }, parent, async (span) => {
    try {
      return await work();
    } catch (error) {
      span.recordException(error instanceof Error ? error : String(error));
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw error;
    } finally {
      span.end();
    }
  });
}

/** What a sandbox run's span records of its result. */
interface RunOutcome {
  timeMs: number;
  cpuMs: number | null;
  limit: string | null;
}

/**
 * `run` with a span for each sandbox run (a syntax check, a test case, a checker, a pytest pair) under
 * the attempt's: its wall and CPU time and the limit it hit, where a trace shows where an attempt's time went.
 */
export function traceSandbox<R, S extends RunOutcome>(
  run: (request: R) => Promise<S>,
): (request: R) => Promise<S> {
  return (request) =>
    tracer().startActiveSpan('sandbox run', { kind: SpanKind.INTERNAL }, async (span) => {
      try {
        const result = await run(request);
        span.setAttributes({
          'kadai.sandbox.wall_ms': result.timeMs,
          'kadai.sandbox.limit': result.limit ?? 'none',
          ...(result.cpuMs === null ? {} : { 'kadai.sandbox.cpu_ms': result.cpuMs }),
        });
        return result;
      } catch (error) {
        span.recordException(error instanceof Error ? error : String(error));
        span.setStatus({ code: SpanStatusCode.ERROR });
        throw error;
      } finally {
        span.end();
      }
    });
}

/** The active span's ids for a log line (`trace_id`, `span_id`), or nothing outside a traced span. */
export function traceFields(): { trace_id?: string; span_id?: string } {
  const span = trace.getSpan(context.active());
  if (!span) return {};
  const { traceId, spanId, traceFlags } = span.spanContext();
  // Unsampled or no-op spans name nothing a trace store would have.
  if ((traceFlags & 1) === 0) return {};
  return { trace_id: traceId, span_id: spanId };
}

/** Whether this process exports traces: the SDK's own variable (an OTLP collector's address). */
export function isTracingConfigured(env: Record<string, string | undefined> = process.env): boolean {
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

export interface TracingOptions {
  /** `kadai-api`, `kadai-grader` (OTEL_SERVICE_NAME wins when set). */
  serviceName: string;
  /** Tests: where spans go instead of OTLP (an in-memory exporter). */
  spanExporter?: tracing.SpanExporter;
}

let started: { sdk: NodeSDK; instrumentations: { disable(): void }[] } | null = null;

/**
 * Starts the SDK (once per process): OTLP over HTTP to OTEL_EXPORTER_OTLP_ENDPOINT as the SDK reads its
 * OTEL_* variables, W3C trace context, the pg instrumentation. The SDK is loaded only here, so a process
 * that does not trace never loads it.
 */
export async function startTracing(options: TracingOptions): Promise<void> {
  if (started) return;
  const [{ NodeSDK, tracing }, { PgInstrumentation }, { resourceFromAttributes }] = await Promise.all([
    import('@opentelemetry/sdk-node'),
    import('@opentelemetry/instrumentation-pg'),
    import('@opentelemetry/resources'),
  ]);
  // Query spans only under a request's or a job's: pg-boss's polling and heartbeats would flood traces.
  const instrumentations = [new PgInstrumentation({ requireParentSpan: true })];
  const sdk = new NodeSDK({
    resource: resourceFromAttributes({
      'service.name': process.env.OTEL_SERVICE_NAME ?? options.serviceName,
    }),
    ...(options.spanExporter
      ? { spanProcessors: [new tracing.SimpleSpanProcessor(options.spanExporter)] }
      : {}),
    // Spans only: metrics go to Prometheus (/metrics), logs to the process's own output.
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations,
  });
  sdk.start();
  started = { sdk, instrumentations };
}

/** Sends the spans still buffered and stops the SDK (a process's shutdown; tests between files). */
export async function stopTracing(): Promise<void> {
  const running = started;
  started = null;
  if (!running) return;
  await running.sdk.shutdown();
  for (const instrumentation of running.instrumentations) instrumentation.disable();
  // The SDK leaves its globals registered; a later start (another test file) must be able to set them.
  trace.disable();
  context.disable();
  propagation.disable();
}
