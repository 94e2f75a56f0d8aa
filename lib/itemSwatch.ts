// What an item of the side list shows beside its title so that list and map can be matched (issue
// 26, defect 3): its kind's shape in its own colour, and its icon — a built-in Maki icon on the
// colour, as the map's pin draws it, or its custom marker. Browser-safe (the page's list is drawn
// on the server, the editor's in the browser): the icon's name is only checked for its form here;
// an unknown one is a 404 that leaves the plain shape.
import { featureColor } from './featureStyle.js';
import { MEDIA_ID } from './mediaId.js';
import { isOverlay } from './geojson/overlay.js';

export type SwatchKind = 'point' | 'line' | 'area' | 'text' | 'item';

export interface ItemSwatch {
  kind: SwatchKind;
  /** #rrggbb. */
  color: string;
  /** Where the icon's picture is (/assets/maki/<name>.svg, /markers/<id>/s64.png; an image overlay's /images/<id>/s256). */
  icon?: string;
}

const MAKI_FORM = /^[a-z0-9-]{1,64}$/;

export function swatchOf(kind: SwatchKind, properties: Record<string, unknown> | null | undefined): ItemSwatch {
  const color = featureColor(properties);
  if (kind === 'area' && isOverlay(properties)) {
    // An image overlay shows its image.
    const image = (properties?.image as { id?: unknown } | undefined)?.id;
    if (typeof image === 'string' && MEDIA_ID.test(image)) return { kind, color, icon: `/images/${image}/s256` };
  }
  if (kind !== 'point') return { kind, color };
  const marker = properties?.marker_id;
  if (typeof marker === 'string' && MEDIA_ID.test(marker)) return { kind, color, icon: `/markers/${marker}/s64.png` };
  const symbol = properties?.['marker-symbol'];
  const name = typeof symbol === 'string' ? symbol.toLowerCase().replace(/-(11|15)$/, '') : '';
  return MAKI_FORM.test(name) ? { kind, color, icon: `/assets/maki/${name}.svg` } : { kind, color };
}

/**
 * The swatch as the parts of a 14×14 SVG (attributes, not CSS: the pages' CSP allows no inline
 * style): one shape, and an image over it for an icon.
 */
export function swatchShapes(swatch: ItemSwatch): { shape: { tag: 'circle' | 'rect' | 'text'; attributes: Record<string, string> }; image?: Record<string, string> } {
  const { kind, color } = swatch;
  if (kind === 'text') return { shape: { tag: 'text', attributes: { x: '7', y: '12', 'text-anchor': 'middle', 'font-weight': '700', 'font-size': '13', fill: color } } };
  if (kind === 'line') return { shape: { tag: 'rect', attributes: { x: '0', y: '5', width: '14', height: '4', rx: '2', fill: color } } };
  if (kind === 'area' && swatch.icon) {
    return { shape: { tag: 'rect', attributes: { x: '0', y: '0', width: '14', height: '14', fill: 'none', stroke: color, 'stroke-width': '1' } }, image: { href: swatch.icon, x: '0', y: '0', width: '14', height: '14', preserveAspectRatio: 'xMidYMid slice' } };
  }
  if (kind === 'area') return { shape: { tag: 'rect', attributes: { x: '1', y: '1', width: '12', height: '12', rx: '2', fill: color, 'fill-opacity': '0.45', stroke: color, 'stroke-width': '2' } } };
  const shape = { tag: 'circle' as const, attributes: { cx: '7', cy: '7', r: '7', fill: color } };
  if (!swatch.icon) return { shape };
  // A Maki icon sits on the colour (white, 10 px); a custom marker is the picture itself.
  const custom = swatch.icon.startsWith('/markers/');
  return { shape: custom ? { tag: 'circle', attributes: { cx: '7', cy: '7', r: '7', fill: 'none' } } : shape, image: { href: swatch.icon, x: custom ? '0' : '2', y: custom ? '0' : '2', width: custom ? '14' : '10', height: custom ? '14' : '10' } };
}
