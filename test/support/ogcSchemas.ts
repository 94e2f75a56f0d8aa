// The response schemas of OGC API – Features – Part 1: Core 1.0 (OGC 17-069r4), written as JSON
// Schema (draft-07, for ajv) from the standard's OpenAPI YAML at
// http://schemas.opengis.net/ogcapi/features/part1/1.0/openapi/schemas/ — landingPage.yaml,
// confClasses.yaml, collections.yaml, collection.yaml, extent.yaml, link.yaml,
// featureCollectionGeoJSON.yaml, featureGeoJSON.yaml, geometryGeoJSON.yaml (and the geometries it
// names), timeStamp.yaml, numberMatched.yaml, numberReturned.yaml and exception.yaml. OpenAPI's
// `nullable: true` is written as a type that also allows null. No npm package ships these schemas
// (checked: @ogcapi-js/features is a client and carries none).
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';

const position = { type: 'array', minItems: 2, items: { type: 'number' } };
const ring = { type: 'array', minItems: 4, items: position };
const geometry = (type: string, coordinates: object) => ({ type: 'object', required: ['type', 'coordinates'], properties: { type: { type: 'string', enum: [type] }, coordinates } });
const pointGeoJSON = geometry('Point', position);
const multipointGeoJSON = geometry('MultiPoint', { type: 'array', items: position });
const linestringGeoJSON = geometry('LineString', { type: 'array', minItems: 2, items: position });
const multilinestringGeoJSON = geometry('MultiLineString', { type: 'array', items: { type: 'array', minItems: 2, items: position } });
const polygonGeoJSON = geometry('Polygon', { type: 'array', items: ring });
const multipolygonGeoJSON = geometry('MultiPolygon', { type: 'array', items: { type: 'array', items: ring } });
const geometryGeoJSON = {
  $id: 'geometryGeoJSON',
  oneOf: [
    pointGeoJSON,
    multipointGeoJSON,
    linestringGeoJSON,
    multilinestringGeoJSON,
    polygonGeoJSON,
    multipolygonGeoJSON,
    { type: 'object', required: ['type', 'geometries'], properties: { type: { type: 'string', enum: ['GeometryCollection'] }, geometries: { type: 'array', items: { $ref: 'geometryGeoJSON' } } } },
  ],
};

const link = {
  $id: 'link',
  type: 'object',
  required: ['href'],
  properties: { href: { type: 'string' }, rel: { type: 'string' }, type: { type: 'string' }, hreflang: { type: 'string' }, title: { type: 'string' }, length: { type: 'integer' } },
};
const links = { type: 'array', items: { $ref: 'link' } };

const extent = {
  $id: 'extent',
  type: 'object',
  properties: {
    spatial: {
      type: 'object',
      properties: {
        bbox: { type: 'array', minItems: 1, items: { type: 'array', oneOf: [{ minItems: 4, maxItems: 4 }, { minItems: 6, maxItems: 6 }], items: { type: 'number' } } },
        crs: { type: 'string', enum: ['http://www.opengis.net/def/crs/OGC/1.3/CRS84'] },
      },
    },
    temporal: {
      type: 'object',
      properties: {
        interval: { type: 'array', minItems: 1, items: { type: 'array', minItems: 2, maxItems: 2, items: { type: ['string', 'null'], format: 'date-time' } } },
        trs: { type: 'string', enum: ['http://www.opengis.net/def/uom/ISO-8601/0/Gregorian'] },
      },
    },
  },
};

const collection = {
  $id: 'collection',
  type: 'object',
  required: ['id', 'links'],
  properties: {
    id: { type: 'string' },
    title: { type: 'string' },
    description: { type: 'string' },
    links,
    extent: { $ref: 'extent' },
    itemType: { type: 'string' },
    crs: { type: 'array', items: { type: 'string' } },
  },
};

const featureGeoJSON = {
  $id: 'featureGeoJSON',
  type: 'object',
  required: ['type', 'geometry', 'properties'],
  properties: {
    type: { type: 'string', enum: ['Feature'] },
    geometry: { oneOf: [{ type: 'null' }, { $ref: 'geometryGeoJSON' }] },
    properties: { type: ['object', 'null'] },
    id: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
    links,
  },
};

export const ogcSchemas = {
  landingPage: { type: 'object', required: ['links'], properties: { title: { type: 'string' }, description: { type: 'string' }, links } },
  confClasses: { type: 'object', required: ['conformsTo'], properties: { conformsTo: { type: 'array', items: { type: 'string' } } } },
  collections: { type: 'object', required: ['links', 'collections'], properties: { links, collections: { type: 'array', items: { $ref: 'collection' } } } },
  collection: { $ref: 'collection' },
  featureCollectionGeoJSON: {
    type: 'object',
    required: ['type', 'features'],
    properties: {
      type: { type: 'string', enum: ['FeatureCollection'] },
      features: { type: 'array', items: { $ref: 'featureGeoJSON' } },
      links,
      timeStamp: { type: 'string', format: 'date-time' },
      numberMatched: { type: 'integer', minimum: 0 },
      numberReturned: { type: 'integer', minimum: 0 },
    },
  },
  featureGeoJSON: { $ref: 'featureGeoJSON' },
  exception: { type: 'object', required: ['code'], properties: { code: { type: 'string' }, description: { type: 'string' } } },
};

const ajv = new Ajv({ allErrors: true, strict: false });
addFormats.default(ajv);
for (const schema of [link, extent, collection, geometryGeoJSON, featureGeoJSON]) ajv.addSchema(schema);
const validators = Object.fromEntries(Object.entries(ogcSchemas).map(([name, schema]) => [name, ajv.compile(schema)])) as Record<keyof typeof ogcSchemas, ReturnType<Ajv['compile']>>;

/** The schema's errors for the value, as text; '' when it is valid. */
export function ogcSchemaErrors(name: keyof typeof ogcSchemas, value: unknown): string {
  const validate = validators[name];
  return validate(value) ? '' : ajv.errorsText(validate.errors);
}
