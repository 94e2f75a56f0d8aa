// The map GeoJSON document as the OpenAPI document shows it (the spec's "Map GeoJSON document"):
// what map/get answers and what map/update's `geojson` takes. It describes exactly what
// lib/geojson/model.ts accepts where JSON Schema can say it; the rules it cannot say (closed
// rings, latitude and longitude ranges inside a position, unique ids, groups that exist) are
// in the descriptions, and the validator names the first one broken.
import { z } from 'zod';

const position = z
  .array(z.number())
  .min(2)
  .max(3)
  .describe('[longitude, latitude] or [longitude, latitude, altitude]; longitude -180…180, latitude -90…90');

const bbox = z.unknown().optional().describe('Kept when it is a list of numbers, dropped otherwise');
const line = z.array(position).min(2).describe('At least 2 positions');
const ring = z.array(position).min(4).describe('A closed ring: at least 4 positions, the last equal to the first');
const polygon = z.array(ring).min(1).describe('The outer ring, then any holes');

const point = z.looseObject({ type: z.literal('Point'), coordinates: position, bbox });
const multiPoint = z.looseObject({ type: z.literal('MultiPoint'), coordinates: z.array(position).min(1), bbox });
const lineString = z.looseObject({ type: z.literal('LineString'), coordinates: line, bbox });
const multiLineString = z.looseObject({ type: z.literal('MultiLineString'), coordinates: z.array(line).min(1), bbox });
const polygonGeometry = z.looseObject({ type: z.literal('Polygon'), coordinates: polygon, bbox });
const multiPolygon = z.looseObject({ type: z.literal('MultiPolygon'), coordinates: z.array(polygon).min(1), bbox });

const geometryCollection = z.looseObject({
  type: z.literal('GeometryCollection'),
  get geometries() {
    return z.array(geometrySchema).min(1).describe('Collections nest at most 8 deep');
  },
  bbox,
});

export const geometrySchema: z.ZodType = z
  .discriminatedUnion('type', [point, multiPoint, lineString, multiLineString, polygonGeometry, multiPolygon, geometryCollection])
  .describe('A GeoJSON geometry; members other than type, coordinates/geometries and bbox are dropped');

const groupId = z.union([z.number().int().min(0).max(Number.MAX_SAFE_INTEGER), z.string().min(1).max(200)]);

export const groupSchema = z
  .looseObject({
    id: groupId.nullable().optional().describe('Generated when omitted; unique in the document'),
    title: z.string(),
    parent: groupId.nullable().optional().describe('The id of another group of the document (no cycles)'),
  })
  .describe('A group of items; other keys are kept');

export const featureSchema = z
  .looseObject({
    type: z.literal('Feature'),
    id: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).nullable().optional().describe('Unique in the map; generated when omitted'),
    geometry: geometrySchema,
    properties: z
      .record(z.string(), z.unknown())
      .nullable()
      .optional()
      .describe(
        'Free-form JSON data (at most 32 levels deep, no NUL characters). The map reads: title, description ' +
          '(Markdown), url, group (the id of a group of the document), marker-symbol (a built-in icon), marker_id ' +
          '(an uploaded marker), image ({id, w, h, tip_color, avg_color} from an image upload), color (#rrggbb), visible; ' +
          'text_label (true: a Point shown as its title alone, in its color, default dark) with text_size (pixels, 10–48, default 16); ' +
          'overlay (true: an image overlay — the geometry a Polygon of one closed ring of the image\'s 4 corners, lower-left, ' +
          'lower-right, upper-right, upper-left, then the lower-left again, as KML\'s gx:LatLonQuad; image required; ' +
          'opacity a number 0–1, 1 when omitted).',
      ),
  })
  .describe('A map item; members other than type, id, geometry and properties are dropped');

export const mapGeoJsonSchema = z
  .looseObject({
    type: z.literal('FeatureCollection'),
    features: z.array(featureSchema).max(500_000),
    groups: z.array(groupSchema).nullable().optional(),
  })
  .describe(
    "A map's GeoJSON document: a FeatureCollection with its groups. Other top-level keys are kept. " +
      'At most 500,000 features and 64 MB of GeoJSON text.',
  );
