// Start-up with BASEMAP_TILES, as an operator meets it: `npm start` (scripts/start.ts), the API
// (api/main.ts) and the worker (workers/main.ts) as real processes. A missing archive, one of raster
// tiles or of another schema stops each at once (exit 1) with one fatal line naming the setting, the
// archive and the problem — `npm start` before it starts a Temporal dev server; a good archive is
// named in the log with its identity, zooms and bounds. (Without BASEMAP_TILES, the hint `npm start`
// prints is checked in operator-cli.test.ts, which starts the whole embedded service.)
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../lib/freePort.js';
import { removeTestArchives, rewrittenArchive, streetFixture } from '../support/streetArchives.js';

const tsx = path.resolve('node_modules/.bin/tsx');
let dataDir: string;
beforeAll(() => {
  streetFixture();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mps-street-start-'));
}, 180_000);
afterAll(() => {
  removeTestArchives();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Runs an entry point to its end (at most 60 s), with its output. */
function run(script: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(tsx, [script], { env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', TEMPORAL_ADDRESS: '', BLOB_STORE: '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** The scaled-out entry points need these before they look further (nothing answers there). */
const SCALED_OUT = { DATABASE_URL: 'postgres://127.0.0.1:1/none', TEMPORAL_ADDRESS: '127.0.0.1:1' };
const fatalLine = (output: string) => output.split('\n').find((line) => line.includes('"level":"fatal"')) ?? '';

// Each run starts tsx and imports the whole service: 10–25 s on a busy 2-core machine.
describe('start-up with a bad BASEMAP_TILES', { timeout: 120_000 }, () => {
  it('npm start: a missing archive stops it before anything starts, saying what is wrong', async () => {
    const { code, output } = await run('scripts/start.ts', { BASEMAP_TILES: '/no/such/basemap.pmtiles', PORT: String(await freePort()) });
    expect(code).toBe(1);
    expect(fatalLine(output)).toContain('BASEMAP_TILES: /no/such/basemap.pmtiles: there is no such file');
    expect(output).not.toContain('Temporal dev server at');
  });

  it('npm start: an archive of another schema', async () => {
    const protomaps = rewrittenArchive({ metadata: { vector_layers: [{ id: 'earth' }, { id: 'roads' }, { id: 'places' }] } });
    const { code, output } = await run('scripts/start.ts', { BASEMAP_TILES: protomaps, PORT: String(await freePort()) });
    expect(code).toBe(1);
    expect(fatalLine(output)).toContain(`BASEMAP_TILES: ${protomaps}: is not in the OpenMapTiles schema: it lacks the layers water, waterway`);
  });

  it('the API entry point: raster tiles', async () => {
    const raster = rewrittenArchive({ header: { tile_type: 2 } });
    const { code, output } = await run('api/main.ts', { ...SCALED_OUT, BASEMAP_TILES: raster });
    expect(code).toBe(1);
    expect(fatalLine(output)).toContain(`BASEMAP_TILES: ${raster}: holds PNG tiles, not Mapbox vector tiles (MVT)`);
  });

  it('the worker entry point (the renderer draws from it too): a file cut short', async () => {
    const cut = path.join(dataDir, 'cut.pmtiles');
    fs.writeFileSync(cut, fs.readFileSync(streetFixture()).subarray(0, 50_000));
    const { code, output } = await run('workers/main.ts', { ...SCALED_OUT, BASEMAP_TILES: cut });
    expect(code).toBe(1);
    expect(fatalLine(output)).toMatch(/BASEMAP_TILES: .*cut\.pmtiles: is truncated/);
  });
});

describe('start-up with a good BASEMAP_TILES', { timeout: 120_000 }, () => {
  it('names the archive, its identity, zooms and bounds in the log, then goes on', async () => {
    // The worker goes on to its database, which is not there: it stops on that, after the archive's line.
    const { code, output } = await run('workers/main.ts', { ...SCALED_OUT, BASEMAP_TILES: streetFixture() });
    expect(code).toBe(1);
    expect(output).toMatch(new RegExp(`Street basemap from ${streetFixture().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(identity [0-9a-f]{16}, zooms 0–14, bounds 24\\.9170, 60\\.1634, 24\\.9609, 60\\.1852 from its tiles\\)`));
    expect(fatalLine(output)).not.toContain('BASEMAP_TILES');
  });
});
