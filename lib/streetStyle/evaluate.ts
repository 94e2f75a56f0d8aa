// The style description's rules (./description.ts) evaluated in JavaScript, for drawings that are
// not MapLibre (the static renderer): the same meaning as ./maplibre.ts gives them as MapLibre
// expressions — which features a rule takes, at which zooms, how wide, with which text.
import type { StreetRule, Stops } from './description.js';

/** MapLibre's `exponential` interpolation base of every width and size. */
const BASE = 1.4;

/** A width or size at a (MapLibre) zoom: exponential between the stops, held beyond them. */
export function valueAt(stops: Stops, zoom: number): number {
  const first = stops[0]!;
  if (zoom <= first[0]) return first[1];
  for (let i = 1; i < stops.length; i++) {
    const [z1, v1] = stops[i]!;
    if (zoom > z1) continue;
    const [z0, v0] = stops[i - 1]!;
    const t = (BASE ** (zoom - z0) - 1) / (BASE ** (z1 - z0) - 1);
    return v0 + (v1 - v0) * t;
  }
  return stops[stops.length - 1]![1];
}

/** Whether the rule is drawn at the zoom (MapLibre: minzoom inclusive, maxzoom exclusive). */
export const shownAt = (rule: StreetRule, zoom: number): boolean => (rule.minzoom === undefined || zoom >= rule.minzoom) && (rule.maxzoom === undefined || zoom < rule.maxzoom);

type Properties = Readonly<Record<string, string | number | boolean>>;

/** Whether the rule takes a feature of its layer with these properties (its class, and its level for roads). */
export function takes(rule: StreetRule, properties: Properties): boolean {
  if (rule.match) {
    const value = properties[rule.match.field ?? 'class'];
    if (value === undefined || !rule.match.values.includes(value as string | number)) return false;
  }
  if (rule.level) {
    // OpenMapTiles: `brunnel` is bridge, tunnel or ford, absent on the ground.
    const brunnel = properties.brunnel;
    if (rule.level === 'ground' ? brunnel === 'bridge' || brunnel === 'tunnel' : brunnel !== rule.level) return false;
  }
  return true;
}

/** A label's text: the name in Latin script where the archive has one, else the name; or the house number. */
export function labelText(rule: { text: 'name' | 'housenumber' }, properties: Properties): string {
  const value = rule.text === 'housenumber' ? properties.housenumber : (properties['name:latin'] ?? properties.name);
  return value === undefined ? '' : String(value).trim();
}
