// How a feature's properties style it, for every renderer (the static image now, the browser map
// later): its colour (`color`, #RRGGBB), the width of its line or outline (`stroke-width`, as
// KML imports write it), its built-in icon (`marker-symbol`, a Maki icon name), its custom icon
// (`marker_id`) and whether it shows at all (`visible`: false or 0 hides it).
export const DEFAULT_FEATURE_COLOR = '#2f6fd6';
export const DEFAULT_LINE_WIDTH = 3;
export const DEFAULT_OUTLINE_WIDTH = 2;
const MAX_WIDTH = 20;

type Properties = Record<string, unknown> | null | undefined;

const HEX_COLOR = /^#[0-9a-fA-F]{6}$/;
const SHORT_HEX_COLOR = /^#([0-9a-fA-F])([0-9a-fA-F])([0-9a-fA-F])$/;

/** The feature's colour as #rrggbb: its `color` when that is one (#rgb too), else the default. */
export function featureColor(properties: Properties): string {
  const value = properties?.color;
  if (typeof value !== 'string') return DEFAULT_FEATURE_COLOR;
  if (HEX_COLOR.test(value)) return value.toLowerCase();
  const short = SHORT_HEX_COLOR.exec(value);
  return short ? `#${short[1]}${short[1]}${short[2]}${short[2]}${short[3]}${short[3]}`.toLowerCase() : DEFAULT_FEATURE_COLOR;
}

/** The width in pixels of a line (or a polygon's outline), between 0.5 and 20. */
export function strokeWidth(properties: Properties, outline: boolean): number {
  const raw = properties?.['stroke-width'];
  const value = typeof raw === 'number' ? raw : typeof raw === 'string' ? Number(raw) : NaN;
  if (!Number.isFinite(value) || value <= 0) return outline ? DEFAULT_OUTLINE_WIDTH : DEFAULT_LINE_WIDTH;
  return Math.max(0.5, Math.min(MAX_WIDTH, value));
}

/** False when the item is hidden (`visible` false, 0, "false" or "0"). */
export function isVisible(properties: Properties): boolean {
  const value = properties?.visible;
  return !(value === false || value === 0 || value === 'false' || value === '0');
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);

/** The item's title, if it has one. */
export const featureTitle = (properties: Properties): string | undefined => text(properties?.title);
/** The Maki icon name of `marker-symbol`, if any. */
export const markerSymbol = (properties: Properties): string | undefined => text(properties?.['marker-symbol']);
/** The id of an uploaded marker, if any. */
export const markerId = (properties: Properties): string | undefined => text(properties?.marker_id);
