// Items' titles on the browser map, where they fit (issue 26): beside a point's circle, along a
// line, inside an area — as the static image places them (lib/render/drawFeatures.ts) — in the
// map's web font with a white halo. MapLibre's collision test leaves out the titles that would
// overlap other titles or icons, and points crowded into dots have none (neither does the static
// image). Text labels are their own text, in a source of their own: no title. No map library is imported here: the
// adapter adds the layers over its sources.
import { featureTitle } from '../../lib/featureStyle.js';

/** Longer titles are cut here on the map (the popup and the list show them whole). */
const MAX_TITLE = 60;

/** The title a feature is drawn with ('' for none). */
export function titleDrawing(properties: Record<string, unknown> | null): string {
  const title = featureTitle(properties)?.trim() ?? '';
  return title.length > MAX_TITLE ? `${title.slice(0, MAX_TITLE - 1)}…` : title;
}

const TEXT = {
  'text-field': ['get', '_title'],
  // lib/basemapFonts.ts's FONT_FAMILY (that module reads files: not for the browser bundle).
  'text-font': ['Noto Sans', 'sans-serif'],
  'text-size': 12,
  'text-max-width': 10,
};
const PAINT = { 'text-color': '#1f2328', 'text-halo-color': '#ffffff', 'text-halo-width': 1.5 };
const HAS_TITLE = ['!=', ['get', '_title'], ''];

/** The title layers: points' over the `points` source (from `dotZoom`, where points are circles), lines' and areas' over `items`. */
export function titleLayers(dotZoom: number): object[] {
  return [
    {
      id: 'point-titles',
      type: 'symbol',
      source: 'points',
      minzoom: dotZoom,
      filter: ['all', ['==', ['geometry-type'], 'Point'], HAS_TITLE],
      // Right of the 11-px circle, vertically centred on it.
      layout: { ...TEXT, 'text-anchor': 'left', 'text-offset': [1.25, 0], 'text-justify': 'left' },
      paint: PAINT,
    },
    {
      id: 'line-titles',
      type: 'symbol',
      source: 'items',
      filter: ['all', ['==', ['geometry-type'], 'LineString'], HAS_TITLE],
      layout: { ...TEXT, 'symbol-placement': 'line', 'text-offset': [0, -0.9], 'symbol-spacing': 400 },
      paint: PAINT,
    },
    {
      id: 'area-titles',
      type: 'symbol',
      source: 'items',
      filter: ['all', ['==', ['geometry-type'], 'Polygon'], HAS_TITLE],
      layout: TEXT,
      paint: PAINT,
    },
  ];
}
