// Map content for the static-image benchmark (bench/render.ts): GeoJSON features over western
// Europe (about 4°W–14°E, 43–53°N, a country's extent) in the styles the renderer reads — points
// with a Maki icon (`marker-symbol`), a colour and a title; lines and polygons with a colour, a
// `stroke-width` and a title. Deterministic (bench/generate/pseudoRandom.ts): every run draws
// the same map.
import path from 'node:path';
import { pseudoRandom } from './pseudoRandom.js';

export const ICONS = ['cafe', 'restaurant', 'museum', 'park', 'rail', 'bus', 'lodging', 'hospital'] as const;
export const COLORS = ['#e6194b', '#3cb44b', '#4363d8', '#f58231', '#911eb4', '#008080'] as const;
const ICON_TITLES: Record<(typeof ICONS)[number], string> = {
  cafe: 'Café',
  restaurant: 'Bistro',
  museum: 'Musée',
  park: 'Parc',
  rail: 'Gare',
  bus: 'Arrêt',
  lodging: 'Hôtel',
  hospital: 'Hôpital',
};
/** Towns the points gather around (most map content is in towns), [lon, lat]. */
const TOWNS: [number, number][] = [
  [2.35, 48.86], [4.35, 50.85], [4.9, 52.37], [6.96, 50.94], [8.68, 50.11], [11.58, 48.14],
  [7.45, 46.95], [4.84, 45.76], [-1.55, 47.22], [1.44, 43.6], [5.37, 43.3], [9.19, 45.46],
];
const WEST = -4;
const EAST = 14;
const SOUTH = 43;
const NORTH = 53;

/** The pin pictures staticmaps draws (bench/generate/pinImages.ts): 26×34 pixels, the tip (the point's position) at 13, 33. */
export const PIN = { width: 26, height: 34, tipX: 13, tipY: 33 } as const;
/** The file of the pin of an icon in a colour (#rrggbb). */
export const pinFile = (folder: string, icon: string, color: string): string => path.join(folder, `${icon}-${color.slice(1)}.png`);

type Position = [number, number];

export interface Feature {
  type: 'Feature';
  geometry: { type: 'Point'; coordinates: Position } | { type: 'LineString'; coordinates: Position[] } | { type: 'Polygon'; coordinates: Position[][] };
  properties: Record<string, string | number>;
}

export interface ContentSize {
  points: number;
  lines: number;
  /** Positions per line. */
  linePoints: number;
  polygons: number;
  /** Vertices per polygon (its ring has one more, closing it). */
  polygonVertices: number;
  /** Decimals of the coordinates (5: about a metre; 4: about ten). */
  decimals: number;
  /** The share of points with a `color` (the others are drawn in the default blue). */
  pointColors: number;
}

/** The comparison's map: 700 points with icons, 200 lines of 40 positions, 100 polygons. */
export const RENDER_CONTENT: ContentSize = { points: 700, lines: 200, linePoints: 40, polygons: 100, polygonVertices: 12, decimals: 5, pointColors: 1 };
/** The end-to-end benchmark's large map: 100,000 features, mostly points, under the 15 MB upload limit. */
export const LARGE_CONTENT: ContentSize = { points: 96_000, lines: 3_000, linePoints: 10, polygons: 1_000, polygonVertices: 8, decimals: 4, pointColors: 0.25 };

const clamp = (value: number, min: number, max: number) => Math.max(min, Math.min(max, value));

export function mapFeatures(size: ContentSize, seed = 11): Feature[] {
  const random = pseudoRandom(seed);
  const scale = 10 ** size.decimals;
  const round = (value: number) => Math.round(value * scale) / scale;
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  /** Near a town (two in three) or anywhere in the region. */
  const place = (spread: number): Position => {
    if (random() < 2 / 3) {
      const [lon, lat] = pick(TOWNS);
      // A rough normal spread: the sum of three uniforms; drawn again when outside the region.
      for (;;) {
        const x = lon + (random() + random() + random() - 1.5) * spread;
        const y = lat + (random() + random() + random() - 1.5) * spread * 0.66;
        if (x >= WEST && x <= EAST && y >= SOUTH && y <= NORTH) return [round(x), round(y)];
      }
    }
    return [round(WEST + random() * (EAST - WEST)), round(SOUTH + random() * (NORTH - SOUTH))];
  };
  const features: Feature[] = [];
  for (let i = 0; i < size.points; i += 1) {
    const icon = pick(ICONS);
    const coordinates = place(1.2);
    const properties: Feature['properties'] = { title: `${ICON_TITLES[icon]} ${i + 1}`, 'marker-symbol': icon };
    if (random() < size.pointColors) properties.color = pick(COLORS);
    features.push({ type: 'Feature', geometry: { type: 'Point', coordinates }, properties });
  }
  for (let i = 0; i < size.lines; i += 1) {
    // A wandering route: each step keeps most of the previous one's heading.
    let [lon, lat] = place(2);
    let heading = random() * 2 * Math.PI;
    const step = 0.02 + random() * 0.04;
    const coordinates: Position[] = [];
    for (let j = 0; j < size.linePoints; j += 1) {
      coordinates.push([round(lon), round(lat)]);
      heading += (random() - 0.5) * 0.8;
      // At the region's edge the route turns back.
      if (lon + Math.cos(heading) * step < WEST || lon + Math.cos(heading) * step > EAST) heading = Math.PI - heading;
      if (lat + Math.sin(heading) * step < SOUTH || lat + Math.sin(heading) * step > NORTH) heading = -heading;
      lon = clamp(lon + Math.cos(heading) * step, WEST, EAST);
      lat = clamp(lat + Math.sin(heading) * step * 0.66, SOUTH, NORTH);
    }
    features.push({
      type: 'Feature',
      geometry: { type: 'LineString', coordinates },
      properties: { title: `Route ${i + 1}`, color: pick(COLORS), 'stroke-width': 2 + Math.floor(random() * 3) },
    });
  }
  for (let i = 0; i < size.polygons; i += 1) {
    const [lon, lat] = place(2);
    const radius = 0.06 + random() * 0.2;
    const ring: Position[] = [];
    for (let j = 0; j < size.polygonVertices; j += 1) {
      const angle = (j / size.polygonVertices) * 2 * Math.PI;
      const r = radius * (0.7 + random() * 0.6);
      ring.push([round(lon + Math.cos(angle) * r), round(lat + Math.sin(angle) * r * 0.66)]);
    }
    ring.push(ring[0]!);
    features.push({
      type: 'Feature',
      geometry: { type: 'Polygon', coordinates: [ring] },
      properties: { title: `Zone ${i + 1}`, color: pick(COLORS), 'stroke-width': 2 },
    });
  }
  return features;
}

/** The features as a GeoJSON FeatureCollection file, one feature a line. */
export function featureCollection(features: readonly Feature[]): string {
  return `{"type":"FeatureCollection","features":[\n${features.map((feature) => JSON.stringify(feature)).join(',\n')}\n]}\n`;
}

/** Central Helsinki, inside the street fixture's tiles (test/support/streetArchives.ts): the street comparison's map is moved here. */
export const STREET_BOX = [24.925, 60.166, 24.955, 60.182] as const;

/** The features moved from the region above into `box` ([west, south, east, north]), keeping their layout (the street comparison's city-scale map). */
export function movedTo(features: readonly Feature[], [west, south, east, north]: readonly [number, number, number, number]): Feature[] {
  const move = ([lon, lat]: Position): Position => [
    +(west + ((lon - WEST) / (EAST - WEST)) * (east - west)).toFixed(6),
    +(south + ((lat - SOUTH) / (NORTH - SOUTH)) * (north - south)).toFixed(6),
  ];
  return features.map((feature) => {
    const { geometry } = feature;
    const moved =
      geometry.type === 'Point'
        ? { type: 'Point' as const, coordinates: move(geometry.coordinates) }
        : geometry.type === 'LineString'
          ? { type: 'LineString' as const, coordinates: geometry.coordinates.map(move) }
          : { type: 'Polygon' as const, coordinates: geometry.coordinates.map((ring) => ring.map(move)) };
    return { ...feature, geometry: moved } as Feature;
  });
}
