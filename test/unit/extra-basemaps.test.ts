// BASEMAPS_EXTRA: the operator's XYZ basemaps read from a JSON value or file, every mistake named
// at start; and the address ranges the tile fetcher refuses.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { basemapById, basemapCatalogue, BASEMAPS, useExtraBasemaps } from '../../lib/basemaps.js';
import { ConfigError, loadConfig } from '../../lib/config.js';
import { parseExtraBasemaps } from '../../lib/extraBasemaps.js';
import { isPrivateAddress } from '../../lib/net/privateAddresses.js';

const OURS = { id: 'osm-internal', name: 'Our OSM', url: 'https://tiles.example.org/{z}/{x}/{y}.png', attribution: '© OpenStreetMap contributors' };

afterEach(() => useExtraBasemaps([]));

describe('BASEMAPS_EXTRA', () => {
  it('reads a JSON value with defaults, and a file', () => {
    const expected = [{ id: 'osm-internal', name: 'Our OSM', attribution: '© OpenStreetMap contributors', providerKind: null, drawing: { type: 'xyz', url: OURS.url, tileSize: 256, maxZoom: 19 } }];
    expect(parseExtraBasemaps(JSON.stringify([OURS]))).toEqual({ basemaps: expected });
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mps-extra-')), 'basemaps.json');
    fs.writeFileSync(file, JSON.stringify([{ ...OURS, tile_size: 512, max_zoom: 20, provider_kind: 'tile_provider', url: `${OURS.url}?k={key}` }]));
    expect(loadConfig({ BASEMAPS_EXTRA: file }).extraBasemaps[0]).toMatchObject({ providerKind: 'tile_provider', drawing: { tileSize: 512, maxZoom: 20 } });
    fs.rmSync(path.dirname(file), { recursive: true });
  });

  it('names every mistake, and start-up stops', () => {
    const problems = (value: unknown) => {
      const parsed = parseExtraBasemaps(typeof value === 'string' ? value : JSON.stringify(value));
      return 'problems' in parsed ? parsed.problems : [];
    };
    expect(problems('/no/such/file.json')).toEqual(['BASEMAPS_EXTRA: is neither a JSON array nor a readable file (ENOENT)']);
    expect(problems('[{')[0]).toMatch(/^BASEMAPS_EXTRA: is not valid JSON/);
    expect(problems([{ ...OURS, url: 'https://tiles.example.org/{z}/{x}.png' }])).toEqual(['BASEMAPS_EXTRA[0].url: must contain {z}, {x} and {y}']);
    expect(problems([{ ...OURS, url: 'ftp://tiles.example.org/{z}/{x}/{y}.png' }])[0]).toMatch(/^BASEMAPS_EXTRA\[0\]\.url: /);
    expect(problems([{ ...OURS, provider_kind: 'tile_provider' }])).toEqual([
      'BASEMAPS_EXTRA[0].url: url must contain {key} exactly when provider_kind is set (the key of that kind goes there)',
    ]);
    expect(problems([{ ...OURS, id: 'Classic!' }])).toEqual(['BASEMAPS_EXTRA[0].id: must be 1–40 lowercase letters, digits and hyphens']);
    expect(problems([{ ...OURS, id: 'classic' }, OURS, OURS])).toEqual([
      'BASEMAPS_EXTRA[0].id: "classic" is already a basemap of the catalogue',
      'BASEMAPS_EXTRA[2].id: "osm-internal" is already a basemap of the catalogue',
    ]);
    expect(problems([{ ...OURS, colour: 'red' }])[0]).toMatch(/^BASEMAPS_EXTRA\[0\]: Unrecognized key/);
    expect(() => loadConfig({ BASEMAPS_EXTRA: '[{"id": "x"}]' })).toThrow(ConfigError);
    expect(() => loadConfig({ BASEMAPS_EXTRA: '[{"id": "x"}]' })).toThrow(/BASEMAPS_EXTRA\[0\]\.name/);
  });

  it('joins the catalogue after the service’s own basemaps', () => {
    expect(basemapById('osm-internal')).toBeUndefined();
    const { extraBasemaps } = loadConfig({ BASEMAPS_EXTRA: JSON.stringify([OURS]) });
    useExtraBasemaps(extraBasemaps);
    expect(basemapCatalogue().map((basemap) => basemap.id)).toEqual([...BASEMAPS.map((basemap) => basemap.id), 'osm-internal']);
    expect(basemapById('osm-internal')?.name).toBe('Our OSM');
  });
});

describe('private addresses', () => {
  it('refuses private, loopback, link-local and reserved ranges, IPv4-mapped ones too, and allows public ones', () => {
    for (const address of ['127.0.0.1', '10.1.2.3', '172.20.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '::1', '::', 'fd00::1', 'fe80::1', '::ffff:127.0.0.1', '::ffff:a9fe:a9fe', 'not an address']) {
      expect(isPrivateAddress(address), address).toBe(true);
    }
    for (const address of ['8.8.8.8', '1.1.1.1', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8']) {
      expect(isPrivateAddress(address), address).toBe(false);
    }
  });
});
