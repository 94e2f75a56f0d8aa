// Text labels: words placed on the map, with no pin. A text label is a Point feature with
// `properties.text_label: true`; its text is its `title`, `color` colours the text (default dark)
// and `text_size` (pixels, 10–48, default 16) sizes it. Every renderer reads them through these
// functions: the browser map (web/app), the static image (lib/render), the item list
// (lib/mapItems.ts) and the KML export and import. A table download carries `text_label` and
// `text_size` as extra columns, which come back as text ("true", "24"): read as well.
// No Node built-ins here: the browser bundle imports this module too.

export const TEXT_LABEL_COLOR = '#1d232a';
export const TEXT_SIZE = 16;
export const MIN_TEXT_SIZE = 10;
export const MAX_TEXT_SIZE = 48;

type Properties = Record<string, unknown> | null | undefined;
type Geometry = { type?: string } | null | undefined;

/** Whether the properties mark a text label (`true`, or "true" as a table import gives it back). */
export function hasTextLabel(properties: Properties): boolean {
  const value = properties?.text_label;
  return value === true || (typeof value === 'string' && value.trim().toLowerCase() === 'true');
}

/** Whether the feature is a text label: a Point marked `text_label`. */
export const isTextLabel = (feature: { geometry?: Geometry; properties?: Properties }): boolean =>
  feature.geometry?.type === 'Point' && hasTextLabel(feature.properties);

/** The label's text size in pixels: `text_size` (a number, or its text) within 10–48, else 16. */
export function textSize(properties: Properties): number {
  const raw = properties?.text_size;
  const value = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
  if (!Number.isFinite(value)) return TEXT_SIZE;
  return Math.round(Math.max(MIN_TEXT_SIZE, Math.min(MAX_TEXT_SIZE, value)));
}

/** The label's text colour as #rrggbb: its `color` when that is one, else dark. */
export function textLabelColor(properties: Properties): string {
  const value = properties?.color;
  return typeof value === 'string' && /^#[0-9a-f]{6}$/i.test(value) ? value.toLowerCase() : TEXT_LABEL_COLOR;
}

/** The halo that keeps a colour legible on any basemap: white around dark text, dark around light text. */
export function textHaloColor(color: string): string {
  const channel = (i: number) => parseInt(color.slice(i, i + 2), 16) / 255;
  const luminance = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
  return luminance > 0.6 ? '#1d232a' : '#ffffff';
}

/** The label's text: its title, trimmed ('' when it has none). */
export const textOfLabel = (properties: Properties): string => (typeof properties?.title === 'string' ? properties.title.trim() : '');
