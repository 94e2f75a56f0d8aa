import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../api/openapi.js';
import { ARG_HEADER } from '../../api/middleware/headerArgs.js';
import { OPERATIONS } from '../../api/operations.js';
import { ERROR_CODES } from '../../lib/errors.js';

interface Schema {
  $ref?: string;
  properties?: Record<string, Schema>;
  enum?: unknown[];
  oneOf?: Schema[];
  required?: string[];
}
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  content?: Record<string, { schema: Schema }>;
}
interface OperationObject {
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, { schema: Schema }> };
  responses: Record<string, { content: Record<string, { schema: Schema }> }>;
}
interface Document {
  openapi: string;
  servers: { url: string }[];
  paths: Record<string, { post?: OperationObject }>;
  components: { schemas: Record<string, Schema>; securitySchemes: Record<string, Record<string, string>> };
}

const doc = buildOpenApiDocument('https://maps.example.org') as Document;

/** The schema itself, or the component a $ref points at. */
function resolve(schema: Schema): Schema {
  if (!schema.$ref) return schema;
  const name = schema.$ref.replace('#/components/schemas/', '');
  const target = doc.components.schemas[name];
  if (!target) throw new Error(`dangling $ref ${schema.$ref}`);
  return target;
}

const post = (path: string): OperationObject => {
  const op = doc.paths[`/api/1/${path}`]?.post;
  if (!op) throw new Error(`no POST /api/1/${path} in the document`);
  return op;
};

const argHeader = (op: OperationObject) => op.parameters?.find((p) => p.name === ARG_HEADER && p.in === 'header');

describe('OpenAPI document', () => {
  it('is OpenAPI 3 with the public URL as its server and the token scheme', () => {
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.servers).toEqual([{ url: 'https://maps.example.org' }]);
    expect(Object.values(doc.components.securitySchemes)).toContainEqual(
      expect.objectContaining({ type: 'apiKey', in: 'header', name: 'Authorization' }),
    );
  });

  it('describes every operation of the route table, and nothing else', () => {
    expect(Object.keys(doc.paths).sort()).toEqual(OPERATIONS.map((op) => `/api/1/${op.path}`).sort());
    for (const op of OPERATIONS) expect(Object.keys(doc.paths[`/api/1/${op.path}`]!)).toEqual(['post']);
  });

  it('gives JSON operations a JSON request body and file operations the argument header and a binary body', () => {
    for (const op of OPERATIONS) {
      const operation = post(op.path);
      if (op.kind === 'json') {
        expect(operation.requestBody?.content['application/json']?.schema, op.path).toBeDefined();
        expect(argHeader(operation), op.path).toBeUndefined();
      } else {
        const header = argHeader(operation);
        expect(header?.required, op.path).toBe(true);
        expect(header?.content?.['application/json']?.schema, op.path).toBeDefined();
        expect(operation.requestBody?.content['application/octet-stream'], op.path).toBeDefined();
      }
    }
  });

  it('answers every operation with HTTP 200: the result, the error object, or rate_limited with retry_after (feature/save: or its save_conflict)', () => {
    for (const op of OPERATIONS) {
      const responses = post(op.path).responses;
      expect(Object.keys(responses), op.path).toEqual(['200']);
      const oneOf = responses['200']!.content['application/json']!.schema.oneOf!;
      expect(oneOf).toHaveLength(op.failure ? 4 : 3);
      if (op.failure) expect(oneOf[3]!.$ref).toBe(`#/components/schemas/${op.failure.name}`);
      expect(oneOf.map((s) => s.$ref)).toEqual(expect.arrayContaining(['#/components/schemas/ErrorResult', '#/components/schemas/RateLimitedResult']));
      expect(resolve(oneOf[2]!).required).toEqual(['error', 'error_code', 'retry_after']);
      for (const schema of oneOf) expect(() => resolve(schema)).not.toThrow();
    }
  });

  it('lists exactly the codes of ERROR_CODES in the error schema', () => {
    const errorCode = doc.components.schemas.ErrorResult!.properties!.error_code!;
    expect(errorCode.enum).toEqual(Object.keys(ERROR_CODES));
  });

  it('does not offer `select` as a visibility a request may set', () => {
    const uploadArgs = resolve(argHeader(post('map/upload'))!.content!['application/json']!.schema);
    const settable = uploadArgs.properties!.visibility!.enum;
    expect(settable).toEqual(expect.arrayContaining(['public', 'unlisted', 'private']));
    expect(settable).not.toContain('select');
    // Answers do show it.
    expect(doc.components.schemas.MapSummary!.properties!.visibility!.enum).toContain('select');
  });

  it('documents the Idempotency-Key header on map/upload and map/append, and an optional body for upload', () => {
    for (const path of ['map/upload', 'map/append']) {
      expect(post(path).parameters!.map((p) => p.name), path).toContain('Idempotency-Key');
    }
    expect(post('map/upload').requestBody!.required).toBe(false);
    expect(post('map/append').requestBody!.required).toBe(true);
  });

  it('gives every operation an example request and answer, in the place schemathesis reads them', () => {
    for (const op of OPERATIONS) {
      const operation = post(op.path) as OperationObject & Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
      expect(operation.responses['200']!.content['application/json'], op.path).toHaveProperty('example');
      if (op.kind === 'json') expect(operation.requestBody!.content['application/json'], op.path).toHaveProperty('example');
      else expect(argHeader(operation)!.content!['application/json'], op.path).toHaveProperty('example');
      // The example arguments pass the operation's own schema.
      expect(op.args.safeParse(op.example.args).success, op.path).toBe(true);
    }
  });

  it('is a valid OpenAPI 3.1 document (the OpenAPI Initiative\'s own schema of 3.1)', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const result = await new Validator().validate(structuredClone(doc) as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('links answers to the operations their ids lead to, with arguments those operations take', () => {
    let links = 0;
    for (const operation of OPERATIONS) {
      for (const link of Object.values(operation.links ?? {})) {
        const target = OPERATIONS.find((other) => other.path === link.operation)!;
        const properties = resolve(doc.components.schemas[`${target.path.split(/[/_]/).map((word) => word[0]!.toUpperCase() + word.slice(1)).join('')}Args`]!).properties!;
        for (const name of Object.keys(link.arguments)) expect(Object.keys(properties), `${operation.path} → ${link.operation}`).toContain(name);
        links += 1;
      }
    }
    expect(links).toBeGreaterThanOrEqual(14);
  });

  it('gives every operation ready-to-copy calls in curl, Python and JavaScript', () => {
    for (const operation of OPERATIONS) {
      const samples = (post(operation.path) as unknown as { 'x-codeSamples': { lang: string; source: string }[] })['x-codeSamples'];
      expect(samples.map((sample) => sample.lang), operation.path).toEqual(['Shell', 'Python', 'JavaScript']);
      for (const sample of samples) expect(sample.source).toContain(`https://maps.example.org/api/1/${operation.path}`);
    }
  });

  it('links map/upload answers to map/get, map/update and map/append', () => {
    const links = (post('map/upload').responses['200'] as { links?: Record<string, Record<string, unknown>> }).links!;
    expect(Object.values(links).map((link) => link.operationId).sort()).toEqual(['mapAppend', 'mapGet', 'mapUpdate']);
    expect(links.GetMap).toMatchObject({ requestBody: { map_id: '$response.body#/id' } });
    expect(links.AppendToMap).toMatchObject({ 'x-arguments': { header: ARG_HEADER, values: { map_id: '$response.body#/id' } } });
  });

  it('shows the GeoJSON model of the spec, dates as date-time and URLs as uri', () => {
    const update = resolve(doc.components.schemas.MapUpdateArgs!);
    expect(JSON.stringify(update.properties!.geojson)).toContain('#/components/schemas/MapGeoJSON');
    const model = doc.components.schemas.MapGeoJSON as Schema & { required?: string[] };
    expect(model.properties!.type).toMatchObject({ const: 'FeatureCollection' });
    expect(model.required).toEqual(['type', 'features']);
    expect(JSON.stringify(doc.components.schemas.Geometry)).toContain('MultiPolygon');
    const get = doc.components.schemas.MapGetResult as Schema;
    expect(get.properties!.created_date).toMatchObject({ format: 'date-time' });
    expect(JSON.stringify(get.properties!.geojson)).toContain('#/components/schemas/MapGeoJSON');
    expect(doc.components.schemas.MapSummary!.properties!.url).toMatchObject({ format: 'uri' });
  });

  it('is plain JSON with every $ref resolvable', () => {
    const text = JSON.stringify(doc);
    for (const [, ref] of text.matchAll(/"\$ref":"([^"]+)"/g)) expect(() => resolve({ $ref: ref! })).not.toThrow();
    expect(JSON.parse(text)).toEqual(doc);
  });
});
