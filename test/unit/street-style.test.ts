// The built-in styles over a street map archive (issue 25, item 3): one style description
// (lib/streetStyle/description.ts) made into MapLibre layers in each palette, valid against the
// style spec's validator, drawing every OpenMapTiles layer the archive is checked for, credited to
// OpenStreetMap, with Natural Earth kept under it and its labels giving way to the street map's.
import { validateStyleMin } from '@maplibre/maplibre-gl-style-spec';
import { describe, expect, it } from 'vitest';
import { basemapStyle, OSM_ATTRIBUTION } from '../../lib/basemapStyles.js';
import { OPENMAPTILES_LAYERS } from '../../lib/streetArchive/schema.js';
import { STREET_RULES } from '../../lib/streetStyle/description.js';
import { STREET_PALETTES } from '../../lib/streetStyle/palettes.js';

const STREETS = { tiles: 'https://maps.example.org/basemaps/osm/0a424852660925ea/{z}/{x}/{y}.mvt', maxZoom: 14, bounds: [24.917, 60.1634, 24.9609, 60.1852] } as const;
type AnyLayer = { id: string; type: string; source?: string; 'source-layer'?: string; minzoom?: number; maxzoom?: number; paint?: Record<string, unknown>; layout?: Record<string, unknown> };

describe.each(['classic', 'light', 'dark'] as const)('the %s style over a street map archive', (id) => {
  const style = basemapStyle(id, 'https://maps.example.org', STREETS)!;
  const layers = style.layers as AnyLayer[];
  const streets = layers.filter((layer) => layer.source === 'openstreetmap');

  it('is a valid MapLibre style with the archive as a source named by its identity, credited to OpenStreetMap', () => {
    expect(validateStyleMin(style)).toEqual([]);
    expect(style.sources.openstreetmap).toEqual({ type: 'vector', tiles: [STREETS.tiles], minzoom: 0, maxzoom: 14, bounds: [...STREETS.bounds], attribution: OSM_ATTRIBUTION });
    expect(OSM_ATTRIBUTION).toContain('href="https://www.openstreetmap.org/copyright"');
    expect(OSM_ATTRIBUTION).toContain('© OpenStreetMap contributors');
    expect((style.sources['natural-earth'] as { attribution: string }).attribution).toBe('Made with Natural Earth');
  });

  it('draws every layer of the schema, one layer per rule of the description, in its palette and the service font', () => {
    expect(new Set(streets.map((layer) => layer['source-layer']))).toEqual(new Set(OPENMAPTILES_LAYERS));
    expect(streets.map((layer) => layer.id)).toEqual(expect.arrayContaining(STREET_RULES.map((rule) => `streets-${rule.id}`)));
    expect(streets).toHaveLength(STREET_RULES.length);
    const byId = Object.fromEntries(streets.map((layer) => [layer.id, layer]));
    expect(byId['streets-building']!.paint!['fill-color']).toBe(STREET_PALETTES[id].building);
    expect(byId['streets-building']!.minzoom).toBe(13);
    expect(byId['streets-housenumber']!.minzoom).toBe(17);
    expect(byId['streets-road-name']!.layout!['symbol-placement']).toBe('line');
    expect(byId['streets-road-primary-bridge']!.paint!['line-color']).toBe(STREET_PALETTES[id].primary);
    // Text in the service font; points of interest as Maki icons (no text of their own: their names are label layers).
    for (const layer of streets.filter((layer) => layer.type === 'symbol')) {
      if ('text-field' in layer.layout!) expect(layer.layout!['text-font']).toEqual(['Noto Sans', 'sans-serif']);
      else expect(layer.layout!['icon-image']).toEqual(expect.arrayContaining(['match']));
    }
  });

  it('keeps Natural Earth under the streets and its labels only where the street map has none of its own', () => {
    const ids = layers.map((layer) => layer.id);
    expect(ids.indexOf('land')).toBeLessThan(ids.indexOf('streets-water'));
    expect(ids.indexOf('streets-road-motorway')).toBeLessThan(ids.indexOf('streets-place-city'));
    for (const label of ['capital-labels', 'country-labels']) expect(layers.find((layer) => layer.id === label)!.maxzoom).toBe(6);
    // Without an archive, the style is Natural Earth's alone.
    const plain = basemapStyle(id, 'https://maps.example.org')!;
    expect(Object.keys(plain.sources)).toEqual(['natural-earth']);
    expect(plain.layers.some((layer) => layer.id.startsWith('streets-'))).toBe(false);
  });
});
