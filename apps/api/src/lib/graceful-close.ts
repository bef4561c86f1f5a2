import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';

/**
 * How long a closing server keeps its idle keep-alive connections open for a request that may already
 * be on its way over one.
 */
export const DRAIN_MS = 1000;

/**
 * Closing an HTTP server without resetting a request or waiting on an idle connection (issue 36, items
 * 3 and 5). The app must be built with `return503OnClosing: false`: Fastify would otherwise answer
 * everything that arrives after `close()` starts with its own 503 body.
 *
 * - From the moment `close()` starts, every response says `Connection: close`, so each connection ends
 *   after the answer it is giving. Before, a request in flight (a workbook cell of 5 s) left its
 *   connection idle in keep-alive after answering, and Node's `server.close()` waited for it until the
 *   keep-alive timeout (72 s): the kernel host ran out its 45 s grace and exited 1.
 * - Idle connections stay open for `drainMs` before the listening socket closes (which closes them),
 *   and a request that arrives on one meanwhile is served in full. Before, they were closed at once,
 *   and a POST the client (a proxy) had just written on one met a reset it cannot safely retry. A
 *   request written at the very moment an idle connection is closed can still meet one; HTTP/1.1 has
 *   no way to say "no more requests" on an idle connection without closing it.
 */
export function closeGracefully(app: FastifyInstance, drainMs = DRAIN_MS): void {
  let closing = false;
  let reaper: NodeJS.Timeout | undefined;
  // onSend, not onRequest: a request already being served when closing starts is told too.
  app.addHook('onSend', async (_request, reply, payload) => {
    if (closing) reply.header('connection', 'close');
    return payload;
  });
  app.addHook('preClose', async () => {
    closing = true;
    if (!app.server.listening) return;
    const open = await promisify(app.server.getConnections.bind(app.server))();
    if (open > 0) await new Promise((resolve) => setTimeout(resolve, drainMs));
    // A response whose headers had gone before closing started (a download) leaves its connection idle
    // in keep-alive: it is closed once idle, rather than kept until the keep-alive timeout.
    reaper = setInterval(() => app.server.closeIdleConnections(), 250);
    reaper.unref();
  });
  app.addHook('onClose', async () => clearInterval(reaper));
}
