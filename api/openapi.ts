// The OpenAPI 3.1 document of /api/1/, generated from the operations' own descriptors
// (routes/…, listed in operations.ts): their zod schemas (the ones the handlers validate with;
// JSON Schema 2020-12, OpenAPI 3.1's own dialect), prose, examples, links and ready-to-copy calls
// (codeSamples.ts), so the document cannot drift from the code. Served at GET /openapi.json,
// shown as the API reference at /docs/api (api/web/apiReference.ts) and printed by `npm run openapi`.
import { z } from 'zod';
import { basemapCatalogue } from '../lib/basemaps.js';
import { ERROR_CODES, type ErrorCode } from '../lib/errors.js';
import { ARG_HEADER } from './arguments.js';
import { codeSamplesOf } from './codeSamples.js';
import { featureSchema, geometrySchema, groupSchema } from './geojsonSchema.js';
import type { Operation } from './operation.js';
import { OPERATIONS } from './operations.js';
import { basemapId, errorResult, importSummary, mapFileResult, mapGeoJson, mapSummary } from './schemas.js';

/** Schemas with a component name of their own (others get `<Operation>Args` / `<Operation>Result`). */
const NAMED_SCHEMAS: Record<string, z.ZodType> = {
  MapSummary: mapSummary,
  ImportSummary: importSummary,
  MapFileResult: mapFileResult,
  MapGeoJSON: mapGeoJson,
  Feature: featureSchema,
  Geometry: geometrySchema,
  Group: groupSchema,
};

const errorCodes = Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]];

/** errorResult with the codes spelled out: the schema clients match failures against. */
const errorSchema = z
  .strictObject({
    error: errorResult.shape.error.describe('A human-readable message naming the problem.'),
    error_code: z
      .enum(errorCodes)
      .describe(`A stable code for the failure:\n\n${errorCodes.map((code) => `- \`${code}\`: ${ERROR_CODES[code]}`).join('\n')}`),
  })
  .describe('A failure (still HTTP 200). A successful answer has no `error` field.');

/** The answer of a request past its rate limit (HTTP 200 as every answer, with a Retry-After header). */
const rateLimitedSchema = z
  .strictObject({
    error: errorResult.shape.error.describe('A human-readable message saying how long to wait.'),
    error_code: z.literal('rate_limited'),
    retry_after: z.number().int().min(1).describe('Whole seconds to wait before the request would pass (also the Retry-After header).'),
  })
  .describe('Too many requests with this API key or from this address (HTTP 200 like every answer; also a Retry-After header).');

/** "map/refresh_image" → "MapRefreshImage" */
const pascal = (path: string): string =>
  path
    .split(/[/_]/)
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join('');

const camel = (path: string): string => {
  const name = pascal(path);
  return name[0]!.toLowerCase() + name.slice(1);
};

const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });

type JsonSchema = Record<string, unknown>;

/**
 * Converts registered zod schemas to named OpenAPI 3.1 components (JSON Schema 2020-12); shared ones become $refs.
 * An argument that is checked by other code than zod (map/update's geojson, by the document
 * model) is shown as the schema its `documentedAs` metadata names.
 */
function components(schemas: Map<z.ZodType, string>, io: 'input' | 'output'): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [schema, id] of schemas) registry.add(schema, { id });
  const converted = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
    uri: (id) => `#/components/schemas/${id}`,
    override: ({ zodSchema, jsonSchema }) => {
      // The catalogue's ids as of this document (the service's own and the operator's, BASEMAPS_EXTRA).
      if (zodSchema === (basemapId as unknown)) (jsonSchema as JsonSchema).enum = basemapCatalogue().map((basemap) => basemap.id);
      const documentedAs = (z.globalRegistry.get(zodSchema as unknown as z.ZodType) as { documentedAs?: string } | undefined)?.documentedAs;
      if (documentedAs === undefined) return;
      const { description } = jsonSchema as { description?: string };
      for (const key of Object.keys(jsonSchema)) delete (jsonSchema as JsonSchema)[key];
      Object.assign(jsonSchema, description ? { allOf: [schemaRef(documentedAs)], description } : schemaRef(documentedAs));
    },
  }).schemas as Record<string, JsonSchema>;
  // Components are addressed by their name, not by an $id.
  return Object.fromEntries(Object.entries(converted).map(([name, { $id: _id, ...schema }]) => [name, schema]));
}

const IDEMPOTENCY_KEY_PARAMETER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Optional. A retry with the same key (per account and operation) joins the job still running under it, or receives ' +
    'the answer of the one that finished, instead of processing the file again; only a failed job runs again. The key ' +
    'belongs to one request: used with another map, other arguments or another file it is refused ' +
    '(`idempotency_key_reused`). 1 to 200 letters, digits, "-", "_", "." or ":".',
  schema: { type: 'string', pattern: '^[A-Za-z0-9_.:-]{1,200}$' },
};

/** What a client sends as the file of an example request. */
const EXAMPLE_FILES: Record<string, string> = {
  'map/upload': '{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[2.3376,48.8606]},"properties":{"title":"Louvre"}}]}',
  'map/append': 'lat,lon,title\n48.8606,2.3376,Louvre\n48.86,2.3266,Musée d’Orsay\n',
};

/**
 * Links from an answer to the operations its id leads to. JSON operations get the id in their
 * body (`requestBody`); a file operation takes its arguments in the argument header, as JSON,
 * which a link cannot build: `x-arguments` says where the value goes.
 */
function linksOf(operation: Operation, byPath: Map<string, Operation>): Record<string, object> | undefined {
  if (!operation.links) return undefined;
  return Object.fromEntries(
    Object.entries(operation.links).map(([name, link]) => {
      const target = byPath.get(link.operation);
      if (!target) throw new Error(`${operation.path} links to ${link.operation}, which is no operation`);
      const where =
        target.kind === 'json' ? { requestBody: link.arguments } : { 'x-arguments': { header: ARG_HEADER, values: link.arguments } };
      return [name, { operationId: camel(link.operation), description: link.description, ...where }];
    }),
  );
}

function operationObject(
  operation: Operation,
  names: { args: string; result: string },
  argsSchema: JsonSchema,
  byPath: Map<string, Operation>,
  publicUrl: string,
): object {
  const head = {
    operationId: camel(operation.path),
    tags: [operation.path.split('/')[0]!],
    summary: operation.summary,
    'x-codeSamples': codeSamplesOf(operation, publicUrl),
  };
  const links = linksOf(operation, byPath);
  const responses = {
    '200': {
      description:
        'Always HTTP 200. The answer is the result, or a failure object with `error` and `error_code` (see ErrorResult); ' +
        'past a rate limit, `error_code` `rate_limited` with `retry_after` and a Retry-After header (RateLimitedResult).',
      headers: { 'Retry-After': { description: 'With rate_limited only: whole seconds to wait.', schema: { type: 'integer', minimum: 1 } } },
      content: {
        'application/json': {
          schema: {
            oneOf: [
              schemaRef(names.result),
              schemaRef('ErrorResult'),
              { $ref: '#/components/schemas/RateLimitedResult' },
              ...(operation.failure ? [schemaRef(operation.failure.name)] : []),
            ],
          },
          example: operation.example.result,
        },
      },
      ...(links ? { links } : {}),
    },
  };
  if (operation.kind === 'json') {
    const required = Array.isArray(argsSchema.required) && argsSchema.required.length > 0;
    return {
      ...head,
      description: `${operation.description}\n\nArguments: a JSON object in the body (parsed as JSON whatever the Content-Type).`,
      requestBody: {
        required,
        content: { 'application/json': { schema: schemaRef(names.args), example: operation.example.args } },
      },
      responses,
    };
  }
  const size = 'At most 15 MB (no limit on an enterprise deployment); it may be sent compressed (Content-Encoding gzip, deflate or br).';
  return {
    ...head,
    description:
      `${operation.description}\n\nArguments: a JSON object in the \`${ARG_HEADER}\` header; the file is the raw request body` +
      (operation.bodyOptional ? ' (with file_type `empty` the request has no body).' : '.'),
    parameters: [
      {
        name: ARG_HEADER,
        in: 'header',
        required: true,
        description: 'The arguments as a JSON object (UTF-8, or ASCII with \\u escapes).',
        // OpenAPI 3.1: a parameter described by `content` has its example in the media type.
        content: { 'application/json': { schema: schemaRef(names.args), example: operation.example.args } },
      },
      ...(operation.idempotencyKey ? [IDEMPOTENCY_KEY_PARAMETER] : []),
    ],
    requestBody: {
      required: !operation.bodyOptional,
      description: operation.bodyOptional ? `The file as raw bytes; no body for file_type \`empty\`. ${size}` : `The file as raw bytes. ${size}`,
      content: {
        'application/octet-stream': {
          schema: { type: 'string', format: 'binary' },
          ...(EXAMPLE_FILES[operation.path] ? { example: EXAMPLE_FILES[operation.path] } : {}),
        },
      },
    },
    responses,
  };
}

const API_DESCRIPTION = [
  'Every operation is called with POST under `/api/1/`. JSON operations take their arguments as a JSON object in the body; ',
  `file operations take them as a JSON object in the \`${ARG_HEADER}\` header and the file as the raw body. `,
  'String arguments may not hold NUL characters or lone surrogates. A body may be compressed (Content-Encoding gzip, ',
  'deflate or br); all request headers together may take 1 MB.\n\n',
  'Every request carries `Authorization: Token <API_KEY>` (keys are created on the Settings page; the e-mail address ',
  'must be verified).\n\n',
  'Every answer has HTTP status 200 and `Cache-Control: no-store`. A failure is `{"error": "<message>", "error_code": "<code>"}`; ',
  'a success has no `error` field. The one exception: a request past its rate limit (per API key and per address; a file ',
  'operation, and map/get of a large map, cost more than a plain call) is answered HTTP 429 with a Retry-After header and ',
  '`{"error", "error_code": "rate_limited", "retry_after": <seconds>}`.\n\n',
  'Limits of the file operations: 15 MB per file and 2 minutes of processing; none on an enterprise deployment. ',
  'A map holds at most 500,000 items and 64 MB of GeoJSON.\n\n',
  'GIS tools read maps another way too: every map is a read-only OGC API – Features service at `{map url}/ogc` (GET; ',
  'a private map with the same `Authorization: Token <API_KEY>` header), described by its own OpenAPI document at `{map url}/ogc/api`.',
].join('');

/** The OpenAPI 3.1 document for the deployment whose base address is publicUrl. */
export function buildOpenApiDocument(publicUrl: string): object {
  const argsNames = new Map<z.ZodType, string>();
  const resultNames = new Map<z.ZodType, string>(Object.entries(NAMED_SCHEMAS).map(([name, schema]) => [schema, name]));
  resultNames.set(errorSchema, 'ErrorResult');
  resultNames.set(rateLimitedSchema, 'RateLimitedResult');
  const byPath = new Map(OPERATIONS.map((operation) => [operation.path, operation]));
  const named = OPERATIONS.map((operation) => {
    if (!argsNames.has(operation.args)) argsNames.set(operation.args, `${pascal(operation.path)}Args`);
    if (!resultNames.has(operation.result)) resultNames.set(operation.result, `${pascal(operation.path)}Result`);
    if (operation.failure) resultNames.set(operation.failure.schema, operation.failure.name);
    return { operation, names: { args: argsNames.get(operation.args)!, result: resultNames.get(operation.result)! } };
  });
  const schemas = { ...components(resultNames, 'output'), ...components(argsNames, 'input') };

  const paths: Record<string, object> = {};
  for (const { operation, names } of named) {
    paths[`/api/1/${operation.path}`] = { post: operationObject(operation, names, schemas[names.args]!, byPath, publicUrl) };
  }
  const tags = [...new Set(OPERATIONS.map((operation) => operation.path.split('/')[0]!))].map((name) => ({ name }));

  return {
    openapi: '3.1.0',
    info: { title: 'Map publishing service API', version: '1', description: API_DESCRIPTION },
    servers: [{ url: publicUrl }],
    security: [{ apiToken: [] }],
    tags,
    paths,
    components: {
      securitySchemes: {
        apiToken: {
          type: 'apiKey',
          in: 'header',
          name: 'Authorization',
          description: 'The value is `Token <API_KEY>`.',
        },
      },
      schemas,
    },
  };
}
