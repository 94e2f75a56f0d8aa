// How long a line is and how large an area (turf's geodesic measures), in the viewer's units: metric (m, km; m², ha, km²) or imperial (ft, mi; ft², acres, mi²).
import area from '@turf/area';
import length from '@turf/length';

export type Units = 'metric' | 'imperial';

const FEET_PER_METRE = 3.280839895;
const METRES_PER_MILE = 1609.344;
const SQUARE_METRES_PER_ACRE = 4046.8564224;

const format = (value: number, digits: number): string => value.toLocaleString('en', { maximumFractionDigits: digits, minimumFractionDigits: 0 });

export function lengthText(metres: number, units: Units): string {
  if (units === 'metric') return metres < 1000 ? `${format(metres, 0)} m` : `${format(metres / 1000, metres < 100_000 ? 2 : 0)} km`;
  const miles = metres / METRES_PER_MILE;
  return miles < 0.1 ? `${format(metres * FEET_PER_METRE, 0)} ft` : `${format(miles, miles < 100 ? 2 : 0)} mi`;
}

export function areaText(squareMetres: number, units: Units): string {
  if (units === 'metric') {
    if (squareMetres < 10_000) return `${format(squareMetres, 0)} m²`;
    if (squareMetres < 1_000_000) return `${format(squareMetres / 10_000, 2)} ha`;
    return `${format(squareMetres / 1_000_000, 2)} km²`;
  }
  const acres = squareMetres / SQUARE_METRES_PER_ACRE;
  if (acres < 1) return `${format(squareMetres * FEET_PER_METRE ** 2, 0)} ft²`;
  if (acres < 640) return `${format(acres, 2)} acres`;
  return `${format(acres / 640, 2)} mi²`;
}

/** "Length: 1.2 km" for a line, "Area: 3.4 ha" for an area; undefined for points and the rest. */
export function measureOf(geometry: { type: string; coordinates?: unknown } | null, units: Units): string | undefined {
  if (!geometry) return undefined;
  const feature = { type: 'Feature', geometry, properties: {} } as Parameters<typeof length>[0];
  if (geometry.type === 'LineString' || geometry.type === 'MultiLineString') return `Length: ${lengthText(length(feature, { units: 'kilometers' }) * 1000, units)}`;
  if (geometry.type === 'Polygon' || geometry.type === 'MultiPolygon') return `Area: ${areaText(area(feature), units)}`;
  return undefined;
}
