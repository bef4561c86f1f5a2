import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tracing } from '@opentelemetry/sdk-node';
import { inSpanFrom, startTracing, stopTracing, traceFields } from '@kadai/grader/tracing';
import { call, createTestApp, type TestApp } from '../../test/harness.ts';
import {
  createSubmissionWorld,
  gradedDetail,
  insertAssignment,
  insertTestCase,
  type SubmissionWorld,
} from '../features/submissions/testing.ts';

// Traces (issue 41, part 2): with OpenTelemetry on, one trace follows a submission from the submitting
// request through the grading queue to the grader's sandbox runs. The SDK sends its spans to an
// in-memory exporter instead of a collector; the API and the in-process grader are the real ones.

const ADD = 'a, b = map(int, input().split())\nprint(a + b)\n';

describe('one trace across the API and the grader', () => {
  const exporter = new tracing.InMemorySpanExporter();
  let t: TestApp;
  let w: SubmissionWorld;
  let assignmentId: number;
  beforeAll(async () => {
    await startTracing({ serviceName: 'kadai-test', spanExporter: exporter });
    t = await createTestApp({
      grader: true,
      // The app traces its requests when an endpoint is configured; the spans go to the exporter above.
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' },
    });
    w = await createSubmissionWorld(t);
    assignmentId = (await insertAssignment(t, { courses: [{ courseId: w.course.id }] })).id;
    await insertTestCase(t, assignmentId, { stdin: '2 2\n', expectedStdout: '4\n', points: 1 });
  });
  afterAll(async () => {
    await t?.close();
    await stopTracing();
  });

  /** The spans finished so far, until one satisfies `found` (a span ends just after its work). */
  async function spansUntil(found: (spans: tracing.ReadableSpan[]) => boolean) {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const spans = exporter.getFinishedSpans();
      if (found(spans)) return spans;
      if (Date.now() > deadline) throw new Error(`no such span among ${spans.map((s) => s.name).join(', ')}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  it('follows a submission from its request to its sandbox runs', async () => {
    // A proxy's trace: the request continues it.
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const submitted = await call(t, 'POST', '/api/Submission/Submit/', {
      token: w.tokens.student,
      headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` },
      body: { assignment_id: assignmentId, course_id: w.course.id, code: ADD },
    });
    expect(submitted.status).toBe(201);
    const id = Number(submitted.json.id);
    expect((await gradedDetail(t, id, w.tokens.student)).status).toBe('Completed');

    const spans = await spansUntil((all) =>
      all.some((s) => s.name === 'grade submission' && s.attributes['kadai.submission_id'] === id),
    );
    const request = spans.find((s) => s.name === 'POST /api/Submission/Submit/');
    expect(request?.spanContext().traceId).toBe(traceId);
    // Labelled by the route, never by the URL asked for.
    expect(request?.attributes['url.path']).toBe('/api/Submission/Submit/');
    const grading = spans.find(
      (s) => s.name === 'grade submission' && s.attributes['kadai.submission_id'] === id,
    )!;
    expect(grading.spanContext().traceId).toBe(traceId);

    // The grading span hangs under the request: its parent is a span of the request's trace.
    const ofTrace = spans.filter((s) => s.spanContext().traceId === traceId);
    const byId = new Map(ofTrace.map((s) => [s.spanContext().spanId, s]));
    const ancestors: string[] = [];
    for (
      let s = byId.get(grading.parentSpanContext?.spanId ?? '');
      s;
      s = byId.get(s.parentSpanContext?.spanId ?? '')
    )
      ancestors.push(s.name);
    expect(ancestors).toContain('POST /api/Submission/Submit/');

    // The attempt's sandbox runs (the syntax check and the one test) hang under the grading span.
    const runs = ofTrace.filter(
      (s) => s.name === 'sandbox run' && s.parentSpanContext?.spanId === grading.spanContext().spanId,
    );
    expect(runs).toHaveLength(2);
    for (const run of runs) expect(run.attributes['kadai.sandbox.limit']).toBe('none');
  });

  it('starts a trace of its own for a request that brings none', async () => {
    const before = new Set(exporter.getFinishedSpans().map((s) => s.spanContext().traceId));
    expect((await call(t, 'GET', '/api/Course/', { token: w.tokens.student })).status).toBe(200);
    const spans = await spansUntil((all) => all.some((s) => s.name === 'GET /api/Course/'));
    const request = spans.filter((s) => s.name === 'GET /api/Course/').at(-1)!;
    expect(before.has(request.spanContext().traceId)).toBe(false);
    expect(request.attributes['http.route']).toBe('/api/Course/');
  });

  it('names the trace in log lines written inside a traced job', async () => {
    const traceId = '0af7651916cd43dd8448eb211c80319c';
    const fields = await inSpanFrom(
      'a job',
      { traceparent: `00-${traceId}-b7ad6b7169203331-01` },
      {},
      async () => traceFields(),
    );
    expect(fields.trace_id).toBe(traceId);
    expect(fields.span_id).toMatch(/^[0-9a-f]{16}$/);
    expect(traceFields()).toEqual({});
  });
});
