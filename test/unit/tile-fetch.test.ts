// fetchTiles against a real HTTP server on 127.0.0.1: every scenario has its own path prefix and
// per-tile behaviour, and the server counts what it was asked.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TileCache } from '../../lib/render/tileCache.js';
import {
  fetchTiles,
  redactKey,
  TileAddressRefusedError,
  TileKeyRefusedError,
  TileProviderUnreachableError,
  type FetchTilesOptions,
  type TileResult,
  type XyzBasemap,
} from '../../lib/render/tileFetch.js';

const KEY = 'sk-Secret/Key+42=xyz';
const ENCODED_KEY = encodeURIComponent(KEY);
const OWNER = { accountId: 7, key: KEY };
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

type Handler = (req: http.IncomingMessage, res: http.ServerResponse, hit: number) => void;
const handlers = new Map<string, Handler>();
const hits = new Map<string, number>();
const receivedKeys = new Set<string | null>();
/** Requests being answered, per scenario (aborted requests of earlier scenarios may still be closing). */
const inFlight = new Map<string, number>();
const maxInFlight = new Map<string, number>();

const servePng: Handler = (_req, res) => {
  res.writeHead(200, { 'content-type': 'image/png', 'content-length': PNG.length });
  res.end(PNG);
};
const status = (code: number): Handler => (_req, res) => res.writeHead(code).end();
const hang: Handler = () => undefined;

const server = http.createServer((req, res) => {
  const url = new URL(req.url!, 'http://tiles');
  const tile = url.pathname.slice(1).replace(/\.png$/, ''); // scenario/z/x/y
  const hit = (hits.get(tile) ?? 0) + 1;
  hits.set(tile, hit);
  receivedKeys.add(url.searchParams.get('key'));
  const scenario = tile.split('/')[0]!;
  inFlight.set(scenario, (inFlight.get(scenario) ?? 0) + 1);
  maxInFlight.set(scenario, Math.max(maxInFlight.get(scenario) ?? 0, inFlight.get(scenario)!));
  res.on('close', () => inFlight.set(scenario, inFlight.get(scenario)! - 1));
  (handlers.get(tile) ?? servePng)(req, res, hit);
});
let port = 0;
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'mps-tile-fetch-'));

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  fs.rmSync(root, { recursive: true, force: true });
});

const basemap = (scenario: string, onPort = port): XyzBasemap => ({
  id: `test-${scenario}`,
  providerKind: 'tile_provider',
  drawing: { type: 'xyz', url: `http://127.0.0.1:${onPort}/${scenario}/{z}/{x}/{y}.png?key={key}`, tileSize: 256, maxZoom: 19 },
});
const zoom1 = [{ z: 1, x: 0, y: 0 }, { z: 1, x: 1, y: 0 }, { z: 1, x: 0, y: 1 }, { z: 1, x: 1, y: 1 }];
// The server is on loopback: allowed, as an operator allows an internal tile server (BASEMAPS_ALLOW_PRIVATE).
const options = (extra: Partial<FetchTilesOptions> = {}): FetchTilesOptions => ({ timeoutMs: 200, retryDelayMs: 10, allowPrivateAddresses: true, ...extra });
const summary = (results: TileResult[]) => results.map((result) => (result.bytes ? result.from : result.missing));
const newCache = (name: string) => new TileCache({ dir: path.join(root, name), maxBytes: 1e6 });

describe('fetchTiles', () => {
  it('refuses a tile server at a private address unless allowed, by IP and by name, sending it no request', async () => {
    for (const host of ['127.0.0.1', 'localhost']) {
      const source = basemap('private');
      const atHost = { ...source, drawing: { ...source.drawing, url: source.drawing.url.replace('127.0.0.1', host) } };
      const refused = fetchTiles(atHost, OWNER, zoom1, options({ allowPrivateAddresses: false }));
      await expect(refused).rejects.toThrow(TileAddressRefusedError);
      await expect(refused).rejects.toThrow(`The tile server ${host}:${port} of basemap test-private is at a private network address`);
    }
    expect([...hits.keys()].filter((tile) => tile.startsWith('private/'))).toEqual([]);
    // Allowed, the same server answers.
    expect(summary(await fetchTiles(basemap('private'), OWNER, zoom1, options()))).toEqual(['provider', 'provider', 'provider', 'provider']);
  });

  it('fetches tiles with the key, caches them, and serves the second fetch from the cache', async () => {
    const cache = newCache('served');
    const first = await fetchTiles(basemap('served'), OWNER, zoom1, options({ cache }));
    expect(summary(first)).toEqual(['provider', 'provider', 'provider', 'provider']);
    expect(first[0]!.bytes).toEqual(PNG);
    expect(receivedKeys.has(KEY)).toBe(true); // URL-encoded on the way, intact on arrival
    const second = await fetchTiles(basemap('served'), OWNER, zoom1, options({ cache }));
    expect(summary(second)).toEqual(['cache', 'cache', 'cache', 'cache']);
    expect(second[3]!.bytes).toEqual(PNG);
    expect(hits.get('served/1/1/1')).toBe(1);
  });

  it("serves a cached tile only to the owner and key it was fetched for: another account, or a bogus key, goes to the provider", async () => {
    const cache = newCache('owners');
    handlers.set('owners/1/0/0', (req, res, hit) => {
      const key = new URL(req.url!, 'http://tiles').searchParams.get('key');
      if (key !== KEY) return void res.writeHead(401).end();
      servePng(req, res, hit);
    });
    expect(summary(await fetchTiles(basemap('owners'), OWNER, [zoom1[0]!], options({ cache })))).toEqual(['provider']);
    expect(summary(await fetchTiles(basemap('owners'), OWNER, [zoom1[0]!], options({ cache })))).toEqual(['cache']);
    // Another account whose key the provider refuses: never the cached tile.
    const bogus = await fetchTiles(basemap('owners'), { accountId: 8, key: 'bogus' }, [zoom1[0]!], options({ cache })).catch((caught: unknown) => caught);
    expect(bogus).toBeInstanceOf(TileKeyRefusedError);
    // Another account with the same key (the service's): its own copy, fetched for it.
    expect(summary(await fetchTiles(basemap('owners'), { accountId: 8, key: KEY }, [zoom1[0]!], options({ cache })))).toEqual(['provider']);
    expect(hits.get('owners/1/0/0')).toBe(3);
  });

  it('never writes the key into the cache directory, names or contents', async () => {
    const cache = newCache('no-key');
    await fetchTiles(basemap('no-key'), OWNER, zoom1, options({ cache }));
    const entries = fs.readdirSync(cache.dir, { recursive: true, withFileTypes: true });
    expect(entries.filter((entry) => entry.isFile())).toHaveLength(4);
    for (const entry of entries) {
      for (const secret of [KEY, ENCODED_KEY, 'Secret']) {
        expect(entry.name).not.toContain(secret);
        expect(entry.parentPath).not.toContain(secret);
        if (entry.isFile()) expect(fs.readFileSync(path.join(entry.parentPath, entry.name)).includes(secret)).toBe(false);
      }
    }
  });

  it('refetches a tile whose cache file is damaged instead of serving it', async () => {
    const cache = newCache('damaged');
    await fetchTiles(basemap('damaged'), OWNER, zoom1, options({ cache }));
    fs.truncateSync(cache.fileOf('test-damaged', OWNER, zoom1[0]!), 60);
    const again = await fetchTiles(basemap('damaged'), OWNER, zoom1, options({ cache }));
    expect(summary(again)).toEqual(['provider', 'cache', 'cache', 'cache']);
    expect(again[0]!.bytes).toEqual(PNG);
    expect(hits.get('damaged/1/0/0')).toBe(2);
  });

  it('leaves a 404 or 204 tile missing (not retried) and draws the rest', async () => {
    handlers.set('blank/1/0/1', status(404));
    handlers.set('blank/1/1/1', status(204));
    const results = await fetchTiles(basemap('blank'), OWNER, zoom1, options());
    expect(summary(results)).toEqual(['provider', 'provider', 'not_found', 'not_found']);
    expect(hits.get('blank/1/0/1')).toBe(1);
  });

  it('retries a slow tile once after its timeout, and leaves one that stays slow missing', async () => {
    handlers.set('slow/1/0/0', (req, res, hit) => (hit === 1 ? undefined : servePng(req, res, hit)));
    handlers.set('slow/1/1/0', hang);
    const started = Date.now();
    const results = await fetchTiles(basemap('slow'), OWNER, zoom1, options());
    expect(summary(results)).toEqual(['provider', 'timeout', 'provider', 'provider']);
    expect(results[0]!.bytes).toEqual(PNG);
    expect(hits.get('slow/1/0/0')).toBe(2);
    expect(hits.get('slow/1/1/0')).toBe(2);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('retries 429 and 5xx once, then leaves the tile missing', async () => {
    handlers.set('flaky/1/0/0', (req, res, hit) => (hit === 1 ? status(503)(req, res, hit) : servePng(req, res, hit)));
    handlers.set('flaky/1/1/0', status(500));
    handlers.set('flaky/1/0/1', status(429));
    const results = await fetchTiles(basemap('flaky'), OWNER, zoom1, options());
    expect(summary(results)).toEqual(['provider', 'http_error', 'http_error', 'provider']);
    expect([hits.get('flaky/1/0/0'), hits.get('flaky/1/1/0'), hits.get('flaky/1/0/1')]).toEqual([2, 2, 2]);
  });

  it('throws TileKeyRefusedError on 401/403, naming the basemap and status but never the key', async () => {
    handlers.set('refused/1/1/0', status(403));
    const error = await fetchTiles(basemap('refused'), OWNER, zoom1, options()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TileKeyRefusedError);
    const refused = error as TileKeyRefusedError;
    expect([refused.basemapId, refused.status, refused.providerKind]).toEqual(['test-refused', 403, 'tile_provider']);
    expect(refused.message).toMatch(/test-refused.*HTTP 403/);
    for (const text of [refused.message, refused.stack ?? '', JSON.stringify(refused)]) {
      expect(text).not.toContain(KEY);
      expect(text).not.toContain(ENCODED_KEY);
    }
    expect(hits.get('refused/1/1/0')).toBe(1); // retrying a refused key cannot help
  });

  it('cuts off a body larger than the cap instead of reading it all', async () => {
    let sentBeforeClose = 0;
    handlers.set('huge/1/0/0', (_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png' }); // chunked: no length to refuse up front
      const chunk = Buffer.concat([PNG, Buffer.alloc(64 * 1024 - PNG.length)]);
      let sent = 0;
      const pump = () => {
        while (!res.destroyed && sent < 1024 ** 3) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
      };
      res.on('close', () => (sentBeforeClose = sent));
      pump();
    });
    handlers.set('huge/1/1/0', (_req, res) => res.writeHead(200, { 'content-type': 'image/png', 'content-length': 3 * 1024 * 1024 }).end(Buffer.alloc(3 * 1024 * 1024)));
    const started = Date.now();
    const results = await fetchTiles(basemap('huge'), OWNER, zoom1, options({ timeoutMs: 5000 }));
    expect(summary(results)).toEqual(['too_large', 'too_large', 'provider', 'provider']);
    expect(Date.now() - started).toBeLessThan(3000);
    await expect.poll(() => sentBeforeClose).toBeGreaterThan(0);
    expect(sentBeforeClose).toBeLessThan(64 * 1024 * 1024); // the rest of the gigabyte was never sent
  });

  it('leaves tiles that are not images missing: wrong content type, or an error page labelled image/png', async () => {
    handlers.set('html/1/0/0', (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>quota</html>'));
    handlers.set('html/1/1/0', (_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end('<html>quota</html>'));
    handlers.set('html/1/0/1', (_req, res) => res.writeHead(200).end(PNG));
    const results = await fetchTiles(basemap('html'), OWNER, zoom1, options());
    expect(summary(results)).toEqual(['not_image', 'not_image', 'not_image', 'provider']);
  });

  it('throws TileProviderUnreachableError when more than half the tiles time out', async () => {
    for (const tile of ['1/0/0', '1/1/0', '1/0/1']) handlers.set(`down/${tile}`, hang);
    const error = await fetchTiles(basemap('down'), OWNER, zoom1, options()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TileProviderUnreachableError);
    expect((error as TileProviderUnreachableError).message).toMatch(/test-down .*3 of 4 tiles failed \(timeout/);
    // Exactly half is still drawn, with blanks.
    handlers.delete('down/1/0/1');
    expect(summary(await fetchTiles(basemap('down'), OWNER, zoom1, options()))).toEqual(['timeout', 'timeout', 'provider', 'provider']);
  });

  it('throws TileProviderUnreachableError when the connection is refused, without the key', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const error = await fetchTiles(basemap('refused-port', closedPort), OWNER, zoom1, options()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TileProviderUnreachableError);
    const unreachable = error as TileProviderUnreachableError;
    expect(unreachable.message).toContain('ECONNREFUSED');
    expect([unreachable.failed, unreachable.total]).toEqual([4, 4]);
    expect(unreachable.message).not.toContain(KEY);
    expect(unreachable.message).not.toContain(ENCODED_KEY);
  });

  it('gives up on the whole set at the deadline', async () => {
    for (const tile of zoom1) handlers.set(`deadline/1/${tile.x}/${tile.y}`, hang);
    const started = Date.now();
    const error = await fetchTiles(basemap('deadline'), OWNER, zoom1, options({ timeoutMs: 10_000, deadlineMs: 300 })).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TileProviderUnreachableError);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('requests at most `concurrency` tiles at once', async () => {
    const tiles = Array.from({ length: 16 }, (_, x) => ({ z: 4, x, y: 3 }));
    for (const tile of tiles) handlers.set(`many/4/${tile.x}/3`, (req, res, hit) => setTimeout(() => servePng(req, res, hit), 30));
    const results = await fetchTiles(basemap('many'), OWNER, tiles, options({ concurrency: 3 }));
    expect(results.every((result) => result.bytes !== null)).toBe(true);
    expect(maxInFlight.get('many')).toBe(3);
  });

  it('refuses tiles outside the basemap, and redacts the key raw or encoded', async () => {
    await expect(fetchTiles(basemap('range'), OWNER, [{ z: 1, x: 2, y: 0 }], options())).rejects.toThrow(RangeError);
    await expect(fetchTiles(basemap('range'), OWNER, [{ z: 20, x: 0, y: 0 }], options())).rejects.toThrow(RangeError);
    expect(redactKey(`https://t/1/2/3?key=${ENCODED_KEY} and ${KEY}`, KEY)).toBe('https://t/1/2/3?key=… and …');
  });
});
