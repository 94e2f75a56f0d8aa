// The static renderer's reading of the street style description (lib/streetStyle/evaluate.ts)
// agrees with MapLibre's own evaluation of the style made from the same description
// (lib/streetStyle/maplibre.ts, through @maplibre/maplibre-gl-style-spec): every rule takes the
// same features and has the same widths and sizes at every zoom. And the tiles a static image is
// drawn from are the ones MapLibre would pick for its view.
import { createExpression, featureFilter, latest, type LayerSpecification } from '@maplibre/maplibre-gl-style-spec';
import { describe, expect, it } from 'vitest';
import { makiName } from '../../lib/makiIcons.js';
import { STREET_RULES } from '../../lib/streetStyle/description.js';
import { labelText, shownAt, takes, valueAt } from '../../lib/streetStyle/evaluate.js';
import { streetLayers } from '../../lib/streetStyle/maplibre.js';
import { STREET_PALETTES } from '../../lib/streetStyle/palettes.js';
import { viewOf, STATIC_IMAGE } from '../../lib/render/renderMap.js';
import { streetTilesOf } from '../../lib/render/streetMap.js';
import { worldX, worldY } from '../../lib/render/mercator.js';

const { shapes, labels } = streetLayers('osm', STREET_PALETTES.classic, ['Noto Sans']);
const layers = new Map<string, LayerSpecification>([...shapes, ...labels].map((layer) => [layer.id, layer]));

/** Properties to try every filter on: every class and value the rules name, on and off bridges and tunnels. */
function sampleProperties(): Record<string, string | number>[] {
  const values = new Set<string | number>(['nothing-named']);
  for (const rule of STREET_RULES) for (const value of rule.match?.values ?? []) values.add(value);
  const samples: Record<string, string | number>[] = [{}];
  for (const value of values) {
    for (const brunnel of [undefined, 'bridge', 'tunnel', 'ford']) {
      samples.push({ class: value, subclass: value, admin_level: value, ...(brunnel ? { brunnel } : {}) });
    }
  }
  return samples;
}

describe('the static renderer reads the style description as MapLibre does', () => {
  it('takes the same features with every rule', () => {
    const samples = sampleProperties();
    for (const rule of STREET_RULES) {
      const layer = layers.get(`streets-${rule.id}`)!;
      const filter = featureFilter('filter' in layer ? layer.filter : undefined, 'filter');
      for (const properties of samples) {
        const feature = { type: 2 as const, properties, geometry: [] };
        expect([rule.id, properties, takes(rule, properties)]).toEqual([rule.id, properties, filter.filter({ zoom: 14 }, feature)]);
      }
    }
  });

  it('has the same widths and text sizes at every zoom, and the same zooms', () => {
    for (const rule of STREET_RULES) {
      const layer = layers.get(`streets-${rule.id}`)!;
      const [group, property, stops] =
        rule.kind === 'line' ? (['paint', 'line-width', rule.width] as const) : rule.kind === 'label' ? (['layout', 'text-size', rule.size] as const) : [undefined, undefined, undefined];
      for (let zoom = 0; zoom <= 20; zoom += 0.25) {
        expect([rule.id, zoom, shownAt(rule, zoom)]).toEqual([rule.id, zoom, (layer.minzoom ?? 0) <= zoom && zoom < (layer.maxzoom ?? 24)]);
        if (!group || !property || !stops) continue;
        const spec = (latest as unknown as Record<string, Record<string, object>>)[`${group}_${layer.type}`]![property]!;
        const value = (layer as unknown as Record<string, Record<string, unknown>>)[group]![property];
        const expression = createExpression(value, property, spec as never);
        if (expression.result !== 'success') throw new Error(`${rule.id}: ${JSON.stringify(expression.value)}`);
        const theirs = expression.value.evaluate({ zoom }) as number;
        expect([rule.id, zoom, valueAt(stops, zoom)]).toEqual([rule.id, zoom, expect.closeTo(theirs, 6)]);
      }
    }
  });

  it("gives each point of interest its Maki icon, in the palette's colour, as the browser does", () => {
    for (const rule of STREET_RULES) {
      if (rule.kind !== 'dot' || !rule.icons) continue;
      const layer = layers.get(`streets-${rule.id}`)!;
      expect(layer.type).toBe('symbol');
      const value = (layer as unknown as { layout: Record<string, unknown> }).layout['icon-image'];
      const expression = createExpression(value, 'icon-image', (latest as unknown as Record<string, Record<string, object>>).layout_symbol!['icon-image'] as never);
      if (expression.result !== 'success') throw new Error(JSON.stringify(expression.value));
      const colour = STREET_PALETTES.classic[rule.colour].slice(1).toLowerCase();
      for (const value of rule.match!.values) {
        const icon = rule.icons[String(value)]!;
        expect([value, makiName(icon)]).toEqual([value, icon]);
        const theirs = expression.value.evaluate({ zoom: 17 }, { type: 1, properties: { class: value }, geometry: [] } as never);
        expect(String(theirs)).toBe(`maki-${icon}-${colour}`);
      }
    }
  });

  it('names a feature by its Latin-script name, else its name, and a house by its number', () => {
    expect(labelText({ text: 'name' }, { name: 'Хельсинки', 'name:latin': 'Helsinki' })).toBe('Helsinki');
    expect(labelText({ text: 'name' }, { name: 'Helsinki' })).toBe('Helsinki');
    expect(labelText({ text: 'housenumber' }, { housenumber: 12, name: 'x' })).toBe('12');
    expect(labelText({ text: 'name' }, {})).toBe('');
  });
});

describe('the tiles a static image is drawn from', () => {
  const archive = { minZoom: 0, maxZoom: 14 };
  const around = (lon: number, lat: number, d: number) => [worldX(lon - d), worldY(lat + d), worldX(lon + d), worldY(lat - d)] as [number, number, number, number];

  it("are the archive's deepest, over-zoomed, for a street-level view, and cover it", () => {
    const view = viewOf(around(24.945, 60.17, 0.002), STATIC_IMAGE);
    expect(view.zoom).toBe(15); // the framing's closest: MapLibre's zoom 14
    const tiles = streetTilesOf(view, archive);
    expect(new Set(tiles.map((tile) => tile.z))).toEqual(new Set([14]));
    const n = 2 ** 14;
    const xs = tiles.map((tile) => tile.x);
    const ys = tiles.map((tile) => tile.y);
    expect(Math.min(...xs) / n).toBeLessThanOrEqual(view.left);
    expect((Math.max(...xs) + 1) / n).toBeGreaterThanOrEqual(view.left + view.width / view.worldSize);
    expect(Math.min(...ys) / n).toBeLessThanOrEqual(view.top);
    expect((Math.max(...ys) + 1) / n).toBeGreaterThanOrEqual(view.top + view.height / view.worldSize);
    expect(tiles.length).toBeLessThanOrEqual(12);
  });

  it("are at the view's whole MapLibre zoom, none below the archive's lowest, and wrap across the antimeridian", () => {
    const city = viewOf(around(24.9, 60.2, 0.1), STATIC_IMAGE);
    expect(new Set(streetTilesOf(city, archive).map((tile) => tile.z))).toEqual(new Set([Math.floor(city.zoom - 1)]));
    expect(streetTilesOf(city, { minZoom: 13, maxZoom: 14 })).toEqual([]);
    const fiji = viewOf([worldX(179.9), worldY(-17), worldX(180.1), worldY(-17.2)], STATIC_IMAGE);
    const tiles = streetTilesOf(fiji, archive);
    const n = 2 ** tiles[0]!.z;
    expect(tiles.some((tile) => tile.column >= n && tile.x === tile.column - n)).toBe(true);
    expect(tiles.every((tile) => tile.x >= 0 && tile.x < n)).toBe(true);
  });
});
