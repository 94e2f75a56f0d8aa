// Street map archives for the tests: the Helsinki fixture (built once per machine by
// scripts/basemap/build.ts, the recipe `npm run basemap -- build` uses), copies of it with
// something changed (rewrite_pmtiles.py: another schema, raster tiles, header bounds,
// uncompressed tiles, leaf directories), and a loopback HTTP server that serves a file by byte
// ranges with an ETag, as a web server or a CDN serves an archive named by an https:// URL.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUILD_REQUIREMENTS, ensureStreetFixture } from '../../scripts/basemap/build.js';
import { ensurePipPackage } from '../../scripts/pipTools.js';

const REWRITE = fileURLToPath(new URL('./rewrite_pmtiles.py', import.meta.url));

let fixture: string | undefined;
/** The Helsinki fixture: zooms 0–14, 19 tiles, gzip, bounds and centre zero in its header (found or built once per test file). */
export const streetFixture = (): string => (fixture ??= ensureStreetFixture(() => {}));

/** The fixture's tiles at zoom 14 (x 9326–9327, y 4741–4742) and an address inside its zooms with no tile. */
export const FIXTURE_TILES = { z14: [[14, 9326, 4741], [14, 9326, 4742], [14, 9327, 4741], [14, 9327, 4742]], world: [0, 0, 0], empty: [14, 9326, 4739] } as const;

/** The fixture's tiles as the PyPI package pmtiles reads them (a reader that is not ours): address, stored size and SHA-256. */
export function fixtureTiles(): { z: number; x: number; y: number; length: number; sha256: string }[] {
  const script = [
    'import hashlib, json, sys',
    'from pmtiles.reader import MmapSource, Reader, all_tiles',
    'f = open(sys.argv[1], "rb")',
    'print(json.dumps([dict(z=z, x=x, y=y, length=len(d), sha256=hashlib.sha256(d).hexdigest()) for (z, x, y), d in all_tiles(Reader(MmapSource(f)).get_bytes)]))',
  ].join('\n');
  const pythonPath = ensurePipPackage('basemap-build', BUILD_REQUIREMENTS, () => {});
  return JSON.parse(execFileSync('python3', ['-c', script, streetFixture()], { env: { ...process.env, PYTHONPATH: pythonPath }, encoding: 'utf8' }));
}

/** Made by the tests, removed by removeTestArchives(). */
const made: string[] = [];

/** A copy of the fixture with `changes` (see rewrite_pmtiles.py), in a temporary directory. */
export function rewrittenArchive(changes: Record<string, unknown>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mps-archive-'));
  made.push(dir);
  const target = path.join(dir, 'changed.pmtiles');
  // The build's PyPI folder: the fixture was made with it, so it is installed already.
  const pythonPath = ensurePipPackage('basemap-build', BUILD_REQUIREMENTS, () => {});
  execFileSync('python3', [REWRITE, streetFixture(), target, JSON.stringify(changes)], { env: { ...process.env, PYTHONPATH: pythonPath }, stdio: ['ignore', 'ignore', 'inherit'] });
  return target;
}

/** A file of the given bytes in a temporary directory (a damaged archive, not an archive). */
export function fileOf(bytes: Uint8Array, name = 'archive.pmtiles'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mps-archive-'));
  made.push(dir);
  const file = path.join(dir, name);
  fs.writeFileSync(file, bytes);
  return file;
}

export function removeTestArchives(): void {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

export interface RangeServer {
  /** The file's URL. */
  url: string;
  /** Serves other bytes from now on (a new ETag). */
  replace(bytes: Uint8Array): void;
  stop(): Promise<void>;
}

/** Serves `bytes` at /archive.pmtiles: one byte range per request (206, 416 past the end), a strong ETag. */
export async function startRangeServer(bytes: Uint8Array): Promise<RangeServer> {
  let body = Buffer.from(bytes);
  let etag = `"${createHash('sha256').update(body).digest('hex').slice(0, 16)}"`;
  const server = http.createServer((request, response) => {
    if (request.url !== '/archive.pmtiles') {
      response.writeHead(404).end();
      return;
    }
    const range = /^bytes=(\d+)-(\d+)$/.exec(request.headers.range ?? '');
    if (!range) {
      response.writeHead(200, { etag, 'content-length': body.length }).end(body);
      return;
    }
    const start = Number(range[1]);
    if (start >= body.length) {
      response.writeHead(416, { etag, 'content-range': `bytes */${body.length}` }).end();
      return;
    }
    const end = Math.min(Number(range[2]), body.length - 1);
    response.writeHead(206, { etag, 'content-range': `bytes ${start}-${end}/${body.length}`, 'content-length': end - start + 1 }).end(body.subarray(start, end + 1));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/archive.pmtiles`,
    replace(next) {
      body = Buffer.from(next);
      etag = `"${createHash('sha256').update(body).digest('hex').slice(0, 16)}"`;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
