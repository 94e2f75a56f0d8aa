// Text labels (lib/textLabels.ts) on the browser map: what the map adapter draws a label with (its
// text, size, colour and halo as drawing properties) and the MapLibre symbol layer that draws them
// in the map's web font (Noto Sans, served by the service: the basemap styles have no glyphs, so
// MapLibre draws text with the CSS font), centred on the point, wrapped at 12 ems as the static
// image does (lib/render/textLabels.ts), never hidden by collisions. Labels are not points on the
// map: a source of their own, no circle, no icon, never a dot where points crowd. No map library
// is imported here: the adapter adds the source and the layer.
import { isTextLabel, textHaloColor, textLabelColor, textOfLabel, textSize } from '../../lib/textLabels.js';

/** What a label with no text yet shows, faintly, so it can still be found and clicked. */
export const EMPTY_LABEL_TEXT = 'Untitled text';

/** The drawing properties of a text label (undefined for any other feature); `_color` replaces the point colour. */
export function labelDrawing(feature: { geometry: { type: string } | null; properties: Record<string, unknown> | null }): Record<string, string | number | boolean> | undefined {
  if (!isTextLabel(feature)) return undefined;
  const color = textLabelColor(feature.properties);
  const text = textOfLabel(feature.properties);
  return { _label: true, _text: text || EMPTY_LABEL_TEXT, _empty: text === '', _size: textSize(feature.properties), _color: color, _halo: textHaloColor(color) };
}

/** The label layout, shared by the labels and their selection outline. */
export const LABEL_LAYOUT = {
  'text-field': ['get', '_text'],
  // lib/basemapFonts.ts's FONT_FAMILY (that module reads files: not for the browser bundle).
  'text-font': ['Noto Sans', 'sans-serif'],
  'text-size': ['get', '_size'],
  'text-max-width': 12,
  'text-line-height': 1.2,
  'text-anchor': 'center',
  'text-allow-overlap': true,
  'text-ignore-placement': true,
};

/** The symbol layer of the text labels, over the adapter's `labels` source. */
export const TEXT_LABEL_LAYER = {
  id: 'labels',
  type: 'symbol',
  source: 'labels',
  layout: LABEL_LAYOUT,
  paint: {
    'text-color': ['get', '_color'],
    'text-halo-color': ['get', '_halo'],
    'text-halo-width': 2,
    'text-halo-blur': 0.5,
    'text-opacity': ['case', ['get', '_empty'], 0.5, 1],
  },
};
