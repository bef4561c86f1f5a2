import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { closeGracefully } from './graceful-close.ts';

const servers: FastifyInstance[] = [];
afterEach(async () => {
  for (const app of servers.splice(0)) await app.close().catch(() => {});
});

async function server(drainMs = 300): Promise<{ app: FastifyInstance; port: number }> {
  const app = Fastify({ return503OnClosing: false });
  servers.push(app);
  closeGracefully(app, drainMs);
  app.get('/slow', async () => {
    await new Promise((resolve) => setTimeout(resolve, 600));
    return { slow: true };
  });
  app.post('/echo', async (request) => ({ got: request.body }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, port: (app.server.address() as AddressInfo).port };
}

/** One raw HTTP/1.1 exchange on `socket`: the response's status line and headers. */
function exchange(socket: net.Socket, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const onData = (chunk: Buffer) => {
      text += chunk.toString();
      const end = text.indexOf('\r\n\r\n');
      if (end < 0) return;
      const length = Number(/content-length: (\d+)/i.exec(text)?.[1] ?? 0);
      if (text.length - end - 4 < length) return;
      socket.off('data', onData);
      resolve(text);
    };
    socket.on('data', onData);
    socket.once('error', reject);
    socket.once('close', () => reject(new Error(`closed before an answer; had ${JSON.stringify(text)}`)));
    socket.write(request);
  });
}

const POST =
  'POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 7\r\n\r\n{"a":1}';

describe('closeGracefully', () => {
  it('ends a connection after the answer it was giving when closing started, and closes soon after', async () => {
    const { app, port } = await server();
    const agent = new http.Agent({ keepAlive: true });
    const answered = new Promise<{ status: number; connection: string | undefined; at: number }>(
      (resolve, reject) => {
        http
          .get({ port, host: '127.0.0.1', path: '/slow', agent }, (res) => {
            res.resume();
            res.on('end', () =>
              resolve({ status: res.statusCode!, connection: res.headers.connection, at: Date.now() }),
            );
          })
          .on('error', reject);
      },
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    const closed = app.close().then(() => Date.now());
    const reply = await answered;
    expect(reply).toMatchObject({ status: 200, connection: 'close' });
    // Before: the connection sat idle in keep-alive and close() waited out the keep-alive timeout (72 s).
    expect((await closed) - reply.at).toBeLessThan(2000);
    agent.destroy();
  });

  it('serves a request that arrives on an idle keep-alive connection while closing, never resetting it', async () => {
    const { app, port } = await server();
    const socket = net.connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    expect(await exchange(socket, POST)).toMatch(/^HTTP\/1.1 200/);
    // The connection is idle now; the server starts closing and the client's next POST is on its way.
    const closed = app.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const second = await exchange(socket, POST);
    expect(second).toMatch(/^HTTP\/1.1 200/);
    expect(second).toMatch(/connection: close/i);
    expect(second).toContain('{"got":{"a":1}}');
    await closed;
    socket.destroy();
  });

  it('closes at once when no connection is open', async () => {
    const { app } = await server(5000);
    const started = Date.now();
    await app.close();
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
