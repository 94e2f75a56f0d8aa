// The Natural Earth data the built-in basemaps (`classic`, `light`, `dark`) are made of, read
// from npm packages so nothing is fetched at run time: land, country borders and country names
// from world-atlas (Natural Earth 1:50m and 1:10m, public domain), capitals from
// node-location-timezone's capital list (Natural Earth populated places, MIT). The static
// renderer draws it directly; the browser's vector tiles are cut from the same layers.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import polylabel from '@mapbox/polylabel';
import locations from 'node-location-timezone';
import { feature, mesh } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';

/** 1:50m for world and continent views, 1:10m from about zoom 4 on. */
export type Resolution = '50m' | '10m';

/** A ring or line as [longitude, latitude] positions; longitudes may pass ±180° where a shape crosses the antimeridian. */
export type LonLatLine = readonly (readonly [number, number])[];

export interface LandPolygon {
  /** Outer ring first, then holes. */
  rings: LonLatLine[];
  /** [west, south, east, north] */
  bbox: readonly [number, number, number, number];
}

export interface PlaceLabel {
  name: string;
  lon: number;
  lat: number;
  /** Larger first: the area of the country's largest polygon in square degrees (0 for capitals). */
  rank: number;
}

export interface NaturalEarthLayers {
  resolution: Resolution;
  land: LandPolygon[];
  /** Land borders between two countries (each once). */
  borders: { line: LonLatLine; bbox: readonly [number, number, number, number] }[];
  /** One label per country, at the point of its largest polygon farthest from the edge. */
  countries: PlaceLabel[];
  capitals: PlaceLabel[];
}

const require = createRequire(import.meta.url);
const cache = new Map<Resolution, NaturalEarthLayers>();

type Position = [number, number];

function boundsOf(lines: Iterable<LonLatLine>): [number, number, number, number] {
  let west = Infinity;
  let south = Infinity;
  let east = -Infinity;
  let north = -Infinity;
  for (const line of lines) {
    for (const [lon, lat] of line) {
      if (lon < west) west = lon;
      if (lon > east) east = lon;
      if (lat < south) south = lat;
      if (lat > north) north = lat;
    }
  }
  return [west, south, east, north];
}

/** The area of a ring in square degrees (shoelace), for ranking labels. */
function ringArea(ring: readonly Position[]): number {
  let sum = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    sum += (ring[j]![0] - ring[i]![0]) * (ring[j]![1] + ring[i]![1]);
  }
  return Math.abs(sum / 2);
}

function polygonsOf(geometry: GeoJSON.Geometry | null): Position[][][] {
  if (geometry?.type === 'Polygon') return [geometry.coordinates as Position[][]];
  if (geometry?.type === 'MultiPolygon') return geometry.coordinates as Position[][][];
  return [];
}

/**
 * A line or ring that never jumps across the antimeridian: Natural Earth's stitched polygons
 * (Chukotka, Wrangel Island, Fiji) go from 180° to −180° within a ring, which every renderer would
 * draw as a band across the world; here they continue past ±180° instead (the static renderer
 * draws the world's copies beside it, geojson-vt wraps them). A ring around the South Pole
 * (Antarctica) is closed along the pole.
 */
function unwrapped(line: readonly Position[], ring: boolean): Position[] {
  const out: Position[] = [];
  let shift = 0;
  for (const [lon, lat] of line) {
    const previous = out[out.length - 1];
    if (previous && Math.abs(lon! + shift - previous[0]) > 180) shift += lon! + shift > previous[0] ? -360 : 360;
    out.push([lon! + shift, lat!]);
  }
  const first = out[0];
  const last = out[out.length - 1];
  if (ring && first && last && Math.abs(last[0] - first[0]) > 180) out.push([last[0], -90], [first[0], -90]);
  return out;
}

function readTopology(resolution: Resolution): Topology<{ countries: GeometryCollection<{ name: string }>; land: GeometryCollection }> {
  return JSON.parse(fs.readFileSync(require.resolve(`world-atlas/countries-${resolution}.json`), 'utf8'));
}

function countryLabels(topology: ReturnType<typeof readTopology>): PlaceLabel[] {
  const countries = feature(topology, topology.objects.countries);
  const labels: PlaceLabel[] = [];
  for (const country of countries.features) {
    const name = country.properties?.name;
    if (!name) continue;
    let largest: Position[][] | undefined;
    let largestArea = 0;
    for (const polygon of polygonsOf(country.geometry)) {
      const area = ringArea(polygon[0] ?? []);
      if (area > largestArea) {
        largest = polygon;
        largestArea = area;
      }
    }
    if (!largest) continue;
    const [lon, lat] = polylabel(largest, 0.05);
    labels.push({ name, lon: lon!, lat: lat!, rank: largestArea });
  }
  return labels.sort((a, b) => b.rank - a.rank);
}

function capitalLabels(): PlaceLabel[] {
  return locations.getCapitals().map((capital) => ({ name: capital.name, lon: capital.longitude, lat: capital.latitude, rank: 0 }));
}

/** The layers at one resolution, read once per process (1:10m takes about a second). */
export function naturalEarth(resolution: Resolution): NaturalEarthLayers {
  const cached = cache.get(resolution);
  if (cached) return cached;
  const topology = readTopology(resolution);
  const land: Position[][][] = [];
  for (const item of feature(topology, topology.objects.land).features) {
    for (const rings of polygonsOf(item.geometry)) land.push(rings.map((ring) => unwrapped(ring, true)));
  }
  const borderLines = (mesh(topology, topology.objects.countries, (a, b) => a !== b).coordinates as Position[][]).map((line) => unwrapped(line, false));
  const layers: NaturalEarthLayers = {
    resolution,
    land: land.map((rings) => ({ rings, bbox: boundsOf(rings.slice(0, 1)) })),
    borders: borderLines.map((line) => ({ line, bbox: boundsOf([line]) })),
    countries: countryLabels(topology),
    capitals: capitalLabels(),
  };
  cache.set(resolution, layers);
  return layers;
}
