// The street map's one style description: what to draw from each layer of an OpenStreetMap vector
// tile archive in the OpenMapTiles schema (https://openmaptiles.org/schema/), in which colour, at
// which zooms and widths, bottom to top. Plain data in a few shapes (fill, line, dot, label) that
// every drawing of the street map is made from — the browser's MapLibre style (./maplibre.ts) and
// the static renderer — so the two never become hand-kept copies of each other.
//
// Zooms and widths are MapLibre's: zoom z shows the world 512·2^z pixels wide (the static
// renderer, counting 256-pixel tiles, adds one). A `Stops` list is [zoom, pixels] pairs,
// interpolated exponentially (base 1.4) between them and held beyond the ends.
import type { StreetPalette } from './palettes.js';

export type Colour = keyof StreetPalette;
export type Stops = readonly (readonly [number, number])[];
/** Which features of the layer: its `field` (class by default) is one of `values`. */
export interface Match {
  field?: 'class' | 'subclass' | 'admin_level';
  values: readonly (string | number)[];
}
/** Roads and railways: drawn in tunnels, on the ground or on bridges. */
export type Level = 'tunnel' | 'ground' | 'bridge';

interface RuleBase {
  id: string;
  /** The OpenMapTiles layer. */
  layer: string;
  match?: Match;
  level?: Level;
  minzoom?: number;
  maxzoom?: number;
}

export interface FillRule extends RuleBase {
  kind: 'fill';
  colour: Colour;
  outline?: Colour;
  opacity?: number;
}

export interface LineRule extends RuleBase {
  kind: 'line';
  colour: Colour;
  width: Stops;
  /** Dashes and gaps in line widths. */
  dash?: readonly number[];
  opacity?: number;
}

export interface DotRule extends RuleBase {
  kind: 'dot';
  colour: Colour;
  radius: number;
  /** The Maki icon (@mapbox/maki) of each class, drawn in the colour instead of the dot (15 px). */
  icons?: Readonly<Record<string, string>>;
}

export interface LabelRule extends RuleBase {
  kind: 'label';
  colour: Colour;
  size: Stops;
  /** Along the line (road and river names) or at the point. */
  placement: 'point' | 'line';
  /** The text: the feature's name (its Latin-script form when the archive has one) or house number. */
  text: 'name' | 'housenumber';
  /** Features with a lower `rank` are placed first where labels collide. */
  byRank?: boolean;
  /** Beside the icon or dot (POIs), BESIDE_ICON_EMS to its right, rather than centred. */
  offset?: boolean;
}

export type StreetRule = FillRule | LineRule | DotRule | LabelRule;

/** How far right of its point a POI's name starts, in ems: clear of its 15-px icon. */
export const BESIDE_ICON_EMS = 1;

const cls = (...values: string[]): Match => ({ values });

/** Road classes in drawing order (lowest first), with their fill colour and width. */
const ROADS: readonly { name: string; match: Match; colour: Colour; width: Stops; minzoom: number }[] = [
  { name: 'minor', match: cls('minor', 'service', 'track', 'raceway', 'busway'), colour: 'minor', width: [[12, 0.5], [14, 2.5], [16, 6], [18, 14]], minzoom: 12 },
  { name: 'secondary', match: cls('secondary', 'tertiary'), colour: 'secondary', width: [[8, 0.5], [11, 1.2], [14, 4], [16, 8], [18, 18]], minzoom: 8 },
  { name: 'primary', match: cls('primary', 'trunk'), colour: 'primary', width: [[6, 0.5], [9, 1.2], [12, 3], [14, 5], [16, 10], [18, 22]], minzoom: 6 },
  { name: 'motorway', match: cls('motorway'), colour: 'motorway', width: [[4, 0.5], [8, 1.5], [12, 3.5], [14, 6], [16, 11], [18, 24]], minzoom: 4 },
];

/** A road's casing: its width and a pixel or two on each side. */
const casingOf = (width: Stops): Stops => width.map(([zoom, pixels]) => [zoom, pixels + (zoom < 13 ? 1 : 2.5)] as const);

/** Casings, then fills, of every road class and railways on one level. */
function roadsOn(level: Level): StreetRule[] {
  const suffix = level === 'ground' ? '' : `-${level}`;
  const rules: StreetRule[] = [];
  for (const road of ROADS) {
    rules.push({ kind: 'line', id: `road-${road.name}-casing${suffix}`, layer: 'transportation', match: road.match, level, minzoom: Math.max(road.minzoom, 11), colour: 'casing', width: casingOf(road.width), ...(level === 'tunnel' ? { dash: [2, 1] } : {}) });
  }
  rules.push({ kind: 'line', id: `path${suffix}`, layer: 'transportation', match: cls('path'), level, minzoom: 14, colour: 'path', width: [[14, 1], [16, 1.5], [18, 2.5]], dash: [2, 1.5] });
  for (const road of ROADS) {
    rules.push({ kind: 'line', id: `road-${road.name}${suffix}`, layer: 'transportation', match: road.match, level, minzoom: road.minzoom, colour: road.colour, width: road.width, ...(level === 'tunnel' ? { opacity: 0.6 } : {}) });
  }
  rules.push({ kind: 'line', id: `rail${suffix}`, layer: 'transportation', match: cls('rail', 'transit'), level, minzoom: 10, colour: 'rail', width: [[10, 0.6], [14, 1.4], [18, 3]], ...(level === 'tunnel' ? { dash: [3, 2] } : {}) });
  return rules;
}

/** The points of interest named on the map, a restrained set, by their Maki icons: landmarks from zoom 15, everyday places from 17. */
const LANDMARK_ICONS: Readonly<Record<string, string>> = {
  attraction: 'attraction',
  museum: 'museum',
  theatre: 'theatre',
  cinema: 'cinema',
  library: 'library',
  hospital: 'hospital',
  college: 'college',
  town_hall: 'town-hall',
  railway: 'rail',
  ferry_terminal: 'ferry',
  place_of_worship: 'place-of-worship',
  castle: 'castle',
  monument: 'monument',
  zoo: 'zoo',
  stadium: 'stadium',
};
const EVERYDAY_ICONS: Readonly<Record<string, string>> = { cafe: 'cafe', restaurant: 'restaurant', bar: 'bar', lodging: 'lodging', grocery: 'grocery', shop: 'shop', pharmacy: 'pharmacy', post: 'post', bakery: 'bakery' };
const LANDMARKS = cls(...Object.keys(LANDMARK_ICONS));
const EVERYDAY = cls(...Object.keys(EVERYDAY_ICONS));

/** Natural Earth's capitals and country names give way to the street map's place names from this (MapLibre) zoom. */
export const NATURAL_EARTH_LABELS_UNTIL = 6;

/** What every drawing of the street map credits (the data's licence, ODbL, asks for it). */
export const OSM_CREDIT = '© OpenStreetMap contributors';

/** Bottom to top. */
export const STREET_RULES: readonly StreetRule[] = [
  { kind: 'fill', id: 'landuse-residential', layer: 'landuse', match: cls('residential', 'suburb', 'neighbourhood', 'quarter'), colour: 'residential', minzoom: 9 },
  { kind: 'fill', id: 'landuse-industrial', layer: 'landuse', match: cls('industrial', 'garages', 'railway', 'dam', 'quarry'), colour: 'industrial', minzoom: 11 },
  { kind: 'fill', id: 'landuse-commercial', layer: 'landuse', match: cls('commercial', 'retail'), colour: 'commercial', minzoom: 11 },
  { kind: 'fill', id: 'landuse-institution', layer: 'landuse', match: cls('school', 'university', 'college', 'kindergarten', 'hospital', 'library'), colour: 'institution', minzoom: 12 },
  { kind: 'fill', id: 'landuse-cemetery', layer: 'landuse', match: cls('cemetery'), colour: 'cemetery', minzoom: 12 },
  { kind: 'fill', id: 'landcover-wood', layer: 'landcover', match: cls('wood', 'forest'), colour: 'wood' },
  { kind: 'fill', id: 'landcover-grass', layer: 'landcover', match: cls('grass', 'farmland'), colour: 'grass' },
  { kind: 'fill', id: 'landcover-sand', layer: 'landcover', match: cls('sand', 'rock', 'ice'), colour: 'sand' },
  { kind: 'fill', id: 'landcover-wetland', layer: 'landcover', match: cls('wetland'), colour: 'wetland' },
  { kind: 'fill', id: 'park', layer: 'park', colour: 'grass', opacity: 0.8 },
  { kind: 'fill', id: 'landuse-pitch', layer: 'landuse', match: cls('pitch', 'stadium', 'playground', 'track'), colour: 'pitch', minzoom: 13 },
  { kind: 'line', id: 'waterway', layer: 'waterway', colour: 'waterway', width: [[8, 0.5], [12, 1], [14, 2], [18, 6]], minzoom: 8 },
  { kind: 'fill', id: 'water', layer: 'water', colour: 'water' },
  { kind: 'fill', id: 'building', layer: 'building', colour: 'building', outline: 'buildingOutline', minzoom: 13 },
  ...roadsOn('tunnel'),
  ...roadsOn('ground'),
  ...roadsOn('bridge'),
  { kind: 'line', id: 'boundary', layer: 'boundary', match: { field: 'admin_level', values: [2, 3, 4] }, colour: 'boundary', width: [[3, 0.8], [10, 1.5], [16, 2.5]], dash: [3, 1.5] },
  { kind: 'label', id: 'water-name-line', layer: 'waterway', placement: 'line', text: 'name', colour: 'waterLabel', size: [[12, 10], [16, 13]], minzoom: 12 },
  { kind: 'label', id: 'water-name', layer: 'water_name', placement: 'point', text: 'name', colour: 'waterLabel', size: [[8, 11], [14, 14]] },
  { kind: 'label', id: 'road-name', layer: 'transportation_name', placement: 'line', text: 'name', colour: 'roadLabel', size: [[13, 10], [16, 12], [18, 14]], minzoom: 13 },
  { kind: 'label', id: 'housenumber', layer: 'housenumber', placement: 'point', text: 'housenumber', colour: 'houseNumber', size: [[17, 10], [19, 12]], minzoom: 17 },
  { kind: 'dot', id: 'poi-everyday-dot', layer: 'poi', match: EVERYDAY, colour: 'poiDot', radius: 2.5, icons: EVERYDAY_ICONS, minzoom: 17 },
  { kind: 'label', id: 'poi-everyday', layer: 'poi', match: EVERYDAY, placement: 'point', text: 'name', colour: 'poiLabel', size: [[17, 10], [19, 12]], minzoom: 17, byRank: true, offset: true },
  { kind: 'dot', id: 'poi-landmark-dot', layer: 'poi', match: LANDMARKS, colour: 'poiDot', radius: 3, icons: LANDMARK_ICONS, minzoom: 15 },
  { kind: 'label', id: 'poi-landmark', layer: 'poi', match: LANDMARKS, placement: 'point', text: 'name', colour: 'poiLabel', size: [[15, 10], [18, 12]], minzoom: 15, byRank: true, offset: true },
  { kind: 'label', id: 'place-minor', layer: 'place', match: cls('suburb', 'quarter', 'neighbourhood', 'hamlet', 'isolated_dwelling'), placement: 'point', text: 'name', colour: 'placeLabel', size: [[11, 10], [14, 12], [17, 14]], minzoom: 11, byRank: true },
  { kind: 'label', id: 'place-village', layer: 'place', match: cls('village'), placement: 'point', text: 'name', colour: 'placeLabel', size: [[9, 10], [14, 14]], minzoom: 9, byRank: true },
  { kind: 'label', id: 'place-town', layer: 'place', match: cls('town'), placement: 'point', text: 'name', colour: 'placeLabel', size: [[7, 11], [12, 14], [15, 17]], minzoom: 7, byRank: true },
  { kind: 'label', id: 'place-city', layer: 'place', match: cls('city'), placement: 'point', text: 'name', colour: 'placeLabel', size: [[4, 11], [8, 14], [12, 18], [15, 21]], minzoom: 4, byRank: true },
];

