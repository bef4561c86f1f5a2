import autocannon from 'autocannon';
import { startHelloServer, stopProcess } from './processes.ts';

/*
 * This box's speed now. The box is shared and its speed drifts by a third from day to day and by 2×
 * between hours (docs/performance.md), so benches and suite timings say what box they had: a bare
 * Fastify hello-world (bench/hello-server.ts) at 32 connections, after a 2 s warm-up.
 */

/** Figures of the same measure on a quiet box of this kind, for comparison. */
export const QUIET_BOX_HELLO_RPS = 43_000;

async function hello(port: number, connections: number, seconds: number): Promise<number> {
  const result = await autocannon({ url: `http://127.0.0.1:${port}/hello`, connections, duration: seconds });
  return result.requests.average;
}

/** Requests per second a bare Fastify hello-world answers here now. */
export async function helloCeiling(connections = 32, seconds = 5): Promise<number> {
  const server = await startHelloServer();
  try {
    await hello(server.ready.port, connections, 2);
    return await hello(server.ready.port, connections, seconds);
  } finally {
    await stopProcess(server.child);
  }
}

export function boxSpeedLine(when: string, rps: number, connections = 32): string {
  const share = Math.round((100 * rps) / QUIET_BOX_HELLO_RPS);
  return (
    `This box ${when}: a bare Fastify hello-world answers ${Math.round(rps).toLocaleString('en-US')} req/s ` +
    `at ${connections} connections (${share} % of a quiet box's ${QUIET_BOX_HELLO_RPS.toLocaleString('en-US')}).`
  );
}
