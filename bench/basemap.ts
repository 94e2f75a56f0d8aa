// Street map tiles (issue 25): the fixture's tiles (central Helsinki, 19 tiles, zooms 0–14, 170 kB,
// gzip) requested by CLIENTS clients in closed loops for SECONDS seconds each, against
//   - nginx (Debian's nginx-light, installed here when missing, never by the product) serving the
//     same tiles extracted as files (the stored gzip bytes, Content-Encoding: gzip, ETag) with a
//     worker per core: the machine's physical ceiling, which the ratios divide by; and with one
//     worker, a single process like the service's one event loop;
//   - the service (`npm start`, bench/service.ts) with BASEMAP_TILES on the local file, and its
//     /healthz under the same load (every request's middleware without a tile: the stack's floor);
//   - the service with BASEMAP_TILES on an S3 object (moto's server on loopback), the tile cache
//     warm (every tile read once before) and cold (BASEMAP_TILE_CACHE_MB=0: every request reads
//     the object; the directories stay cached, as the package caches them) — and, as the cold
//     run's ceiling, moto itself answering the same byte ranges to 8 clients of the AWS SDK.
// Each client keeps one keep-alive connection, asks for the tiles in turn (each from another
// start) with Accept-Encoding: gzip, and reads every byte; an answer other than 200 with the tile's
// length counts as an error. Each service is measured once it has settled (its start-up work,
// such as the worker's workflow bundle, done) and after WARM_UP_SECONDS of the same load. Reports tiles/s, its ratio to nginx's and p50/p99
// latency.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { openStreetArchive, type StreetArchiveLocation } from '../lib/streetArchive/index.js';
import { freePort } from '../lib/freePort.js';
import { waitFor } from '../lib/waitFor.js';
import { ensureStreetFixture } from '../scripts/basemap/build.js';
import { startS3Server } from '../test/support/s3Server.js';
import { startBenchService } from './service.js';
import { percentile } from './stats.js';

const CLIENTS = 8;
const SECONDS = Number(process.env.BASEMAP_BENCH_SECONDS ?? 20);
/** Load before each service's measured run, not counted: its code compiled by the JIT (measured: the first 10 s of a fresh process serve a fifth to a half of the later rate). */
const WARM_UP_SECONDS = 10;

interface Tile {
  path: string;
  bytes: Uint8Array;
}

export interface ServingFigures {
  target: string;
  tiles_per_s: number;
  vs_nginx: number;
  p50_ms: number;
  p99_ms: number;
  errors: number;
}

function ensureNginx(): string {
  const nginx = '/usr/sbin/nginx';
  if (!fs.existsSync(nginx)) {
    console.log('Installing nginx-light (the reference server) …');
    execFileSync('sh', ['-c', 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light'], { stdio: 'inherit' });
  }
  return nginx;
}

/** Every tile of the archive, as stored, with its z/x/y path. */
async function tilesOf(location: StreetArchiveLocation): Promise<Tile[]> {
  const archive = await openStreetArchive(location, 0);
  try {
    const tiles: Tile[] = [];
    for (let z = 0; z <= archive.info.maxZoom; z++) {
      // The fixture is small: the tiles of its bounds at each zoom.
      const [west, south, east, north] = archive.info.bounds;
      const column = (lon: number) => Math.floor(((lon + 180) / 360) * 2 ** z);
      const row = (lat: number) => Math.floor(((1 - Math.log(Math.tan((lat * Math.PI) / 180) + 1 / Math.cos((lat * Math.PI) / 180)) / Math.PI) / 2) * 2 ** z);
      for (let x = column(west); x <= Math.min(column(east), 2 ** z - 1); x++) {
        for (let y = row(north); y <= Math.min(row(south), 2 ** z - 1); y++) {
          const tile = await archive.storedTile(z, x, y);
          if (tile.status === 'tile') tiles.push({ path: `${z}/${x}/${y}`, bytes: tile.bytes });
        }
      }
    }
    return tiles;
  } finally {
    await archive.close();
  }
}

/** nginx serving the tiles as files under <dir>/tiles/z/x/y.mvt, with `workers` worker processes ('auto': one per core). */
async function startNginx(tiles: Tile[], workers: 'auto' | 1): Promise<{ base: string; stop(): Promise<void> }> {
  const nginx = ensureNginx();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mps-bench-nginx-'));
  fs.chmodSync(dir, 0o755); // its workers run as another user when started by root
  for (const tile of tiles) {
    const file = path.join(dir, 'tiles', `${tile.path}.mvt`);
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o755 });
    fs.writeFileSync(file, tile.bytes, { mode: 0o644 });
  }
  const port = await freePort();
  const temp = (name: string) => `${name}_temp_path ${dir}/${name};`;
  fs.writeFileSync(
    path.join(dir, 'nginx.conf'),
    `worker_processes ${workers};
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
  ${['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(temp).join('\n  ')}
  types { application/vnd.mapbox-vector-tile mvt; }
  server {
    listen 127.0.0.1:${port};
    root ${dir}/tiles;
    location / {
      add_header Content-Encoding gzip;
      add_header Cache-Control "public, max-age=86400";
      add_header Access-Control-Allow-Origin *;
    }
  }
}
`,
  );
  const child = spawn(nginx, ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-e', path.join(dir, 'error.log')], { stdio: 'ignore' });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const base = `http://127.0.0.1:${port}`;
  await waitFor('nginx', async () => (await fetch(`${base}/${tiles[0]!.path}.mvt`).catch(() => null))?.status === 200, 20_000);
  return {
    base,
    async stop() {
      child.kill('SIGQUIT');
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** CLIENTS closed loops for SECONDS seconds over the tiles at `urlOf(tile)`. */
async function load(tiles: Tile[], urlOf: (tile: Tile) => string, seconds = SECONDS, tileAnswers = true): Promise<{ count: number; seconds: number; latencies: number[]; errors: number }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });
  const latencies: number[] = [];
  let errors = 0;
  const started = performance.now();
  const end = started + seconds * 1000;
  const get = (tile: Tile) =>
    new Promise<void>((resolve) => {
      const sent = performance.now();
      http
        .get(urlOf(tile), { agent, headers: { 'accept-encoding': 'gzip' } }, (response) => {
          let length = 0;
          response.on('data', (chunk: Buffer) => (length += chunk.length));
          response.on('end', () => {
            latencies.push(performance.now() - sent);
            if (response.statusCode !== 200 || (tileAnswers && length !== tile.bytes.byteLength)) errors++;
            resolve();
          });
        })
        .on('error', () => {
          errors++;
          resolve();
        });
    });
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, client) => {
      for (let i = client * 3; performance.now() < end; i++) await get(tiles[i % tiles.length]!);
    }),
  );
  agent.destroy();
  return { count: latencies.length, seconds: (performance.now() - started) / 1000, latencies, errors };
}

/** CPU seconds a process has used (Linux: utime + stime, in clock ticks of 1/100 s). */
function cpuSecondsOf(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Until the process uses under a tenth of a core for a second (at most 90 s): its start-up work done. */
async function settled(pid: number): Promise<void> {
  const deadline = Date.now() + 90_000;
  for (let before = cpuSecondsOf(pid); Date.now() < deadline; ) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const now = cpuSecondsOf(pid);
    if (now - before < 0.1) return;
    before = now;
  }
}

/** Every tile once, one after another (the tile cache filled), then WARM_UP_SECONDS of load. */
async function warm(tiles: Tile[], urlOf: (tile: Tile) => string): Promise<void> {
  for (const tile of tiles) {
    const answer = await fetch(urlOf(tile), { headers: { 'accept-encoding': 'gzip' } });
    if (answer.status !== 200) throw new Error(`${urlOf(tile)}: HTTP ${answer.status}`);
    await answer.arrayBuffer();
  }
  await load(tiles, urlOf, WARM_UP_SECONDS);
}

function figures(target: string, run: Awaited<ReturnType<typeof load>>, nginxRate: number): ServingFigures {
  const rate = run.count / run.seconds;
  return {
    target,
    tiles_per_s: Math.round(rate),
    vs_nginx: Number((rate / nginxRate).toFixed(2)),
    p50_ms: Number(percentile(run.latencies, 0.5).toFixed(2)),
    p99_ms: Number(percentile(run.latencies, 0.99).toFixed(2)),
    errors: run.errors,
  };
}

/** CLIENTS clients of the AWS SDK asking moto for the tiles' byte ranges for SECONDS seconds: the cold run's ceiling. */
async function loadS3Ranges(s3: Awaited<ReturnType<typeof startS3Server>>, location: Extract<StreetArchiveLocation, { kind: 's3' }>, tiles: Tile[]): Promise<Awaited<ReturnType<typeof load>>> {
  // The ranges of the tiles in the object: where their bytes are (found once, by content).
  const whole = fs.readFileSync(ensureStreetFixture());
  const ranges = tiles.map((tile) => {
    const start = whole.indexOf(Buffer.from(tile.bytes));
    return { start, end: start + tile.bytes.byteLength - 1 };
  });
  const latencies: number[] = [];
  let errors = 0;
  const started = performance.now();
  const end = started + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, client) => {
      for (let i = client * 3; performance.now() < end; i++) {
        const range = ranges[i % ranges.length]!;
        const sent = performance.now();
        try {
          const answer = await s3.client.send(new GetObjectCommand({ Bucket: location.bucket, Key: location.key, Range: `bytes=${range.start}-${range.end}` }));
          if ((await answer.Body!.transformToByteArray()).byteLength !== range.end - range.start + 1) errors++;
        } catch {
          errors++;
        }
        latencies.push(performance.now() - sent);
      }
    }),
  );
  return { count: latencies.length, seconds: (performance.now() - started) / 1000, latencies, errors };
}

/** The service's tile URL of each tile (the archive's identity from its own module). */
async function serviceUrls(base: string, location: StreetArchiveLocation): Promise<(tile: Tile) => string> {
  const archive = await openStreetArchive(location, 0);
  await archive.close();
  return (tile) => `${base}/basemaps/osm/${archive.info.identity}/${tile.path}.mvt`;
}

export async function benchBasemapServing(): Promise<{ machine: string; rows: ServingFigures[] }> {
  const fixture = ensureStreetFixture();
  const local: StreetArchiveLocation = { kind: 'file', path: fixture };
  const tiles = await tilesOf(local);
  const machine = `${os.cpus().length} cores, load ${os.loadavg().map((value) => value.toFixed(1)).join(' ')} at the start`;
  const rows: ServingFigures[] = [];

  let nginxRate = NaN;
  // The ceiling (a worker per core), then one worker: a process as the service's one event loop.
  for (const workers of ['auto', 1] as const) {
    const reference = await startNginx(tiles, workers);
    try {
      const run = await load(tiles, (tile) => `${reference.base}/${tile.path}.mvt`);
      if (workers === 'auto') nginxRate = run.count / run.seconds;
      rows.push(figures(`nginx (files), ${workers === 'auto' ? 'a worker per core' : 'one worker'}`, run, nginxRate));
    } finally {
      await reference.stop();
    }
  }

  const fromFile = await startBenchService('pglite', { BASEMAP_TILES: fixture });
  try {
    const urlOf = await serviceUrls(fromFile.base, local);
    await settled(fromFile.pid);
    await warm(tiles, urlOf);
    rows.push(figures('service, local file', await load(tiles, urlOf), nginxRate));
    // The floor every request of the service stands on (access log, metrics, rate limiter, router): no tile at all.
    rows.push(figures('service, GET /healthz (no tile: the stack alone)', await load(tiles, () => `${fromFile.base}/healthz`, SECONDS, false), nginxRate));
  } finally {
    await fromFile.stop();
  }

  const s3 = await startS3Server();
  try {
    await s3.client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: 'osm/helsinki.pmtiles', Body: fs.readFileSync(fixture) }));
    const { S3_ENDPOINT, S3_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY } = s3.env('');
    const env = { BASEMAP_TILES: `s3://${s3.bucket}/osm/helsinki.pmtiles`, S3_ENDPOINT: S3_ENDPOINT!, S3_REGION: S3_REGION!, AWS_ACCESS_KEY_ID: AWS_ACCESS_KEY_ID!, AWS_SECRET_ACCESS_KEY: AWS_SECRET_ACCESS_KEY! };
    const location: StreetArchiveLocation = { kind: 's3', bucket: s3.bucket, key: 'osm/helsinki.pmtiles', connection: { endpoint: S3_ENDPOINT, region: S3_REGION!, credentials: { accessKeyId: AWS_ACCESS_KEY_ID!, secretAccessKey: AWS_SECRET_ACCESS_KEY! } } };
    for (const [name, cache] of [['service, S3 (moto), tile cache warm', '64'], ['service, S3 (moto), tile cache cold (0 MB)', '0']] as const) {
      const service = await startBenchService('pglite', { ...env, BASEMAP_TILE_CACHE_MB: cache });
      try {
        const urlOf = await serviceUrls(service.base, location);
        await settled(service.pid);
        await warm(tiles, urlOf); // with no tile cache, every request still reads the object
        rows.push(figures(name, await load(tiles, urlOf), nginxRate));
      } finally {
        await service.stop();
      }
    }
    rows.push(figures('moto alone: the same byte ranges (AWS SDK)', await loadS3Ranges(s3, location as Extract<StreetArchiveLocation, { kind: 's3' }>, tiles), nginxRate));
  } finally {
    await s3.stop();
  }
  return { machine, rows };
}
