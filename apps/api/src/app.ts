import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import fastifyStatic from '@fastify/static';
import multipart from '@fastify/multipart';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import type { AppContext } from './lib/context.ts';
import { handleErrors } from './lib/error-handler.ts';
import { registerAccessControl } from './lib/access.ts';
import { registerCompression } from './lib/compression.ts';
import { openApiOptions } from './lib/openapi.ts';
import {
  allowFraming,
  isApiAnswer,
  registerSecurityHeaders,
  securityHeaderSetter,
} from './lib/security-headers.ts';
import { serializerCompiler } from './lib/serializer.ts';
import { requestValidatorCompiler } from './lib/validation.ts';
import { AUTH_CHANNEL, SessionCache } from './lib/session-cache.ts';
import { createStoppedQueue, readQueueBacklog, type JobQueue } from './lib/jobs.ts';
import { countRequests, registerGauges, serveMetrics } from './lib/metrics.ts';
import { traceFields } from '@kadai/grader/tracing';
import type { SandboxProbe } from './lib/sandbox-probe.ts';
import { createStorage, type Storage } from './lib/storage.ts';
import { closeGracefully } from './lib/graceful-close.ts';
import { shedLoad } from './lib/load-shedding.ts';
import { registerHealthRoutes } from './features/health/health.routes.ts';
import { registerAuthRoutes } from './features/auth/auth.routes.ts';
import { registerRegistrationRoutes } from './features/auth/registration.routes.ts';
import { registerMailRoutes } from './features/mail/mail.routes.ts';
import { registerUnsubscribeRoutes } from './features/notifications/unsubscribe.routes.ts';
import { registerGoogleAuthRoutes } from './features/auth/google.routes.ts';
import { registerIdentityRoutes } from './features/identity/identities.routes.ts';
import { registerProviderRoutes } from './features/identity/providers.routes.ts';
import { registerSsoRoutes } from './features/identity/sso.routes.ts';
import { registerLtiAppRoutes } from './features/lti/lti-app.routes.ts';
import { registerLtiStaffRoutes } from './features/lti/lti-staff.routes.ts';
import { registerLtiRoutes } from './features/lti/lti.routes.ts';
import { currentFrameOrigins } from './features/lti/platforms.service.ts';
import { registerUserRoutes } from './features/users/users.routes.ts';
import { registerCourseRoutes } from './features/courses/courses.routes.ts';
import { registerMemberRoutes } from './features/courses/members.routes.ts';
import { registerOverviewRoutes } from './features/overview/overview.routes.ts';
import { registerPygradeApiRoutes } from './features/pygrade/console.routes.ts';
import { registerAssignmentRoutes } from './features/assignments/assignments.routes.ts';
import { registerAssignmentFileRoutes } from './features/assignments/files.routes.ts';
import { registerAssignmentBundleRoutes } from './features/assignments/bundles.routes.ts';
import { registerTestCaseRoutes } from './features/assignments/test-cases.routes.ts';
import { registerDownloadRoutes } from './features/downloads/downloads.routes.ts';
import { registerSubmissionRoutes } from './features/submissions/submissions.routes.ts';
import { registerQuizRoutes } from './features/quizzes/quizzes.routes.ts';
import { registerEventRoutes } from './features/events/events.routes.ts';
import { registerFeedRoutes } from './features/events/feed.routes.ts';
import { registerForumFileRoutes } from './features/forum/files.routes.ts';
import { registerForumRoutes } from './features/forum/forum.routes.ts';
import { registerVideoRoutes } from './features/videos/videos.routes.ts';
import { registerAssessmentRoutes } from './features/assessment/assessment.routes.ts';
import { registerGradebookRoutes } from './features/assessment/gradebook.routes.ts';
import { registerExtensionRoutes } from './features/extensions/extensions.routes.ts';
import { registerNotificationRoutes } from './features/notifications/notifications.routes.ts';
import { countRecentEmails } from './features/mail/outbox-counts.service.ts';
import { registerReviewRoutes } from './features/review/review.routes.ts';
import { registerReviewCommentRoutes } from './features/review/review-comments.routes.ts';
import { registerSimilarityRoutes } from './features/similarity/similarity.routes.ts';
import { registerPrivacyRoutes } from './features/privacy/privacy.routes.ts';
import { registerVideoFileRoutes } from './features/videos/files.routes.ts';
import { registerInternalKernelRoutes } from './features/workbooks/internal.routes.ts';
import { attachKernelHost } from './features/workbooks/kernel-host.ts';
import type { KernelPool } from './features/workbooks/kernels.ts';
import {
  registerWorkbookConfigRoutes,
  registerWorkbookRoutes,
} from './features/workbooks/workbooks.routes.ts';

const REQUEST_ID = /^[\w.:-]{1,128}$/;

function trustHops(hops: number): (address: string, hop: number) => boolean {
  return (_address, hop) => hop < hops;
}

declare module 'fastify' {
  interface FastifyInstance {
    workbookKernels: KernelPool;
    /** The context the app's services run with (its background jobs and tests use it too). */
    appContext: AppContext;
  }
}

/** Largest JSON body the API reads; uploads have their own per-feature limits. */
export const BODY_LIMIT_BYTES = 2 * 1024 * 1024;

export interface AppOptions {
  config: Config;
  database: Database;
  jobs?: JobQueue;
  /** Default: the store STORAGE names (local disk under STORAGE_DIR or DATA_DIR/files by default). */
  storage?: Storage;
  sandbox?: SandboxProbe;
  /** The workbook kernels of this process (default: a pool of WORKBOOK_MAX_KERNELS real kernels). */
  kernels?: KernelPool;
  /** Serve the built web app from this folder (skipped when it does not exist). */
  webDistDir?: string;
  logger?: boolean;
}

/** The compressed copies beside the web app's files: sent in their place by negotiation, never by name. */
const PRECOMPRESSED_FILES = ['**/*.br', '**/*.gz'];

/**
 * Security headers that only a document obeys. A page loads some 30 scripts and a stylesheet, each
 * carrying ~600 bytes of them over HTTP/1.1 for nothing (a script is never a document; an SVG or HTML
 * file can be, and keeps them). nosniff and Cross-Origin-Resource-Policy stay: they do guard scripts.
 */
const DOCUMENT_ONLY_HEADERS = [
  'content-security-policy',
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
];
/** A built script or stylesheet, or its precompressed copy (what @fastify/static names when it sends one). */
const SCRIPT_OR_STYLE = /\.(?:js|css)(?:\.br|\.gz)?$/u;

const DEFAULT_WEB_DIST = fileURLToPath(new URL('../../web/dist', import.meta.url));

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config, database } = options;
  const setSecurityHeaders = securityHeaderSetter(config);
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : {
            level: config.LOG_LEVEL,
            redact: ['req.headers.authorization', 'req.headers.cookie', 'body.password'],
            // Each line logged inside a traced request names its trace (docs/operations.md, "Traces").
            ...(config.OTEL_EXPORTER_OTLP_ENDPOINT ? { mixin: traceFields } : {}),
          },
    bodyLimit: BODY_LIMIT_BYTES,
    // closeGracefully answers what arrives while closing, in full; Fastify's own 503 would not.
    return503OnClosing: false,
    trustProxy:
      typeof config.TRUST_PROXY === 'number'
        ? // Fastify refuses a bare hop count (it cannot check the nearest peer); the operator chose it.
          trustHops(config.TRUST_PROXY)
        : config.TRUST_PROXY,
    // A caller's X-Request-Id (a proxy's trace id) is kept when it looks like one; anything else could
    // forge log lines or bloat them, so it is replaced.
    requestIdHeader: false,
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    // Routes end in '/' as the spec writes them; accept both spellings rather than answer 404.
    // Signed download tokens (/api/Download/{token}) carry the file's key and name: up to ~500 characters.
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: 1000 },
    // What the router refuses before any route runs still answers in the API's one error shape.
    frameworkErrors: (error, request, reply: FastifyReply) => {
      setSecurityHeaders(request, reply);
      if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
        return reply.code(414).send({ detail: 'The address is too long.', code: 'uri_too_long' });
      }
      return reply.code(400).send({ detail: 'The address is not valid.', code: 'bad_url' });
    },
  });

  const sessions = new SessionCache(config.SESSION_CACHE_SECONDS * 1000);
  if (config.SESSION_CACHE_SECONDS > 0) {
    const stopListening = await database.listen(
      AUTH_CHANNEL,
      (payload) => sessions.notified(payload),
      (up) => sessions.setListening(up),
    );
    app.addHook('onClose', stopListening);
  }
  const ctx: AppContext = {
    config,
    database,
    db: database.db,
    jobs: options.jobs ?? createStoppedQueue(),
    storage: options.storage ?? createStorage(config, database),
    sessions,
    log: app.log,
  };
  app.decorate('appContext', ctx);

  closeGracefully(app);
  // Before every route, so each is counted (docs/operations.md, "Metrics"); nothing when METRICS_TOKEN is unset.
  const metrics = countRequests(app, config.METRICS_TOKEN);
  // Loaded only when traced: @fastify/otel brings the instrumentation packages with it.
  if (config.OTEL_EXPORTER_OTLP_ENDPOINT) await (await import('./lib/tracing.ts')).traceRequests(app);
  const load = shedLoad(app, {
    maxInFlight: config.MAX_REQUESTS_IN_FLIGHT,
    maxEventLoopDelayMs: config.MAX_EVENT_LOOP_DELAY_MS,
  });
  app.setValidatorCompiler(requestValidatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerSecurityHeaders(app, setSecurityHeaders);
  // The app's pages (not its API answers or built files) may be framed by the registered LMS sites.
  app.addHook('onRequest', async (request, reply) => {
    if (isApiAnswer(request.url) || request.url.startsWith('/assets/')) return;
    allowFraming(reply, await currentFrameOrigins(ctx).catch(() => []));
  });

  // The built web app before compression: its files were compressed once, at build (brotli and gzip
  // beside each one, apps/web/vite-precompress.ts), and go out as stored by content negotiation.
  // @fastify/compress applies to the routes registered after it, so it never compresses them again.
  const webDist = path.resolve(options.webDistDir ?? config.WEB_DIST_DIR ?? DEFAULT_WEB_DIST);
  const hasWeb = existsSync(path.join(webDist, 'index.html'));
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: false,
      preCompressed: true,
      globIgnore: ['assets/**', ...PRECOMPRESSED_FILES],
      // These keep their names from build to build (index.html names the new assets): always revalidated.
      cacheControl: false,
      setHeaders: (reply) => reply.header('cache-control', 'no-cache'),
    });
    // Vite names built assets by content hash: they never change, so browsers may keep them for a year.
    const assets = path.join(webDist, 'assets');
    if (existsSync(assets)) {
      await app.register(fastifyStatic, {
        root: assets,
        prefix: '/assets/',
        wildcard: false,
        decorateReply: false,
        preCompressed: true,
        globIgnore: PRECOMPRESSED_FILES,
        immutable: true,
        maxAge: '365d',
        // Never revalidated: no validators to send.
        etag: false,
        lastModified: false,
        setHeaders: (reply, filePath) => {
          if (SCRIPT_OR_STYLE.test(filePath))
            for (const name of DOCUMENT_ONLY_HEADERS) reply.raw.removeHeader(name);
        },
      });
    }
  }

  // Every answer of the routes below over 1 KB (the API's JSON, its exports, the API reference).
  await registerCompression(app);
  serveMetrics(app, config.METRICS_TOKEN);

  await app.register(swagger, openApiOptions(config));
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });

  // Multipart bodies are read only by upload routes, through lib/uploads.ts with each route's own limits.
  await app.register(multipart, { throwFileSizeLimit: true });

  handleErrors(app);

  registerAccessControl(app, ctx);

  // Workbook kernels: this process is a kernel host when it may run any (docs/workbooks.md, "Kernels").
  const kernelHost = attachKernelHost(app, ctx, { kind: 'api', port: config.PORT, pool: options.kernels });
  registerInternalKernelRoutes(app, kernelHost);
  if (metrics) {
    registerGauges(metrics, {
      log: app.log,
      pool: () => database.poolStats(),
      kernels: () => ({ running: kernelHost.pool.size, max: kernelHost.pool.max }),
      inFlight: load.inFlight,
      queues: (timeoutMs) => readQueueBacklog(database, timeoutMs),
      emails: (timeoutMs) => countRecentEmails(ctx, timeoutMs),
    });
  }

  await app.register(
    async (api) => {
      registerHealthRoutes(api, ctx, options.sandbox);
      registerAuthRoutes(api, ctx);
      registerRegistrationRoutes(api, ctx);
      registerMailRoutes(api, ctx);
      await registerUnsubscribeRoutes(api, ctx);
      registerGoogleAuthRoutes(api, ctx);
      registerProviderRoutes(api, ctx);
      registerIdentityRoutes(api, ctx);
      await registerSsoRoutes(api, ctx);
      registerLtiStaffRoutes(api, ctx);
      registerLtiAppRoutes(api, ctx);
      await registerLtiRoutes(api, ctx);
      registerUserRoutes(api, ctx);
      registerCourseRoutes(api, ctx);
      registerMemberRoutes(api, ctx);
      registerOverviewRoutes(api, ctx);
      registerAssignmentRoutes(api, ctx);
      registerAssignmentFileRoutes(api, ctx);
      registerAssignmentBundleRoutes(api, ctx);
      registerTestCaseRoutes(api, ctx);
      registerDownloadRoutes(api, ctx);
      registerSubmissionRoutes(api, ctx);
      registerQuizRoutes(api, ctx);
      registerEventRoutes(api, ctx);
      registerFeedRoutes(api, ctx);
      registerForumRoutes(api, ctx);
      registerForumFileRoutes(api, ctx);
      registerVideoRoutes(api, ctx);
      registerAssessmentRoutes(api, ctx);
      registerGradebookRoutes(api, ctx);
      registerExtensionRoutes(api, ctx);
      registerNotificationRoutes(api, ctx);
      registerReviewRoutes(api, ctx);
      registerReviewCommentRoutes(api, ctx);
      registerSimilarityRoutes(api, ctx);
      registerPrivacyRoutes(api, ctx);
      registerVideoFileRoutes(api, ctx);
      registerWorkbookConfigRoutes(api, ctx);
      registerWorkbookRoutes(api, ctx, kernelHost);
      registerPygradeApiRoutes(api, ctx, options.sandbox);
    },
    { prefix: '/api' },
  );

  app.setNotFoundHandler((request, reply) => {
    const isApi = request.url.startsWith('/api');
    // Every other GET is a route of the single-page app: it decides what exists (and shows NotFound).
    if (!isApi && hasWeb && (request.method === 'GET' || request.method === 'HEAD')) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply.code(404).send({ detail: 'Not found.', code: 'not_found' });
  });

  return app;
}
