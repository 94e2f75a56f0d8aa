// Cutting the built-in basemaps' vector tiles: the Natural Earth layers the static renderer draws
// (lib/naturalEarth.ts) cut with geojson-vt and encoded as Mapbox Vector Tiles (version 2) with
// vt-pbf. One set of tiles serves `classic`, `light` and `dark`; only their styles differ.
//
// Layers: `land` (polygons; water is the style's background), `borders` (lines between
// countries), `country_labels` (points with `name`, `rank` and `min_zoom`: a tile holds only the
// names shown from its zoom on, so low zooms carry the large countries alone), `capitals`
// (points with `name`, in tiles from zoom 3).
//
// Resolution: 1:50m for tiles z0–2, 1:10m for z3–6: the tile zoom nearest the static renderer's
// switch (its zoom 3.5 counts 256-pixel tiles; in MapLibre's 512-pixel zooms that is 2.5), so a
// map's page and its image show much the same coasts. At z3 a pixel is about 10 km, where the 50m coasts show their
// corners, and the 10m tiles stay small there (all 64 of z3: 237 kB, the largest 19 kB).
import { GeoJSONVT, type GeoJSONVTFeature, type GeoJSONVTOptions, type GeoJSONVTTile } from '@maplibre/geojson-vt';
import { fromGeojsonVt } from '@maplibre/vt-pbf';
import { naturalEarth, type LonLatLine, type NaturalEarthLayers, type PlaceLabel, type Resolution } from '../naturalEarth.js';

export const BASEMAP_MAX_ZOOM = 6;
/** The first zoom cut from the 1:10m data. */
export const FINE_FROM_ZOOM = 3;
/** The first zoom whose tiles hold capitals (the static renderer's 3.5 in 256-pixel zooms). */
export const CAPITALS_MIN_ZOOM = 3;

export const BASEMAP_LAYERS = { land: 'land', borders: 'borders', countryLabels: 'country_labels', capitals: 'capitals' } as const;
type LayerName = (typeof BASEMAP_LAYERS)[keyof typeof BASEMAP_LAYERS];
type Indexes = Record<LayerName, GeoJSONVT>;

export const TILE_EXTENT = 4096;

/** The zooms cut from each resolution. */
export const ZOOMS_OF: Record<Resolution, { first: number; last: number }> = {
  '50m': { first: 0, last: FINE_FROM_ZOOM - 1 },
  '10m': { first: FINE_FROM_ZOOM, last: BASEMAP_MAX_ZOOM },
};

export const resolutionOfZoom = (z: number): Resolution => (z < FINE_FROM_ZOOM ? '50m' : '10m');

/**
 * The first zoom a country's name shows at, from its rank (the area of its largest part in
 * square degrees): the static renderer's thresholds (40, 6, 1) moved to MapLibre's zooms.
 */
export function countryMinZoom(rank: number): number {
  if (rank >= 40) return 0;
  if (rank >= 6) return 2;
  if (rank >= 1) return 3;
  return 4;
}

/** A tile address the basemaps have: zoom 0–6, x and y within the zoom's grid. */
export function isBasemapTile(z: number, x: number, y: number): boolean {
  if (![z, x, y].every(Number.isInteger) || z < 0 || z > BASEMAP_MAX_ZOOM) return false;
  const size = 2 ** z;
  return x >= 0 && x < size && y >= 0 && y < size;
}

/** The place of a tile in the whole pyramid, zoom by zoom, row by row: 0/0/0 is 0, 6/63/63 is 5,460. */
export const tileNumber = (z: number, x: number, y: number): number => (4 ** z - 1) / 3 + y * 2 ** z + x;

const pointsOf = (places: PlaceLabel[], properties: (place: PlaceLabel) => GeoJSON.GeoJsonProperties): GeoJSON.FeatureCollection => ({
  type: 'FeatureCollection',
  features: places.map((place) => ({ type: 'Feature', geometry: { type: 'Point', coordinates: [place.lon, place.lat] }, properties: properties(place) })),
});

/** geojson-vt only reads the positions: Natural Earth's read-only lines are handed over as they are. */
const positions = (line: LonLatLine) => line as unknown as GeoJSON.Position[];

/** Land as one multipolygon and borders as one multiline: one feature a layer keeps tiles small. */
function layersOf(data: NaturalEarthLayers): Record<LayerName, GeoJSON.GeoJSON> {
  return {
    land: {
      type: 'Feature',
      geometry: { type: 'MultiPolygon', coordinates: data.land.map((polygon) => polygon.rings.map(positions)) },
      properties: {},
    },
    borders: {
      type: 'Feature',
      geometry: { type: 'MultiLineString', coordinates: data.borders.map((border) => positions(border.line)) },
      properties: {},
    },
    country_labels: pointsOf(data.countries, (place) => ({
      name: place.name,
      // Two decimals tell every two countries apart; more would only cost bytes.
      rank: Math.round(place.rank * 100) / 100,
      min_zoom: countryMinZoom(place.rank),
    })),
    capitals: pointsOf(data.capitals, (place) => ({ name: place.name })),
  };
}

/** The four geojson-vt indexes of a resolution (1:10m: about 0.4 s and 50 MB once its data is read). */
export function tileIndexes(resolution: Resolution): Indexes {
  const options: GeoJSONVTOptions = {
    extent: TILE_EXTENT,
    // 64 of 4096: labels and line joins near an edge are drawn whole by the tiles on both sides.
    buffer: 64,
    // geojson-vt's default, in tile units: under half a pixel of a 512-pixel tile.
    tolerance: 3,
    // One past the last zoom cut: geojson-vt keeps every point at its maxZoom (for overzooming),
    // which MapLibre needs from the z6 tiles but would only fatten the 50m set's z2.
    maxZoom: resolution === '50m' ? FINE_FROM_ZOOM : BASEMAP_MAX_ZOOM,
    // Tiles are cut on demand from their nearest ancestor; the pyramid is shallow.
    indexMaxZoom: 0,
  };
  const layers = layersOf(naturalEarth(resolution));
  return {
    land: new GeoJSONVT(layers.land, options),
    borders: new GeoJSONVT(layers.borders, options),
    country_labels: new GeoJSONVT(layers.country_labels, options),
    capitals: new GeoJSONVT(layers.capitals, options),
  };
}

/** What a layer shows in a tile of zoom z: country names from their min_zoom, capitals from zoom 3. */
function shownAt(layer: LayerName, tile: GeoJSONVTTile | null, z: number): GeoJSONVTTile | null {
  if (!tile || tile.features.length === 0) return null;
  if (layer === 'capitals' && z < CAPITALS_MIN_ZOOM) return null;
  if (layer !== 'country_labels') return tile;
  const features = tile.features.filter((feature: GeoJSONVTFeature) => Number(feature.tags?.min_zoom) <= z);
  return features.length > 0 ? ({ ...tile, features } as GeoJSONVTTile) : null;
}

/** One tile; no layer at all (open ocean) is a tile of no bytes, which MapLibre reads as empty. */
export function encodeTile(indexes: Indexes, z: number, x: number, y: number): Uint8Array {
  const layers: Record<string, GeoJSONVTTile> = {};
  for (const [layer, index] of Object.entries(indexes) as [LayerName, GeoJSONVT][]) {
    const shown = shownAt(layer, index.getTile(z, x, y), z);
    if (shown) layers[layer] = shown;
  }
  if (Object.keys(layers).length === 0) return new Uint8Array(0);
  return fromGeojsonVt(layers, { version: 2, extent: TILE_EXTENT });
}

/** Every tile of a resolution's zooms, end to end in tileNumber order; offsets[i]…offsets[i+1] is tile i. */
export interface EncodedPyramid {
  firstTile: number;
  bytes: Uint8Array;
  offsets: Uint32Array;
}

export function encodePyramid(resolution: Resolution): EncodedPyramid {
  const indexes = tileIndexes(resolution);
  const { first, last } = ZOOMS_OF[resolution];
  const tiles: Uint8Array[] = [];
  for (let z = first; z <= last; z++) {
    for (let y = 0; y < 2 ** z; y++) {
      for (let x = 0; x < 2 ** z; x++) tiles.push(encodeTile(indexes, z, x, y));
    }
  }
  const offsets = new Uint32Array(tiles.length + 1);
  tiles.forEach((tile, i) => (offsets[i + 1] = offsets[i]! + tile.byteLength));
  const bytes = new Uint8Array(offsets[tiles.length]!);
  tiles.forEach((tile, i) => bytes.set(tile, offsets[i]));
  return { firstTile: tileNumber(first, 0, 0), bytes, offsets };
}
