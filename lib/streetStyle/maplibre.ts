// The street map's style description (./description.ts) as MapLibre GL JS style layers over one
// vector source, in a palette. Labels name the service's own web font (no glyph server: see
// lib/basemapStyles.ts).
import type { ExpressionSpecification, FilterSpecification, LayerSpecification } from '@maplibre/maplibre-gl-style-spec';
import { BESIDE_ICON_EMS, STREET_RULES, type Level, type Match, type StreetRule, type Stops } from './description.js';
import type { StreetPalette } from './palettes.js';

/** Widths and sizes: exponential between the stops, held beyond them. */
const byZoom = (stops: Stops): ExpressionSpecification | number =>
  stops.length === 1 ? stops[0]![1] : (['interpolate', ['exponential', 1.4], ['zoom'], ...stops.flat()] as ExpressionSpecification);

function levelFilter(level: Level): ExpressionSpecification {
  // OpenMapTiles: `brunnel` is bridge, tunnel or ford, absent on the ground.
  return level === 'ground' ? ['!', ['in', ['coalesce', ['get', 'brunnel'], ''], ['literal', ['bridge', 'tunnel']]]] : ['==', ['get', 'brunnel'], level];
}

function matchFilter(match: Match): ExpressionSpecification {
  return ['in', ['get', match.field ?? 'class'], ['literal', [...match.values]]];
}

function filterOf(rule: StreetRule): FilterSpecification | undefined {
  const parts: ExpressionSpecification[] = [];
  if (rule.match) parts.push(matchFilter(rule.match));
  if (rule.level) parts.push(levelFilter(rule.level));
  if (parts.length === 0) return undefined;
  return parts.length === 1 ? parts[0]! : ['all', ...parts];
}

/** The name in Latin script where the archive has one (tilemaker's profile writes `name:latin`), else the name. */
const NAME: ExpressionSpecification = ['coalesce', ['get', 'name:latin'], ['get', 'name'], ''];

function layerOf(rule: StreetRule, source: string, palette: StreetPalette, font: string[]): LayerSpecification {
  const common = {
    id: `streets-${rule.id}`,
    source,
    'source-layer': rule.layer,
    ...(rule.minzoom !== undefined ? { minzoom: rule.minzoom } : {}),
    ...(rule.maxzoom !== undefined ? { maxzoom: rule.maxzoom } : {}),
    ...(filterOf(rule) ? { filter: filterOf(rule)! } : {}),
  };
  switch (rule.kind) {
    case 'fill':
      return {
        ...common,
        type: 'fill',
        paint: { 'fill-color': palette[rule.colour], ...(rule.outline ? { 'fill-outline-color': palette[rule.outline] } : {}), ...(rule.opacity !== undefined ? { 'fill-opacity': rule.opacity } : {}) },
      };
    case 'line':
      return {
        ...common,
        type: 'line',
        layout: { 'line-join': 'round', 'line-cap': rule.dash ? 'butt' : 'round' },
        paint: {
          'line-color': palette[rule.colour],
          'line-width': byZoom(rule.width),
          ...(rule.dash ? { 'line-dasharray': [...rule.dash] } : {}),
          ...(rule.opacity !== undefined ? { 'line-opacity': rule.opacity } : {}),
        },
      };
    case 'dot':
      if (rule.icons) {
        // Each class's Maki icon in the palette's colour: the front end loads `maki-<name>-<rrggbb>`
        // from /assets/maki/<name>-<rrggbb>.svg when the map first asks for it (web/app/mapAdapter.ts).
        const colour = palette[rule.colour].slice(1).toLowerCase();
        const byClass = Object.entries(rule.icons).flatMap(([value, icon]) => [value, `maki-${icon}-${colour}`]);
        return { ...common, type: 'symbol', layout: { 'icon-image': ['match', ['get', 'class'], ...byClass, ''] as unknown as ExpressionSpecification, 'icon-allow-overlap': false } };
      }
      return { ...common, type: 'circle', paint: { 'circle-color': palette[rule.colour], 'circle-radius': rule.radius, 'circle-stroke-color': palette.labelHalo, 'circle-stroke-width': 1 } };
    case 'label':
      return {
        ...common,
        type: 'symbol',
        layout: {
          'text-field': rule.text === 'housenumber' ? ['to-string', ['get', 'housenumber']] : NAME,
          'text-font': font,
          'text-size': byZoom(rule.size),
          'text-max-width': 8,
          ...(rule.placement === 'line' ? { 'symbol-placement': 'line', 'text-rotation-alignment': 'map', 'symbol-spacing': 300 } : {}),
          ...(rule.offset ? { 'text-anchor': 'left', 'text-offset': [BESIDE_ICON_EMS, 0] } : {}),
          ...(rule.byRank ? { 'symbol-sort-key': ['coalesce', ['get', 'rank'], 99] } : {}),
        },
        paint: { 'text-color': palette[rule.colour], 'text-halo-color': palette.labelHalo, 'text-halo-width': 1.5, 'text-halo-blur': 0.5 },
      };
  }
}

/** The street map's layers in drawing order, and separately its labels (drawn above everything else). */
export function streetLayers(source: string, palette: StreetPalette, font: string[]): { shapes: LayerSpecification[]; labels: LayerSpecification[] } {
  const shapes: LayerSpecification[] = [];
  const labels: LayerSpecification[] = [];
  for (const rule of STREET_RULES) (rule.kind === 'label' || rule.kind === 'dot' ? labels : shapes).push(layerOf(rule, source, palette, font));
  return { shapes, labels };
}
