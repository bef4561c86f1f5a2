import { z } from 'zod';

/*
 * Reads the videos of a Vimeo folder ("project") or showcase ("album") through Vimeo's REST API
 * (https://developer.vimeo.com/api/reference/videos). Pages of 100, following `paging.next` on the
 * configured host only; 429 waits as `Retry-After` / `X-RateLimit-Reset` say (within a bound);
 * 5xx and network failures are retried twice. Every failure is a VimeoError with a reason for people.
 */

export class VimeoError extends Error {
  override name = 'VimeoError';
}

export interface VimeoSource {
  kind: 'folder' | 'showcase';
  id: string;
}

export interface VimeoVideo {
  externalId: string;
  name: string;
  description: string;
  duration: number;
  thumbnailUrl: string | null;
  modifiedAt: Date | null;
}

export interface VimeoClientOptions {
  apiUrl: string;
  token: string;
  /** Stop after this many videos. */
  maxVideos: number;
  /** The longest a rate limit is waited out before the sync fails (default 60 s). */
  maxRateLimitWaitMs?: number;
  requestTimeoutMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

const PER_PAGE = 100;
const FIELDS = 'uri,name,description,duration,modified_time,pictures.sizes';

const VimeoPage = z.object({
  total: z.number().int().min(0).optional(),
  paging: z.object({ next: z.string().nullable().optional() }).optional(),
  data: z.array(
    z.object({
      uri: z.string().regex(/^\/videos\/\d+/, 'a video uri "/videos/{id}"'),
      name: z.string().nullable(),
      description: z.string().nullable().optional(),
      duration: z.number().min(0),
      modified_time: z.string().nullable().optional(),
      pictures: z
        .object({ sizes: z.array(z.object({ width: z.number(), link: z.string() })).optional() })
        .nullable()
        .optional(),
    }),
  ),
});
type VimeoItem = z.infer<typeof VimeoPage>['data'][number];

const pathOf = (source: VimeoSource) =>
  source.kind === 'folder' ? `/me/projects/${source.id}/videos` : `/me/albums/${source.id}/videos`;

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A thumbnail near 640 px wide, https only (the page's CSP and mixed content rules want it). */
function thumbnailOf(item: VimeoItem): string | null {
  const sizes = (item.pictures?.sizes ?? []).filter((s) => s.link.startsWith('https://'));
  if (sizes.length === 0) return null;
  const best = sizes.reduce((a, b) => (Math.abs(b.width - 640) < Math.abs(a.width - 640) ? b : a));
  return best.link.slice(0, 1000);
}

function toVideo(item: VimeoItem): VimeoVideo {
  const modified = item.modified_time ? new Date(item.modified_time) : null;
  return {
    externalId: /^\/videos\/(\d+)/.exec(item.uri)![1]!,
    name: (item.name ?? '').trim().slice(0, 200) || 'Untitled',
    description: (item.description ?? '').slice(0, 5000),
    duration: Math.max(1, Math.round(item.duration)),
    thumbnailUrl: thumbnailOf(item),
    modifiedAt: modified && !Number.isNaN(modified.getTime()) ? modified : null,
  };
}

/** How long a 429 asks us to wait, from `Retry-After` (seconds) or `X-RateLimit-Reset` (a date). */
export function rateLimitWaitMs(headers: Headers, now = Date.now()): number | null {
  const retryAfter = headers.get('retry-after');
  if (retryAfter && /^\d+$/.test(retryAfter.trim())) return Number(retryAfter.trim()) * 1000;
  const reset = headers.get('x-ratelimit-reset');
  if (reset) {
    const at = Date.parse(reset);
    if (!Number.isNaN(at)) return Math.max(0, at - now);
  }
  return null;
}

function statusError(status: number, source: VimeoSource): VimeoError {
  const what = source.kind === 'folder' ? `folder ${source.id}` : `showcase ${source.id}`;
  switch (status) {
    case 401:
      return new VimeoError('Vimeo refused the access token (401). Check VIMEO_ACCESS_TOKEN.');
    case 403:
      return new VimeoError(`The access token may not read Vimeo ${what} (403).`);
    case 404:
      return new VimeoError(`Vimeo has no ${what} for this access token (404).`);
    default:
      return new VimeoError(`Vimeo answered ${status}.`);
  }
}

async function getPage(url: URL, options: VimeoClientOptions, source: VimeoSource): Promise<unknown> {
  const sleep = options.sleep ?? defaultSleep;
  const maxWait = options.maxRateLimitWaitMs ?? 60_000;
  let waited = 0;
  let failures = 0;
  for (;;) {
    let response: Response;
    try {
      response = await fetch(url, {
        headers: {
          authorization: `bearer ${options.token}`,
          accept: 'application/vnd.vimeo.*+json;version=3.4',
        },
        redirect: 'error',
        signal: AbortSignal.timeout(options.requestTimeoutMs ?? 20_000),
      });
    } catch (error) {
      if (++failures <= 2) {
        await sleep(500 * failures);
        continue;
      }
      throw new VimeoError(`Vimeo could not be reached: ${(error as Error).message}`);
    }
    if (response.status === 429) {
      await response.body?.cancel();
      const wait = rateLimitWaitMs(response.headers) ?? 5000;
      if (waited + wait > maxWait) {
        throw new VimeoError(
          `Vimeo's rate limit was reached; try again in ${Math.ceil(wait / 1000)} seconds (429).`,
        );
      }
      waited += wait;
      await sleep(wait);
      continue;
    }
    if (response.status >= 500 && ++failures <= 2) {
      await response.body?.cancel();
      await sleep(500 * failures);
      continue;
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw statusError(response.status, source);
    }
    try {
      return await response.json();
    } catch {
      throw new VimeoError('Vimeo answered something that is not JSON.');
    }
  }
}

/** Every video of the source, in Vimeo's order, at most `maxVideos`. */
export async function fetchVimeoVideos(
  options: VimeoClientOptions,
  source: VimeoSource,
): Promise<VimeoVideo[]> {
  const base = new URL(options.apiUrl);
  let url: URL | null = new URL(`${base.pathname.replace(/\/$/, '')}${pathOf(source)}`, base);
  url.searchParams.set('per_page', String(PER_PAGE));
  url.searchParams.set('fields', FIELDS);
  const videos: VimeoVideo[] = [];
  const seen = new Set<string>();
  for (let page = 0; url && videos.length < options.maxVideos; page++) {
    if (page >= Math.ceil(options.maxVideos / PER_PAGE) + 1) break;
    const parsed = VimeoPage.safeParse(await getPage(url, options, source));
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new VimeoError(
        `Vimeo answered something unexpected: ${issue.path.join('.') || 'the page'}: ${issue.message}.`,
      );
    }
    for (const item of parsed.data.data) {
      const video = toVideo(item);
      if (seen.has(video.externalId) || videos.length >= options.maxVideos) continue;
      seen.add(video.externalId);
      videos.push(video);
    }
    const next = parsed.data.paging?.next;
    if (!next) break;
    const nextUrl = new URL(next, base);
    // The token goes to the configured host only, whatever a page says.
    if (nextUrl.origin !== base.origin) throw new VimeoError('Vimeo pointed the next page to another host.');
    nextUrl.searchParams.set('fields', FIELDS);
    url = nextUrl;
  }
  return videos;
}
