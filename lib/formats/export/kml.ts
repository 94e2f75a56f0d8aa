// A map as KML (the KML download), in the shapes the KML import reads back (../xml/kmlConverter.ts):
// groups as nested Folders, each item a Placemark with its name, description, visibility, an
// inline Style with its colour (IconStyle for points, LineStyle and a quarter-opaque PolyStyle for
// areas, `stroke-width` as the line width; a text label's Style shows its name alone:
// ../kmlTextLabels.ts) and its other properties as ExtendedData; descriptions (the map's and the
// items') as escaped plain text, which Google Earth shows as text, never runs as HTML
// (../kmlDescriptions.ts). Every
// geometry is written (multi-part ones and collections as MultiGeometry, altitude kept). Uploaded
// images and custom markers are files of this service, which a plain KML cannot carry: left out.
// Image overlays (lib/geojson/overlay.ts) are GroundOverlays: a LatLonBox when their corners
// are a north-up box, else a gx:LatLonQuad; their opacity as the colour's alpha; the image's
// href is what `overlayHref` answers (a file inside the KMZ, or the image's address for a plain
// KML); without one the overlay is written as a Placemark of its outline.
import type { Geometry, GroupId, MapFeature, MapGroup, Position } from '../../geojson/model.js';
import { isTextLabel } from '../../textLabels.js';
import { isOverlay, overlayCorners, overlayOpacity } from '../../geojson/overlay.js';
import { DESCRIPTION_FORMAT, escapedDescription } from '../kmlDescriptions.js';
import { textLabelStyleKml } from '../kmlTextLabels.js';
import { propertyText, xmlText } from './xmlText.js';

/** Properties written as KML elements or left out (never as ExtendedData). */
const NOT_DATA = new Set(['title', 'description', 'visible', 'color', 'stroke-width', 'group', 'image', 'marker_id', 'text_label', 'text_size', 'overlay', 'opacity']);

const coordinates = (positions: readonly Position[]): string => positions.map((p) => p.join(',')).join(' ');

function geometryKml(geometry: Geometry): string {
  switch (geometry.type) {
    case 'Point':
      return `<Point><coordinates>${geometry.coordinates.join(',')}</coordinates></Point>`;
    case 'LineString':
      return `<LineString><coordinates>${coordinates(geometry.coordinates)}</coordinates></LineString>`;
    case 'Polygon': {
      const [outer, ...inner] = geometry.coordinates;
      const ring = (positions: readonly Position[]) => `<LinearRing><coordinates>${coordinates(positions)}</coordinates></LinearRing>`;
      return `<Polygon><outerBoundaryIs>${ring(outer ?? [])}</outerBoundaryIs>${inner.map((r) => `<innerBoundaryIs>${ring(r)}</innerBoundaryIs>`).join('')}</Polygon>`;
    }
    case 'MultiPoint':
      return `<MultiGeometry>${geometry.coordinates.map((p) => geometryKml({ type: 'Point', coordinates: p })).join('')}</MultiGeometry>`;
    case 'MultiLineString':
      return `<MultiGeometry>${geometry.coordinates.map((l) => geometryKml({ type: 'LineString', coordinates: l })).join('')}</MultiGeometry>`;
    case 'MultiPolygon':
      return `<MultiGeometry>${geometry.coordinates.map((p) => geometryKml({ type: 'Polygon', coordinates: p })).join('')}</MultiGeometry>`;
    case 'GeometryCollection':
      return `<MultiGeometry>${geometry.geometries.map(geometryKml).join('')}</MultiGeometry>`;
  }
}

/** #rrggbb as KML's aabbggrr. */
const kmlColor = (hex: string, alpha = 'ff'): string => `${alpha}${hex.slice(5, 7)}${hex.slice(3, 5)}${hex.slice(1, 3)}`.toLowerCase();

function styleKml(feature: MapFeature): string {
  if (isTextLabel(feature)) return textLabelStyleKml(feature.properties);
  const color = feature.properties.color;
  const width = feature.properties['stroke-width'];
  const hex = typeof color === 'string' && /^#[0-9a-f]{6}$/i.test(color) ? color : undefined;
  const lineWidth = typeof width === 'number' && Number.isFinite(width) && width > 0 ? `<width>${width}</width>` : '';
  if (!hex && !lineWidth) return '';
  const type = feature.geometry.type;
  if (type === 'Point' || type === 'MultiPoint') return hex ? `<Style><IconStyle><color>${kmlColor(hex)}</color></IconStyle></Style>` : '';
  const line = `<LineStyle>${hex ? `<color>${kmlColor(hex)}</color>` : ''}${lineWidth}</LineStyle>`;
  const poly = hex && (type === 'Polygon' || type === 'MultiPolygon') ? `<PolyStyle><color>${kmlColor(hex, '40')}</color></PolyStyle>` : '';
  return `<Style>${line}${poly}</Style>`;
}

/** Where a GroundOverlay's Icon finds an overlay's image (by image id); undefined: none. */
export type OverlayHref = (imageId: string) => string | undefined;

/** An image overlay as a GroundOverlay, or undefined when it has no image href. */
function groundOverlayKml(feature: MapFeature, overlayHref: OverlayHref): string | undefined {
  const p = feature.properties;
  const corners = overlayCorners(feature.geometry);
  const imageId = (p.image as { id?: unknown } | undefined)?.id;
  const href = typeof imageId === 'string' ? overlayHref(imageId) : undefined;
  if (!corners || href === undefined) return undefined;
  const [lowerLeft, lowerRight, upperRight, upperLeft] = corners;
  const northUp = lowerLeft[1] === lowerRight[1] && upperLeft[1] === upperRight[1] && lowerLeft[0] === upperLeft[0] && lowerRight[0] === upperRight[0] && lowerLeft[0] < lowerRight[0] && lowerLeft[1] < upperLeft[1];
  const place = northUp
    ? `<LatLonBox><north>${upperLeft[1]}</north><south>${lowerLeft[1]}</south><east>${lowerRight[0]}</east><west>${lowerLeft[0]}</west></LatLonBox>`
    : `<gx:LatLonQuad><coordinates>${corners.map((c) => `${c[0]},${c[1]}`).join(' ')}</coordinates></gx:LatLonQuad>`;
  const alpha = Math.round(overlayOpacity(p) * 255).toString(16).padStart(2, '0');
  const name = propertyText(p.title);
  const description = propertyText(p.description);
  return (
    '<GroundOverlay>' +
    (name !== undefined ? `<name>${xmlText(name)}</name>` : '') +
    (p.visible === false || p.visible === 0 ? '<visibility>0</visibility>' : '') +
    (description !== undefined ? `<description>${xmlText(escapedDescription(description))}</description>` : '') +
    `<color>${alpha}ffffff</color><Icon><href>${xmlText(href)}</href></Icon>${place}</GroundOverlay>\n`
  );
}

function itemKml(feature: MapFeature, overlayHref: OverlayHref): string {
  if (isOverlay(feature.properties)) {
    const overlay = groundOverlayKml(feature, overlayHref);
    if (overlay !== undefined) return overlay;
  }
  return placemarkKml(feature);
}

function placemarkKml(feature: MapFeature): string {
  const p = feature.properties;
  const name = propertyText(p.title);
  const description = propertyText(p.description);
  const data = Object.entries(p)
    .filter(([key]) => !NOT_DATA.has(key))
    .map(([key, value]) => [key, propertyText(value)] as const)
    .filter((entry): entry is readonly [string, string] => entry[1] !== undefined)
    .map(([key, value]) => `<Data name="${xmlText(key)}"><value>${xmlText(value)}</value></Data>`)
    .join('');
  return (
    '<Placemark>' +
    (name !== undefined ? `<name>${xmlText(name)}</name>` : '') +
    (p.visible === false || p.visible === 0 ? '<visibility>0</visibility>' : '') +
    (description !== undefined ? `<description>${xmlText(escapedDescription(description))}</description>` : '') +
    styleKml(feature) +
    (data ? `<ExtendedData>${data}</ExtendedData>` : '') +
    geometryKml(feature.geometry) +
    '</Placemark>\n'
  );
}

/** The map as a KML document: `title` and `description` are the map's. */
export function kmlOfMap(
  map: { title: string; description: string },
  features: readonly MapFeature[],
  groups: readonly MapGroup[],
  overlayHref: OverlayHref = () => undefined,
): string {
  const item = (feature: MapFeature) => itemKml(feature, overlayHref);
  const children = new Map<GroupId | undefined, MapGroup[]>();
  const known = new Set(groups.map((group) => group.id));
  const add = <K, V>(map: Map<K, V[]>, key: K, value: V) => {
    const list = map.get(key);
    if (list) list.push(value);
    else map.set(key, [value]);
  };
  for (const group of groups) {
    const parent = group.parent !== undefined && known.has(group.parent) && group.parent !== group.id ? group.parent : undefined;
    add(children, parent, group);
  }
  const items = new Map<GroupId | undefined, MapFeature[]>();
  for (const feature of features) {
    const group = feature.properties.group as GroupId | undefined;
    add(items, group !== undefined && known.has(group) ? group : undefined, feature);
  }
  const written = new Set<GroupId>();
  const folder = (group: MapGroup): string => {
    if (written.has(group.id)) return ''; // a cycle of parents is written once
    written.add(group.id);
    return `<Folder><name>${xmlText(group.title)}</name>\n${(items.get(group.id) ?? []).map(item).join('')}${(children.get(group.id) ?? []).map(folder).join('')}</Folder>\n`;
  };
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n<kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2"><Document>' +
    `<name>${xmlText(map.title)}</name>` +
    (map.description ? `<description>${xmlText(escapedDescription(map.description))}</description>` : '') +
    `<ExtendedData><Data name="${DESCRIPTION_FORMAT.name}"><value>${DESCRIPTION_FORMAT.value}</value></Data></ExtendedData>` +
    '\n' +
    (items.get(undefined) ?? []).map(item).join('') +
    (children.get(undefined) ?? []).map(folder).join('') +
    '</Document></kml>\n'
  );
}
