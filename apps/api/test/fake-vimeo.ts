import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';

/*
 * A local server that answers as Vimeo's REST API does for the calls a sync makes
 * (GET /me/projects/{id}/videos, GET /me/albums/{id}/videos: bearer token, pages with `paging.next`,
 * 401 for a wrong token, 404 for an unknown folder), with failures to order (a 429 with Retry-After, a 5xx,
 * a malformed page). It also serves /video/{id}: a stand-in for Vimeo's embedded player that speaks the
 * player's postMessage protocol and "plays" on a clock, for the browser journeys.
 * Run alone: `tsx apps/api/test/fake-vimeo.ts [port]` (the e2e config does).
 */

export interface FakeVideo {
  id: string;
  name: string;
  duration: number;
  description?: string;
  modified?: string;
}

interface Failure {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

export interface FakeVimeo {
  url: string;
  token: string;
  folders: Map<string, FakeVideo[]>;
  showcases: Map<string, FakeVideo[]>;
  /** Paths (with query) of every API request, in order. */
  requests: string[];
  /** The next requests fail like this, one failure each. */
  failNext(...failures: Failure[]): void;
  close(): Promise<void>;
}

export const FAKE_VIMEO_TOKEN = 'fake-vimeo-token';

/** Demo content for the journeys: folder 1001 with three lectures. */
export const DEFAULT_FOLDER: FakeVideo[] = [
  { id: '900001', name: 'Lecture 1: Variables and types', duration: 60 },
  { id: '900002', name: 'Lecture 2: Control flow', duration: 90 },
  { id: '900003', name: 'Lecture 3: Functions', duration: 120 },
];

function asItem(video: FakeVideo) {
  return {
    uri: `/videos/${video.id}`,
    name: video.name,
    description: video.description ?? '',
    duration: video.duration,
    modified_time: video.modified ?? '2026-10-01T00:00:00+00:00',
    pictures: {
      sizes: [
        { width: 295, link: `https://i.vimeocdn.com/video/${video.id}-d_295x166` },
        { width: 640, link: `https://i.vimeocdn.com/video/${video.id}-d_640x360` },
      ],
    },
  };
}

function send(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(body);
}

export async function startFakeVimeo(options: { port?: number; pageSize?: number } = {}): Promise<FakeVimeo> {
  const folders = new Map<string, FakeVideo[]>([['1001', DEFAULT_FOLDER]]);
  const showcases = new Map<string, FakeVideo[]>();
  const requests: string[] = [];
  const failures: Failure[] = [];
  const pageSize = options.pageSize ?? 100;

  const api = (req: IncomingMessage, res: ServerResponse, url: URL) => {
    requests.push(url.pathname + url.search);
    const failure = failures.shift();
    if (failure)
      return send(res, failure.status, failure.body ?? '{"error":"fake failure"}', failure.headers);
    if (req.headers.authorization !== `bearer ${FAKE_VIMEO_TOKEN}`) {
      return send(
        res,
        401,
        JSON.stringify({ error: 'You must provide a valid authenticated access token.' }),
      );
    }
    const match = /^\/me\/(projects|albums)\/(\d+)\/videos$/.exec(url.pathname);
    const list = match ? (match[1] === 'projects' ? folders : showcases).get(match[2]!) : undefined;
    if (!match || !list)
      return send(res, 404, JSON.stringify({ error: 'The requested folder could not be found.' }));
    const perPage = Math.min(pageSize, Number(url.searchParams.get('per_page') ?? 25));
    const page = Number(url.searchParams.get('page') ?? 1);
    const items = list.slice((page - 1) * perPage, page * perPage);
    const hasNext = page * perPage < list.length;
    return send(
      res,
      200,
      JSON.stringify({
        total: list.length,
        page,
        per_page: perPage,
        paging: {
          next: hasNext ? `${url.pathname}?page=${page + 1}&per_page=${perPage}` : null,
          previous: page > 1 ? `${url.pathname}?page=${page - 1}&per_page=${perPage}` : null,
        },
        data: items.map(asItem),
      }),
      { 'x-ratelimit-limit': '600', 'x-ratelimit-remaining': '599' },
    );
  };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake.vimeo');
    const player = /^\/video\/(\d+)$/.exec(url.pathname);
    if (player) {
      const all = [...folders.values(), ...showcases.values()].flat();
      const duration = all.find((v) => v.id === player[1])?.duration ?? 60;
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return res.end(playerPage(duration));
    }
    if (url.pathname === '/health') return send(res, 200, '{"ok":true}');
    return api(req, res, url);
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    token: FAKE_VIMEO_TOKEN,
    folders,
    showcases,
    requests,
    failNext: (...more) => failures.push(...more),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The player stand-in: Vimeo's postMessage protocol (`{ method, value }` in, `{ event, data }` and
 * `{ method, value }` out), a Play/Pause button and a seek field, time advancing 4 times a second.
 */
function playerPage(duration: number): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Fake Vimeo player</title></head>
<body style="margin:0;font:14px sans-serif;background:#111;color:#eee;display:grid;place-items:center;height:100vh">
<div><button id="toggle">Play</button> <span id="time">0</span> / ${duration} s
<label> Seek <input id="seek" type="number" min="0" max="${duration}" style="width:5em"></label></div>
<script>
(() => {
  const duration = ${duration};
  let time = 0, playing = false, parentOrigin = '*';
  const listeners = new Set();
  const post = (msg) => parent.postMessage(JSON.stringify(msg), parentOrigin);
  const emit = (event) => { if (listeners.has(event)) post({ event, data: { seconds: time, duration, percent: time / duration } }); };
  const show = () => { document.getElementById('time').textContent = time.toFixed(1); document.getElementById('toggle').textContent = playing ? 'Pause' : 'Play'; };
  const play = () => { if (!playing && time < duration) { playing = true; emit('play'); show(); } };
  const pause = () => { if (playing) { playing = false; emit('pause'); show(); } };
  const seek = (t) => { time = Math.max(0, Math.min(duration, t)); emit('seeked'); emit('timeupdate'); show(); };
  setInterval(() => {
    if (!playing) return;
    time = Math.min(duration, time + 0.25);
    emit('timeupdate');
    if (time >= duration) { playing = false; emit('ended'); }
    show();
  }, 250);
  document.getElementById('toggle').onclick = () => (playing ? pause() : play());
  document.getElementById('seek').onchange = (e) => seek(Number(e.target.value));
  addEventListener('message', (e) => {
    if (e.source !== parent) return;
    parentOrigin = e.origin;
    let msg = e.data;
    try { if (typeof msg === 'string') msg = JSON.parse(msg); } catch { return; }
    if (!msg || typeof msg.method !== 'string') return;
    if (msg.method === 'addEventListener') listeners.add(msg.value);
    else if (msg.method === 'removeEventListener') listeners.delete(msg.value);
    else if (msg.method === 'play') play();
    else if (msg.method === 'pause') pause();
    else if (msg.method === 'setCurrentTime') seek(Number(msg.value));
    else if (msg.method === 'getDuration') post({ method: 'getDuration', value: duration });
    else if (msg.method === 'getCurrentTime') post({ method: 'getCurrentTime', value: time });
  });
  parent.postMessage(JSON.stringify({ event: 'ready' }), '*');
})();
</script></body></html>`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const port = Number(process.argv[2] ?? 3198);
  const fake = await startFakeVimeo({ port });
  process.stdout.write(`fake Vimeo on ${fake.url} (token ${fake.token})\n`);
}
