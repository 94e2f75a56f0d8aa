// The MapLibre GL JS styles (version 8) of the built-in basemaps, served at
// /basemaps/<id>/style.json: the palette of lib/basemapPalettes.ts over the service's own vector
// tiles (lib/basemapTiles/), so a map's page looks like its static image and needs no internet.
// There is no `glyphs`: MapLibre GL JS 5.11 and later then draws labels with the CSS font of
// `text-font` (a font-family fallback list), Noto Sans from /basemaps/fonts/noto-sans.css, which
// the page links and loads (document.fonts.load) before the map starts: MapLibre does not wait.
//
// Zooms follow the static renderer's (its zooms count 256-pixel tiles, one more than MapLibre's
// for the same view): borders dashed from 2, capitals from 3, labels a little larger closer in.
import type { StyleSpecification } from '@maplibre/maplibre-gl-style-spec';
import { basemapById, type Basemap } from './basemaps.js';
import { PALETTES, type Palette } from './basemapPalettes.js';
import { FONT_FAMILY } from './basemapFonts.js';
import { BASEMAP_LAYERS, BASEMAP_MAX_ZOOM, BASEMAP_TILES_VERSION, CAPITALS_MIN_ZOOM } from './basemapTiles/index.js';
import { NATURAL_EARTH_LABELS_UNTIL, OSM_CREDIT } from './streetStyle/description.js';
import { streetLayers } from './streetStyle/maplibre.js';
import { STREET_PALETTES } from './streetStyle/palettes.js';

const SOURCE = 'natural-earth';
const TEXT_FONT = [FONT_FAMILY, 'sans-serif'];

type Layer = StyleSpecification['layers'][number];

/** Land, its coast line and the borders between countries. */
function shapeLayers(palette: Palette): Layer[] {
  return [
    { id: 'water', type: 'background', paint: { 'background-color': palette.water } },
    { id: 'land', type: 'fill', source: SOURCE, 'source-layer': BASEMAP_LAYERS.land, paint: { 'fill-color': palette.land } },
    {
      // The outline of land polygons; MapLibre clips each tile to its own square, so the cuts
      // geojson-vt makes in the buffer around a tile never show as coast.
      id: 'coast',
      type: 'line',
      source: SOURCE,
      'source-layer': BASEMAP_LAYERS.land,
      paint: { 'line-color': palette.coast, 'line-width': ['interpolate', ['linear'], ['zoom'], 0, 0.5, 2, 0.6, 6, 1.2] },
    },
    {
      id: 'borders',
      type: 'line',
      source: SOURCE,
      'source-layer': BASEMAP_LAYERS.borders,
      layout: { 'line-join': 'round' },
      paint: {
        'line-color': palette.border,
        'line-width': ['interpolate', ['linear'], ['zoom'], 0, 0.6, 2, 0.8, 6, 1.3],
        // In line widths: about the renderer's 4 px on, 2 px off.
        'line-dasharray': ['step', ['zoom'], ['literal', [1, 0]], 2, ['literal', [3, 1.5]]],
      },
    },
  ];
}

/** Halo and colours every label shares. */
const textPaint = (color: string, palette: Palette) => ({ 'text-color': color, 'text-halo-color': palette.labelHalo, 'text-halo-width': 1.5, 'text-halo-blur': 0.5 });

/**
 * Capitals (dot and name), then country names: symbol layers later in the list are placed
 * first, so a country's name wins over a capital's where they collide, as in the static image.
 */
function labelLayers(palette: Palette): Layer[] {
  return [
    {
      id: 'capital-dots',
      type: 'circle',
      source: SOURCE,
      'source-layer': BASEMAP_LAYERS.capitals,
      minzoom: CAPITALS_MIN_ZOOM,
      paint: { 'circle-radius': 2.5, 'circle-color': palette.capitalDot, 'circle-stroke-color': palette.labelHalo, 'circle-stroke-width': 1 },
    },
    {
      id: 'capital-labels',
      type: 'symbol',
      source: SOURCE,
      'source-layer': BASEMAP_LAYERS.capitals,
      minzoom: CAPITALS_MIN_ZOOM,
      layout: {
        'text-field': ['get', 'name'],
        'text-font': TEXT_FONT,
        'text-size': 11,
        'text-anchor': 'left',
        'text-offset': [0.5, 0],
        'text-max-width': 8,
      },
      paint: textPaint(palette.capitalLabel, palette),
    },
    {
      id: 'country-labels',
      type: 'symbol',
      source: SOURCE,
      'source-layer': BASEMAP_LAYERS.countryLabels,
      // The tiles already leave out names below their min_zoom; this keeps an overzoomed or
      // cached tile honest too.
      filter: ['>=', ['zoom'], ['get', 'min_zoom']],
      layout: {
        'text-field': ['get', 'name'],
        'text-font': TEXT_FONT,
        'text-size': ['interpolate', ['linear'], ['zoom'], 1, 11, 3, 13, 6, 15],
        'text-max-width': 7,
        'text-padding': 4,
        // Larger countries first where names collide.
        'symbol-sort-key': ['-', 0, ['get', 'rank']],
      },
      paint: textPaint(palette.countryLabel, palette),
    },
  ];
}

/** The street map archive (BASEMAP_TILES) as a style's source: its tiles' URL template (named by its identity), zooms and bounds. */
export interface StreetSource {
  tiles: string;
  maxZoom: number;
  /** West, south, east, north. */
  bounds: readonly [number, number, number, number];
}

const STREETS = 'openstreetmap';
export const OSM_ATTRIBUTION = `<a href="https://www.openstreetmap.org/copyright" target="_blank" rel="noopener">${OSM_CREDIT}</a>`;

/**
 * The style of a built-in basemap with its tiles under `baseUrl` (the service's public URL), or
 * undefined for any other id. With `streets`, the street map archive's layers (lib/streetStyle/)
 * are drawn over Natural Earth's land and water, which stay wherever the archive has no tiles
 * (outside its bounds, below its zooms), and its place names take over from Natural Earth's.
 */
export function basemapStyle(id: string, baseUrl: string, streets?: StreetSource): StyleSpecification | undefined {
  const basemap = basemapById(id);
  if (basemap?.drawing.type !== 'builtin') return undefined;
  const palette = PALETTES[basemap.drawing.palette];
  const natural: StyleSpecification['sources'] = {
    [SOURCE]: {
      type: 'vector',
      // The version in the query moves browsers past day-old cached tiles after an upgrade.
      tiles: [`${baseUrl.replace(/\/+$/, '')}/basemaps/tiles/{z}/{x}/{y}.pbf?v=${BASEMAP_TILES_VERSION}`],
      minzoom: 0,
      // MapLibre overzooms the z6 tiles (they keep every point of the 1:10m data) beyond.
      maxzoom: BASEMAP_MAX_ZOOM,
      attribution: basemap.attribution,
    },
  };
  if (!streets) return { version: 8, name: basemap.name, sources: natural, layers: [...shapeLayers(palette), ...labelLayers(palette)] };
  const street = streetLayers(STREETS, STREET_PALETTES[basemap.drawing.palette], TEXT_FONT);
  return {
    version: 8,
    name: basemap.name,
    sources: {
      ...natural,
      // MapLibre over-zooms the archive's deepest tiles (zoom 14) to street level.
      [STREETS]: { type: 'vector', tiles: [streets.tiles], minzoom: 0, maxzoom: streets.maxZoom, bounds: [...streets.bounds], attribution: OSM_ATTRIBUTION },
    },
    layers: [...shapeLayers(palette), ...street.shapes, ...street.labels, ...labelLayers(palette).map((layer) => ({ ...layer, maxzoom: NATURAL_EARTH_LABELS_UNTIL }))],
  };
}

/**
 * The style of a commercial basemap for one map: its provider's raster tiles, fetched through
 * the service at `tilesUrl` (a template with {z}/{x}/{y}; the service adds the key, so no key
 * reaches the browser), on a neutral background while they load.
 */
export function rasterBasemapStyle(basemap: Basemap, tilesUrl: string): StyleSpecification {
  if (basemap.drawing.type !== 'xyz') throw new Error(`${basemap.id} is not drawn from XYZ tiles`);
  return {
    version: 8,
    name: basemap.name,
    sources: {
      provider: { type: 'raster', tiles: [tilesUrl], tileSize: basemap.drawing.tileSize, minzoom: 0, maxzoom: basemap.drawing.maxZoom, attribution: basemap.attribution },
    },
    layers: [
      { id: 'background', type: 'background', paint: { 'background-color': '#e8ecef' } },
      { id: 'provider', type: 'raster', source: 'provider' },
    ],
  };
}
