// A map as GPX 1.1 (the GPX download), as the GPX import reads it back (../gpx.ts): points as
// waypoints (name, desc, link, sym from `marker-symbol`, ele from a third coordinate), lines as
// tracks (one segment per line of a MultiLineString). GPX has no areas and no colours: areas and
// collections are left out and counted, for the page to say so.
import type { MapFeature, Position } from '../../geojson/model.js';
import { propertyText, xmlText } from './xmlText.js';

const webAddress = (value: unknown): string | undefined => (typeof value === 'string' && /^https?:\/\//i.test(value) ? value : undefined);

function common(feature: MapFeature): string {
  const p = feature.properties;
  const name = propertyText(p.title);
  const description = propertyText(p.description);
  const link = webAddress(p.url);
  return (
    (name !== undefined ? `<name>${xmlText(name)}</name>` : '') +
    (description !== undefined ? `<desc>${xmlText(description)}</desc>` : '') +
    (link ? `<link href="${xmlText(link)}"/>` : '')
  );
}

const point = (tag: 'wpt' | 'trkpt', position: Position, inner = ''): string =>
  `<${tag} lat="${position[1]}" lon="${position[0]}">${position.length > 2 ? `<ele>${position[2]}</ele>` : ''}${inner}</${tag}>`;

export function gpxOfMap(map: { title: string; description: string }, features: readonly MapFeature[]): { text: string; leftOut: number } {
  const waypoints: string[] = [];
  const tracks: string[] = [];
  let leftOut = 0;
  for (const feature of features) {
    const g = feature.geometry;
    const sym = propertyText(feature.properties['marker-symbol']);
    const symbol = sym !== undefined ? `<sym>${xmlText(sym)}</sym>` : '';
    if (g.type === 'Point') waypoints.push(point('wpt', g.coordinates, common(feature) + symbol));
    else if (g.type === 'MultiPoint') for (const position of g.coordinates) waypoints.push(point('wpt', position, common(feature) + symbol));
    else if (g.type === 'LineString' || g.type === 'MultiLineString') {
      const lines = g.type === 'LineString' ? [g.coordinates] : g.coordinates;
      tracks.push(`<trk>${common(feature)}${lines.map((line) => `<trkseg>${line.map((position) => point('trkpt', position)).join('')}</trkseg>`).join('')}</trk>`);
    } else leftOut++;
  }
  const text =
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<gpx version="1.1" creator="map-publishing-service" xmlns="http://www.topografix.com/GPX/1/1">' +
    `<metadata><name>${xmlText(map.title)}</name>${map.description ? `<desc>${xmlText(map.description)}</desc>` : ''}</metadata>\n` +
    waypoints.map((w) => `${w}\n`).join('') +
    tracks.map((t) => `${t}\n`).join('') +
    '</gpx>\n';
  return { text, leftOut };
}
