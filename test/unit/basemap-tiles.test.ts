// The built-in basemaps for the browser: their MapLibre styles (valid by the style
// specification's own validator), the vector tiles as MapLibre decodes them, which names show
// at which zoom, and the font stylesheet covering every name the tiles hold.
import { VectorTile, type VectorTileLayer } from '@mapbox/vector-tile';
import { validateStyleMin } from '@maplibre/maplibre-gl-style-spec';
import { PbfReader } from 'pbf';
import { describe, expect, it } from 'vitest';
import { basemapFontCss, basemapFontFile } from '../../lib/basemapFonts.js';
import { PALETTES } from '../../lib/basemapPalettes.js';
import { basemapStyle } from '../../lib/basemapStyles.js';
import { basemapTile, countryMinZoom, isBasemapTile } from '../../lib/basemapTiles/index.js';
import { tileNumber } from '../../lib/basemapTiles/pyramid.js';
import { naturalEarth } from '../../lib/naturalEarth.js';

const BUILT_IN = ['classic', 'light', 'dark'] as const;

async function decoded(z: number, x: number, y: number): Promise<VectorTile> {
  const bytes = await basemapTile(z, x, y);
  if (!bytes) throw new Error(`no tile ${z}/${x}/${y}`);
  return new VectorTile(new PbfReader(bytes));
}

const featuresOf = (layer: VectorTileLayer | undefined) => Array.from({ length: layer?.length ?? 0 }, (_, i) => layer!.feature(i));
const namesIn = (layer: VectorTileLayer | undefined) => featuresOf(layer).map((feature) => feature.properties.name);

describe('basemap styles', () => {
  it('are valid MapLibre styles of the palettes, over the service tiles, with no glyphs', () => {
    for (const id of BUILT_IN) {
      const style = basemapStyle(id, 'https://maps.example.org/');
      expect(validateStyleMin(style!)).toEqual([]);
      expect(style).not.toHaveProperty('glyphs');
      const source = style!.sources['natural-earth'] as { tiles: string[]; maxzoom: number; attribution: string };
      expect(source.tiles[0]).toMatch(/^https:\/\/maps\.example\.org\/basemaps\/tiles\/\{z\}\/\{x\}\/\{y\}\.pbf\?v=[\w-]{12}$/);
      expect([source.maxzoom, source.attribution]).toEqual([6, 'Made with Natural Earth']);
      const paint = Object.fromEntries(style!.layers.map((layer) => [layer.id, (layer as { paint?: Record<string, unknown> }).paint]));
      expect(paint.water!['background-color']).toBe(PALETTES[id].water);
      expect(paint.land!['fill-color']).toBe(PALETTES[id].land);
      expect(paint['country-labels']!['text-halo-color']).toBe(PALETTES[id].labelHalo);
      for (const layer of style!.layers.filter((layer) => layer.type === 'symbol')) {
        expect((layer as { layout: Record<string, unknown> }).layout['text-font']).toEqual(['Noto Sans', 'sans-serif']);
      }
    }
  });

  it('exist only for the built-in basemaps', () => {
    expect(basemapStyle('mapbox-streets', 'https://maps.example.org')).toBeUndefined();
    expect(basemapStyle('nope', 'https://maps.example.org')).toBeUndefined();
  });
});

describe('basemap tiles', () => {
  it('has the zoom 0–6 pyramid and nothing else', () => {
    expect([isBasemapTile(0, 0, 0), isBasemapTile(6, 63, 63), isBasemapTile(7, 0, 0), isBasemapTile(3, 8, 0), isBasemapTile(2, 0, -1), isBasemapTile(1.5, 0, 0)]).toEqual([
      true, true, false, false, false, false,
    ]);
    expect([tileNumber(0, 0, 0), tileNumber(1, 0, 0), tileNumber(6, 63, 63)]).toEqual([0, 1, 5460]);
  });

  it('draws the world at zoom 0: land, borders and the largest countries, no capitals yet', async () => {
    const tile = await decoded(0, 0, 0);
    expect(Object.keys(tile.layers).sort()).toEqual(['borders', 'country_labels', 'land']);
    expect(featuresOf(tile.layers.land).every((feature) => feature.type === 3)).toBe(true);
    expect(featuresOf(tile.layers.borders).every((feature) => feature.type === 2)).toBe(true);
    const names = namesIn(tile.layers.country_labels);
    expect(names).toEqual(expect.arrayContaining(['France', 'Russia', 'Brazil']));
    expect(names).not.toContain('Luxembourg');
    expect(featuresOf(tile.layers.country_labels).every((feature) => feature.properties.min_zoom === 0)).toBe(true);
  });

  it('draws France at zoom 6 from 1:10m: land, its name, Paris as a capital, borders next door', async () => {
    // 6/32/22: 0–5.6°E, 45.1–48.9°N; 6/33/22 east of it holds the Alps' borders.
    const paris = await decoded(6, 32, 22);
    expect(Object.keys(paris.layers).sort()).toEqual(['capitals', 'country_labels', 'land']);
    expect(namesIn(paris.layers.country_labels)).toContain('France');
    const capital = featuresOf(paris.layers.capitals).find((feature) => feature.properties.name === 'Paris');
    const [lon, lat] = (capital!.toGeoJSON(32, 22, 6).geometry as GeoJSON.Point).coordinates;
    expect([lon!, lat!].map((value) => Math.round(value * 10) / 10)).toEqual([2.3, 48.9]);
    const alps = await decoded(6, 33, 22);
    expect(featuresOf(alps.layers.borders).length).toBeGreaterThan(0);
    expect(namesIn(alps.layers.country_labels)).toContain('Switzerland');
  });

  it('shows a small country from its min_zoom on', async () => {
    expect(countryMinZoom(0.33)).toBe(4);
    // Luxembourg (6.06°E, 49.74°N) lies in 3/4/2 and 4/8/5.
    expect(namesIn((await decoded(3, 4, 2)).layers.country_labels)).not.toContain('Luxembourg');
    expect(namesIn((await decoded(4, 8, 5)).layers.country_labels)).toContain('Luxembourg');
  });

  it('answers open ocean with a tile of no bytes, and no tile outside the pyramid', async () => {
    // 6/26/39: the South Atlantic around 30°W, 40°S, far from any island.
    expect((await basemapTile(6, 26, 39))!.length).toBe(0);
    expect(await basemapTile(7, 0, 0)).toBeUndefined();
  });
});

describe('basemap font', () => {
  const css = basemapFontCss();
  const ranges = [...css.matchAll(/unicode-range: ([^;]+);/g)].flatMap((match) =>
    match[1]!.split(',').map((range) => {
      const [from, to] = range.trim().replace('U+', '').split('-');
      return [parseInt(from!, 16), parseInt(to ?? from!, 16)] as const;
    }),
  );

  it('names only files that are served', () => {
    const urls = [...css.matchAll(/url\(([^)]+)\)/g)].map((match) => match[1]!);
    expect(urls).toHaveLength(8);
    for (const url of urls) expect(basemapFontFile(url)).toBeDefined();
    expect(basemapFontFile('../package.json')).toBeUndefined();
    expect(basemapFontFile('noto-sans-vietnamese-400-normal.woff2')).toBeUndefined();
  });

  it('covers every character of every country and capital name', () => {
    for (const resolution of ['50m', '10m'] as const) {
      const { countries, capitals } = naturalEarth(resolution);
      for (const place of [...countries, ...capitals]) {
        for (const char of place.name) {
          const code = char.codePointAt(0)!;
          expect(ranges.some(([from, to]) => code >= from && code <= to), `${place.name}: U+${code.toString(16)}`).toBe(true);
        }
      }
    }
  });
});

describe('the Natural Earth layers both renderers draw', () => {
  it.each(['50m', '10m'] as const)('never jump across the antimeridian within a ring or line (%s): a jump draws a band across the world', (resolution) => {
    const data = naturalEarth(resolution);
    const lines = [...data.land.flatMap((polygon) => polygon.rings), ...data.borders.map((border) => border.line)];
    let jumps = 0;
    for (const line of lines) {
      for (let i = 1; i < line.length; i++) {
        // Along the pole (Antarctica's closing edge) is beyond Web Mercator's 85°: never drawn.
        const offMap = Math.abs(line[i]![1]) > 85.06 && Math.abs(line[i - 1]![1]) > 85.06;
        if (!offMap && Math.abs(line[i]![0] - line[i - 1]![0]) > 180) jumps++;
      }
    }
    expect(jumps).toBe(0);
    // Chukotka continues past 180° instead: the unwrapping keeps the shape.
    expect(data.land.some((polygon) => polygon.rings[0]!.some(([lon]) => lon > 180 || lon < -180))).toBe(true);
  });
});
