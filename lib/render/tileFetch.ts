// Fetching a commercial basemap's XYZ raster tiles for the static renderer: from the cache first
// (the owner's own copies: tileCache.ts), then from the provider with Node's fetch (undici), a few
// at a time, each with a timeout and a size cap, under one deadline for the whole set.
//
// The owner's provider key is in the tile URL. It never leaves this file except inside that URL
// on its way to the provider: errors and details name the basemap, the provider's host and the
// HTTP status, and any text that could echo the URL goes through redactKey first.
//
// What a tile's answer means:
// - an image (200, image/png|jpeg|webp by header and by magic bytes, at most maxTileBytes): drawn;
// - 404/204: no tile there (sea, outside coverage): missing, drawn blank, not an error;
// - 401/403: the provider refused the key: TileKeyRefusedError (retrying cannot help);
// - 429, 5xx, a timeout or a network error: retried once, then missing;
// - anything else (other statuses, not an image, too large): missing.
// When more than half of the tiles are missing for timeouts or network errors the provider is
// treated as unreachable (TileProviderUnreachableError): a mostly blank map is worse than a
// render retried later.
// A tile server at a private, loopback or link-local address is refused (TileAddressRefusedError,
// never retried) unless the operator allows such addresses (BASEMAPS_ALLOW_PRIVATE).
import { setTimeout as sleep } from 'node:timers/promises';
import type { Basemap, BasemapDrawing } from '../basemaps.js';
import { sniffFormat, sniffOther } from '../media/sniff.js';
import { PrivateAddressError, publicOnlyFetch } from '../net/publicOnlyFetch.js';
import type { TileCache, TileOwner } from './tileCache.js';
import type { TileCoord } from './tileGrid.js';

export type XyzDrawing = Extract<BasemapDrawing, { type: 'xyz' }>;
/** What fetchTiles needs of a basemap: catalogue entries (`basemapById`) with an xyz drawing fit. */
export type XyzBasemap = Pick<Basemap, 'id' | 'providerKind'> & { drawing: XyzDrawing };

export type MissingReason = 'not_found' | 'not_image' | 'too_large' | 'http_error' | 'timeout' | 'network';

export type TileResult =
  | { tile: TileCoord; bytes: Buffer; from: 'cache' | 'provider' }
  /** `detail` is for logs (key redacted): "HTTP 404", "content type text/html", "ECONNREFUSED" … */
  | { tile: TileCoord; bytes: null; missing: MissingReason; detail: string };

export interface FetchTilesOptions {
  /** Longest wait for one tile, body included (config.tileTimeoutMs). */
  timeoutMs: number;
  /** Longest wait for the whole set, retries included (default 4 × timeoutMs); unfinished tiles are missing as timeouts. */
  deadlineMs?: number;
  cache?: TileCache;
  /** The fetch to use (default: one that reaches public addresses only, or with allowPrivateAddresses the global one). */
  fetch?: typeof globalThis.fetch;
  /** The operator allows tile servers at private, loopback and link-local addresses (BASEMAPS_ALLOW_PRIVATE). */
  allowPrivateAddresses?: boolean;
  /** Tiles requested at once (default 8). */
  concurrency?: number;
  /** Largest tile body read (default 2 MB); a larger one is cut off and missing. */
  maxTileBytes?: number;
  /** Pause before the one retry (default 250 ms). */
  retryDelayMs?: number;
  /** Cancels the whole fetch (fetchTiles then rejects with the signal's reason). */
  signal?: AbortSignal;
}

export const DEFAULT_CONCURRENCY = 8;
export const DEFAULT_MAX_TILE_BYTES = 2 * 1024 * 1024;
const DEFAULT_RETRY_DELAY_MS = 250;
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/jpg', 'image/webp']);
const UNREACHABLE_REASONS: ReadonlySet<MissingReason> = new Set(['timeout', 'network']);
const REQUEST_HEADERS = {
  accept: 'image/webp,image/png,image/jpeg;q=0.9',
  'user-agent': 'map-publishing-service (static map renderer)',
};

/** The provider answered 401 or 403: the owner's key is wrong, revoked or not allowed this basemap. */
export class TileKeyRefusedError extends Error {
  override name = 'TileKeyRefusedError';
  constructor(
    readonly basemapId: string,
    readonly providerKind: string | null,
    readonly status: number,
    readonly host: string,
  ) {
    super(`The tile provider ${host} refused the ${providerKind ?? 'provider'} key of basemap ${basemapId} (HTTP ${status})`);
  }
}

/** The tile server is at a private, loopback or link-local address, and the operator has not allowed those. */
export class TileAddressRefusedError extends Error {
  override name = 'TileAddressRefusedError';
  constructor(
    readonly basemapId: string,
    readonly host: string,
  ) {
    super(`The tile server ${host} of basemap ${basemapId} is at a private network address; only public addresses are fetched`);
  }
}

/** Most tiles could not be fetched (timeouts, network errors): the render can be retried later. */
export class TileProviderUnreachableError extends Error {
  override name = 'TileProviderUnreachableError';
  constructor(
    readonly basemapId: string,
    readonly host: string,
    readonly failed: number,
    readonly total: number,
    /** One failure's detail, key redacted. */
    readonly example: string,
  ) {
    super(`The tile provider ${host} of basemap ${basemapId} is unreachable: ${failed} of ${total} tiles failed (${example})`);
  }
}

/** `text` with the key, raw or URL-encoded, replaced by `…`. */
export function redactKey(text: string, key: string): string {
  if (key === '') return text;
  return text.split(encodeURIComponent(key)).join('…').split(key).join('…');
}

/** The tile's URL from the basemap's template: {z}, {x}, {y} and {key} (URL-encoded). */
export function tileUrl(drawing: XyzDrawing, tile: TileCoord, key: string): string {
  const values: Record<string, string> = { z: String(tile.z), x: String(tile.x), y: String(tile.y), key: encodeURIComponent(key) };
  return drawing.url.replace(/\{(z|x|y|key)\}/g, (_match, name: string) => values[name]!);
}

interface Context {
  basemap: XyzBasemap;
  owner: TileOwner;
  key: string;
  host: string;
  options: FetchTilesOptions;
  fetch: typeof globalThis.fetch;
  /** Aborted by the deadline, the caller, or a refused key. */
  signal: AbortSignal;
}

/** Each tile's bytes or why it is missing, in the order of `tiles`, fetched for `owner` with its key. */
export async function fetchTiles(basemap: XyzBasemap, owner: TileOwner, tiles: readonly TileCoord[], options: FetchTilesOptions): Promise<TileResult[]> {
  for (const tile of tiles) checkTile(tile, basemap.drawing);
  const stop = new AbortController();
  const deadline = AbortSignal.timeout(options.deadlineMs ?? options.timeoutMs * 4);
  const signals = [deadline, stop.signal, ...(options.signal ? [options.signal] : [])];
  const context: Context = {
    basemap,
    owner,
    key: owner.key,
    host: new URL(basemap.drawing.url.replace(/\{[a-z]+\}/g, '0')).host,
    options,
    fetch: options.fetch ?? (options.allowPrivateAddresses ? globalThis.fetch : publicOnlyFetch),
    signal: AbortSignal.any(signals),
  };
  const results: TileResult[] = new Array(tiles.length);
  await runPool(tiles.length, options.concurrency ?? DEFAULT_CONCURRENCY, stop, async (index) => {
    results[index] = await fetchOne(context, tiles[index]!);
  });
  options.signal?.throwIfAborted();
  throwIfUnreachable(context, results);
  return results;
}

function checkTile(tile: TileCoord, drawing: XyzDrawing): void {
  const { z, x, y } = tile;
  const inRange = (value: number, size: number) => Number.isInteger(value) && value >= 0 && value < size;
  if (!inRange(z, drawing.maxZoom + 1) || !inRange(x, 2 ** z) || !inRange(y, 2 ** z)) {
    throw new RangeError(`not a tile of this basemap: ${z}/${x}/${y}`);
  }
}

/** Runs work(0 … count-1), `concurrency` at a time; the first error stops the rest, and is thrown once all have settled. */
async function runPool(count: number, concurrency: number, stop: AbortController, work: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count && !stop.signal.aborted) {
      const index = next++;
      try {
        await work(index);
      } catch (error) {
        stop.abort(); // in-flight requests end now: no point fetching tiles that will not be drawn
        throw error;
      }
    }
  };
  const workers = Array.from({ length: Math.max(1, Math.min(concurrency, count)) }, worker);
  const failure = (await Promise.allSettled(workers)).find((outcome) => outcome.status === 'rejected');
  if (failure) throw failure.reason;
}

function throwIfUnreachable(context: Context, results: TileResult[]): void {
  const failed = results.filter((result) => result.bytes === null && UNREACHABLE_REASONS.has(result.missing));
  if (failed.length * 2 <= results.length) return;
  const example = failed[0]!.bytes === null ? `${failed[0]!.missing}: ${failed[0]!.detail}` : '';
  throw new TileProviderUnreachableError(context.basemap.id, context.host, failed.length, results.length, example);
}

type Attempt =
  | { kind: 'image'; bytes: Buffer }
  | { kind: 'refused'; status: number }
  | { kind: 'private_address' }
  | { kind: 'missing'; missing: MissingReason; detail: string; retry: boolean };

async function fetchOne(context: Context, tile: TileCoord): Promise<TileResult> {
  const { basemap, options } = context;
  // A cache that cannot be read is a miss, not a failed render.
  const cached = await options.cache?.get(basemap.id, context.owner, tile).catch(() => undefined);
  if (cached) return { tile, bytes: cached, from: 'cache' };

  const url = tileUrl(basemap.drawing, tile, context.key);
  let attempt = await attemptTile(context, url);
  if (attempt.kind === 'missing' && attempt.retry && !context.signal.aborted) {
    await sleep(options.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS, undefined, { signal: context.signal }).catch(() => undefined);
    attempt = await attemptTile(context, url);
  }
  if (attempt.kind === 'refused') throw new TileKeyRefusedError(basemap.id, basemap.providerKind, attempt.status, context.host);
  if (attempt.kind === 'private_address') throw new TileAddressRefusedError(basemap.id, context.host);
  if (attempt.kind === 'missing') return { tile, bytes: null, missing: attempt.missing, detail: redactKey(attempt.detail, context.key) };
  // A cache that cannot be written (disk full) costs a refetch next time, not this render.
  await options.cache?.put(basemap.id, context.owner, tile, attempt.bytes).catch(() => undefined);
  return { tile, bytes: attempt.bytes, from: 'provider' };
}

/** One request for one tile, classified. Never throws for what the provider or the network does. */
async function attemptTile(context: Context, url: string): Promise<Attempt> {
  const signal = AbortSignal.any([AbortSignal.timeout(context.options.timeoutMs), context.signal]);
  const maxBytes = context.options.maxTileBytes ?? DEFAULT_MAX_TILE_BYTES;
  try {
    const response = await context.fetch(url, { signal, headers: REQUEST_HEADERS });
    const refusal = classifyStatus(response.status);
    if (refusal) {
      await response.body?.cancel().catch(() => undefined); // frees the connection
      return refusal;
    }
    const type = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    const declared = Number(response.headers.get('content-length') ?? 0);
    if (!IMAGE_TYPES.has(type) || declared > maxBytes) {
      await response.body?.cancel().catch(() => undefined);
      return IMAGE_TYPES.has(type) ? tooLarge(maxBytes) : notImage(`content type ${type || 'missing'}`);
    }
    const bytes = await readCapped(response.body, maxBytes);
    if (bytes === undefined) return tooLarge(maxBytes);
    return looksLikeImage(bytes) ? { kind: 'image', bytes } : notImage(`${type} body that is not an image`);
  } catch (error) {
    return failure(error, signal);
  }
}

function classifyStatus(status: number): Attempt | undefined {
  if (status === 401 || status === 403) return { kind: 'refused', status };
  if (status === 404 || status === 204) return { kind: 'missing', missing: 'not_found', detail: `HTTP ${status}`, retry: false };
  const transient = status === 429 || status >= 500;
  if (transient || status < 200 || status > 299) return { kind: 'missing', missing: 'http_error', detail: `HTTP ${status}`, retry: transient };
  return undefined;
}

const notImage = (detail: string): Attempt => ({ kind: 'missing', missing: 'not_image', detail, retry: false });
const tooLarge = (maxBytes: number): Attempt => ({ kind: 'missing', missing: 'too_large', detail: `body over ${maxBytes} bytes`, retry: false });

/** A thrown fetch or body read: a timeout (this tile's or the deadline) or a network error; both are retried. */
function failure(error: unknown, signal: AbortSignal): Attempt {
  const reason: unknown = signal.aborted ? signal.reason : error;
  if (reason instanceof Error && reason.name === 'TimeoutError') return { kind: 'missing', missing: 'timeout', detail: 'timed out', retry: true };
  // undici reports "fetch failed" with the useful part (ECONNREFUSED, ENOTFOUND …) as the cause.
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  if (cause instanceof PrivateAddressError) return { kind: 'private_address' };
  const code = (cause as { code?: unknown } | null)?.code;
  const detail = typeof code === 'string' ? code : cause instanceof Error ? cause.message : String(cause);
  return { kind: 'missing', missing: 'network', detail: detail.slice(0, 200), retry: true };
}

/** The body, or undefined once it passes maxBytes (the rest is never downloaded: the stream is cancelled). */
async function readCapped(body: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<Buffer | undefined> {
  if (body === null) return Buffer.alloc(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return Buffer.concat(chunks, size);
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
}

/** PNG, JPEG or WebP by their first bytes (the media uploads' one check): a provider's error page sent as image/png is not drawn. */
function looksLikeImage(bytes: Buffer): boolean {
  const format = sniffFormat(bytes);
  return format === 'png' || format === 'jpeg' || sniffOther(bytes) === 'webp';
}
