// `npm run basemap -- build` (scripts/basemap.ts, scripts/basemap/build.ts): without tilemaker it
// says how to install it; the profile's shapefile layers are kept when their files are found
// under --shapefiles and left out otherwise. (The build itself runs as the tests' fixture:
// test/support/streetArchives.ts.)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { profileFiles, writeConfig } from '../../scripts/basemap/build.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mps-basemap-build-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function cli(args: string[], env: Record<string, string> = {}) {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/basemap.ts', ...args], { env: { ...process.env, ...env }, encoding: 'utf8' });
  return { code: run.status, output: `${run.stdout}${run.stderr}` };
}

describe('npm run basemap', () => {
  it('says how to install tilemaker when it is not there', () => {
    // A PATH with node alone: no tilemaker.
    const bin = path.join(dir, 'bin');
    fs.mkdirSync(bin);
    fs.symlinkSync(process.execPath, path.join(bin, 'node'));
    const run = cli(['build', 'region.osm.pbf'], { PATH: bin });
    expect(run.code).toBe(1);
    expect(run.output).toContain('tilemaker is not installed: on Debian or Ubuntu `sudo apt-get install tilemaker`, on macOS `brew install tilemaker`');
  });

  it('shows its usage for anything else', () => {
    const run = cli(['frobnicate']);
    expect(run.code).toBe(2);
    expect(run.output).toContain('npm run basemap -- build <extract.osm.pbf>');
  });
});

describe("the OpenMapTiles profile's config", () => {
  it('keeps a shapefile layer whose file is found (by its absolute path) and leaves out the others', () => {
    const shapefiles = path.join(dir, 'shapefiles');
    fs.mkdirSync(path.join(shapefiles, 'coastline'), { recursive: true });
    fs.writeFileSync(path.join(shapefiles, 'coastline', 'water_polygons.shp'), '');
    const target = path.join(dir, 'config.json');
    const leftOut = writeConfig(profileFiles().config, shapefiles, target);
    expect(leftOut.map((layer) => layer.split(' ')[0])).toEqual(['urban_areas', 'ice_shelf', 'glacier']);
    const config = JSON.parse(fs.readFileSync(target, 'utf8')) as { layers: Record<string, { source?: string }> };
    expect(config.layers.ocean?.source).toBe(path.join(shapefiles, 'coastline', 'water_polygons.shp'));
    expect(config.layers.urban_areas).toBeUndefined();
    expect(config.layers.transportation).toBeDefined();
    // Without a folder, every shapefile layer is left out (the fixture's config).
    expect(writeConfig(profileFiles().config, undefined, target)).toHaveLength(4);
  });
});
