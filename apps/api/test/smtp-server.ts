import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { SMTPServer } from 'smtp-server';

/*
 * A real SMTP server for tests, on 127.0.0.1 with an ephemeral port, keeping every message it accepts.
 * It can refuse the next messages with a temporary error (451), to prove that sending is retried, and
 * require a user name and password. Run alone for the browser journeys:
 * `tsx apps/api/test/smtp-server.ts <smtp port> <http port>`: GET /messages on the HTTP port lists what
 * arrived (`?to=` filters by recipient), GET /health answers once it listens.
 */

export interface ReceivedEmail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  /** The text/html part of a multipart message; empty when there is none. */
  html: string;
  /** Header names lower-cased, folded lines joined. */
  headers: Record<string, string>;
}

export interface TestSmtpServer {
  host: string;
  port: number;
  messages: ReceivedEmail[];
  /** The next `count` messages are refused with 451 (a temporary failure, which senders retry). */
  refuseNext(count: number): void;
  /** How many messages were refused so far. */
  refused(): number;
  /** Refuses these recipients for good: 550 to RCPT TO, as a server answers for an unknown mailbox. */
  refuseRecipients(addresses: string[]): void;
  /** Resolves with the first message (already here or yet to come) that `matches`. */
  waitFor(matches: (email: ReceivedEmail) => boolean, timeoutMs?: number): Promise<ReceivedEmail>;
  close(): Promise<void>;
}

function unfoldHeaders(head: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return headers;
}

function decodeQuotedPrintableBytes(text: string, underscoreIsSpace: boolean): Buffer {
  const source = underscoreIsSpace ? text.replaceAll('_', ' ') : text;
  const bytes: number[] = [];
  const unwrapped = source.replace(/=\r?\n/g, '');
  for (let i = 0; i < unwrapped.length; i++) {
    const hex = unwrapped.slice(i + 1, i + 3);
    if (unwrapped[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(unwrapped[i]!, 'utf8'));
    }
  }
  return Buffer.from(bytes);
}

/** RFC 2047 encoded words (`=?UTF-8?B?…?=`); adjacent words are joined byte-wise before decoding. */
export function decodeHeaderValue(value: string): string {
  const word = /=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g;
  return value.replace(/(\?=)\s+(=\?)/g, '$1$2').replace(/(?:=\?[^?]+\?[BbQq]\?[^?]*\?=)+/g, (run) => {
    const parts = [...run.matchAll(word)].map((m) =>
      m[2]!.toUpperCase() === 'B' ? Buffer.from(m[3]!, 'base64') : decodeQuotedPrintableBytes(m[3]!, true),
    );
    return Buffer.concat(parts).toString('utf8');
  });
}

function decodeBody(body: string, encoding: string): string {
  const text =
    encoding === 'base64'
      ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
      : encoding === 'quoted-printable'
        ? decodeQuotedPrintableBytes(body, false).toString('utf8')
        : body;
  return text.replace(/\r\n/g, '\n').replace(/\n$/, '');
}

function splitEntity(raw: string): { headers: Record<string, string>; body: string } {
  const split = raw.search(/\r?\n\r?\n/);
  const head = split === -1 ? raw : raw.slice(0, split);
  const body = split === -1 ? '' : raw.slice(split).replace(/^\r?\n\r?\n/, '');
  return { headers: unfoldHeaders(head), body };
}

/** The text/plain and text/html parts of an entity, multipart (alternative, mixed) or single. */
function readParts(headers: Record<string, string>, body: string): { text?: string; html?: string } {
  const type = headers['content-type'] ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (/^multipart\//i.test(type) && boundary) {
    const found: { text?: string; html?: string } = {};
    const sections = body.split(`--${boundary}`).slice(1);
    for (const section of sections) {
      if (section.startsWith('--')) break;
      const part = splitEntity(section.replace(/^\r?\n/, ''));
      const inner = readParts(part.headers, part.body);
      found.text ??= inner.text;
      found.html ??= inner.html;
    }
    return found;
  }
  const decoded = decodeBody(body, (headers['content-transfer-encoding'] ?? '7bit').toLowerCase());
  return /^text\/html/i.test(type) ? { html: decoded } : { text: decoded };
}

/** A message as nodemailer writes it: text, or text and HTML alternatives; 7bit, quoted-printable or base64. */
export function parseMessage(raw: string, envelope: { from: string; to: string[] }): ReceivedEmail {
  const { headers, body } = splitEntity(raw);
  const parts = readParts(headers, body);
  return {
    ...envelope,
    subject: decodeHeaderValue(headers.subject ?? ''),
    text: parts.text ?? '',
    html: parts.html ?? '',
    headers,
  };
}

export async function startTestSmtpServer(
  options: { port?: number; auth?: { user: string; pass: string } } = {},
): Promise<TestSmtpServer> {
  const messages: ReceivedEmail[] = [];
  const waiters = new Set<{
    matches: (email: ReceivedEmail) => boolean;
    resolve: (e: ReceivedEmail) => void;
  }>();
  let toRefuse = 0;
  let refusedCount = 0;
  const refusedRecipients = new Set<string>();
  const required = options.auth;
  const server = new SMTPServer({
    secure: false,
    // Plain SMTP on loopback: no STARTTLS offered, so the sender's "STARTTLS when offered" stays plain.
    disabledCommands: required ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
    authOptional: !required,
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (required && auth.username === required.user && auth.password === required.pass) {
        return callback(null, { user: auth.username });
      }
      return callback(new Error('Invalid username or password'));
    },
    onRcptTo(address, _session, callback) {
      if (refusedRecipients.has(address.address.toLowerCase())) {
        return callback(
          Object.assign(new Error('Requested action not taken: mailbox unavailable'), { responseCode: 550 }),
        );
      }
      return callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (toRefuse > 0) {
          toRefuse -= 1;
          refusedCount += 1;
          return callback(Object.assign(new Error('Try again later (test refusal)'), { responseCode: 451 }));
        }
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        const to = session.envelope.rcptTo.map((r) => r.address);
        const email = parseMessage(Buffer.concat(chunks).toString('utf8'), { from, to });
        messages.push(email);
        for (const waiter of waiters) {
          if (waiter.matches(email)) {
            waiters.delete(waiter);
            waiter.resolve(email);
          }
        }
        return callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    host: '127.0.0.1',
    port,
    messages,
    refuseNext: (count) => {
      toRefuse = count;
    },
    refused: () => refusedCount,
    refuseRecipients: (addresses) => {
      for (const address of addresses) refusedRecipients.add(address.toLowerCase());
    },
    waitFor(matches, timeoutMs = 15_000) {
      const found = messages.find(matches);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const waiter = { matches, resolve };
        waiters.add(waiter);
        setTimeout(() => {
          if (waiters.delete(waiter)) reject(new Error(`no matching e-mail within ${timeoutMs} ms`));
        }, timeoutMs).unref();
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const smtp = await startTestSmtpServer({ port: Number(process.argv[2] ?? 3201) });
  const http = createHttpServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://smtp.test');
    res.setHeader('content-type', 'application/json; charset=utf-8');
    if (url.pathname === '/health') return res.end('{"ok":true}');
    if (url.pathname === '/messages') {
      const to = url.searchParams.get('to')?.toLowerCase();
      return res.end(JSON.stringify(to ? smtp.messages.filter((m) => m.to.includes(to)) : smtp.messages));
    }
    res.statusCode = 404;
    return res.end('{"detail":"Not found."}');
  });
  const httpPort = Number(process.argv[3] ?? 3202);
  await new Promise<void>((resolve) => http.listen(httpPort, '127.0.0.1', resolve));
  process.stdout.write(
    `test SMTP server on 127.0.0.1:${smtp.port}, messages at http://127.0.0.1:${httpPort}\n`,
  );
}
