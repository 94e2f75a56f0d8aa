// The OpenAPI 3.0 document of /api/1/, generated from the zod schemas the handlers validate with
// (api/schemas.ts) and the route table (api/routes.ts), so the document cannot drift from the code.
// Served at GET /openapi.json and printed by `npm run openapi`.
import { z } from 'zod';
import { ERROR_CODES, type ErrorCode } from '../lib/errors.js';
import { ARG_HEADER } from './middleware/headerArgs.js';
import { OPERATIONS, type Operation } from './routes.js';
import {
  errorResult,
  importSummary,
  mapAppendArgs,
  mapDetail,
  mapFileResult,
  mapGetArgs,
  mapListArgs,
  mapListResult,
  mapSummary,
  mapUpdateArgs,
  mapUploadArgs,
} from './schemas.js';

/** What the document says about one operation beyond its path and argument style. */
export interface OperationDoc {
  summary: string;
  description: string;
  args: z.ZodType;
  result: z.ZodType;
  /** File operations: the body may be absent (map/upload with file_type `empty`). */
  bodyOptional?: boolean;
  /** File operations that accept an Idempotency-Key header. */
  idempotencyKey?: boolean;
}

const FILE_LIMITS =
  'Limits: the file may be at most 15 MB and its processing may take at most 2 minutes; ' +
  'an enterprise deployment has no upload limits.';

/** Every operation of OPERATIONS, by path: its arguments, its answer and its prose. */
export const OPERATION_DOCS: Record<string, OperationDoc> = {
  'map/list': {
    summary: 'List the maps the caller can access',
    description: 'No arguments (an empty body). Answers the map summaries grouped by role: owner, editor and viewer.',
    args: mapListArgs,
    result: mapListResult,
  },
  'map/get': {
    summary: 'Read one map in full',
    description: 'Answers the map with its settings, members, dates, GeoJSON document and the images and markers it uses.',
    args: mapGetArgs,
    result: mapDetail,
  },
  'map/upload': {
    summary: 'Create a map, empty or from a file',
    description:
      'Creates a new map from the file in the body (KML or KMZ as `kml`, GPX, or GeoJSON as its JSON text). ' +
      'With file_type `empty` an empty map is created and no body is sent. ' +
      'The requested short_name is a preference: the final URL is returned. ' +
      `The map's static image is generated automatically. ${FILE_LIMITS}`,
    args: mapUploadArgs,
    result: mapFileResult,
    bodyOptional: true,
    idempotencyKey: true,
  },
  'map/update': {
    summary: 'Change map settings or replace its GeoJSON',
    description:
      'Only the arguments included are changed. A `geojson` argument replaces the whole content of the map; ' +
      'images and markers it references by id are linked again without a new upload. ' +
      'The static image is not refreshed and no map version is saved.',
    args: mapUpdateArgs,
    result: mapSummary,
  },
  'map/append': {
    summary: 'Add the content of a file to a map',
    description:
      'Appends the features of the file in the body to an existing map (`kml` also for KMZ, `excel` for XLS, XLSX and ODS). ' +
      'With new_group, the imported items are placed in a new group of that title (for tables, the group becomes the import root ' +
      'and the subgroups of the source are kept below it). Concurrent appends are never lost. ' +
      `The static image is not refreshed and no map version is saved. ${FILE_LIMITS}`,
    args: mapAppendArgs,
    result: mapFileResult,
    idempotencyKey: true,
  },
};

/** Response schemas with a component name of their own (others get `<Operation>Result`). */
const NAMED_RESULTS: Record<string, z.ZodType> = {
  MapSummary: mapSummary,
  ImportSummary: importSummary,
  MapListResult: mapListResult,
  MapDetail: mapDetail,
  MapFileResult: mapFileResult,
};

const errorCodes = Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]];

/** errorResult with the codes spelled out: the schema clients match failures against. */
const errorSchema = errorResult
  .extend({
    error: z.string().describe('A human-readable message naming the problem.'),
    error_code: z
      .enum(errorCodes)
      .describe(
        `A stable code for the failure:\n\n${errorCodes.map((code) => `- \`${code}\`: ${ERROR_CODES[code]}`).join('\n')}`,
      ),
  })
  .describe('A failure (still HTTP 200). A successful answer has no `error` field.');

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

/** Converts registered zod schemas to named OpenAPI 3.0 components; shared ones become $refs. */
function components(schemas: Map<z.ZodType, string>, io: 'input' | 'output'): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [schema, id] of schemas) registry.add(schema, { id });
  const converted = z.toJSONSchema(registry, {
    target: 'openapi-3.0',
    io,
    uri: (id) => `#/components/schemas/${id}`,
  }).schemas as Record<string, JsonSchema>;
  // OpenAPI 3.0 schema objects have no $id; components are addressed by their name.
  return Object.fromEntries(Object.entries(converted).map(([name, { $id: _id, ...schema }]) => [name, schema]));
}

function docFor(op: Operation): OperationDoc {
  const doc = OPERATION_DOCS[op.path];
  if (!doc) throw new Error(`api/openapi.ts has no OPERATION_DOCS entry for the operation ${op.path}.`);
  return doc;
}

const IDEMPOTENCY_KEY_PARAMETER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Optional. A retry with the same key (per account) joins the job still running under it, or receives the ' +
    'answer of the one that finished, instead of processing the file again; only a failed job runs again. ' +
    'Up to 200 letters, digits, "-", "_", "." or ":".',
  schema: { type: 'string', pattern: '^[A-Za-z0-9_.:-]{1,200}$' },
};

function operationObject(op: Operation, doc: OperationDoc, argsName: string, resultName: string, argsSchema: JsonSchema) {
  const head = { operationId: camel(op.path), tags: [op.path.split('/')[0]!], summary: doc.summary };
  const responses = {
    '200': {
      description:
        'Always HTTP 200. The answer is the result, or a failure object with `error` and `error_code` (see ErrorResult).',
      content: { 'application/json': { schema: { oneOf: [schemaRef(resultName), schemaRef('ErrorResult')] } } },
    },
  };
  if (op.args === 'json') {
    const hasRequiredArgs = Array.isArray(argsSchema.required) && argsSchema.required.length > 0;
    return {
      ...head,
      description: `${doc.description}\n\nArguments: a JSON object in the body (parsed as JSON whatever the Content-Type).`,
      requestBody: {
        required: hasRequiredArgs,
        content: { 'application/json': { schema: schemaRef(argsName) } },
      },
      responses,
    };
  }
  return {
    ...head,
    description:
      `${doc.description}\n\nArguments: a JSON object in the \`${ARG_HEADER}\` header; the file is the raw request body` +
      (doc.bodyOptional ? ' (with file_type `empty` the request has no body).' : '.'),
    parameters: [
      {
        name: ARG_HEADER,
        in: 'header',
        required: true,
        description: 'The arguments as a JSON object (UTF-8, or ASCII with \\u escapes).',
        content: { 'application/json': { schema: schemaRef(argsName) } },
      },
      ...(doc.idempotencyKey ? [IDEMPOTENCY_KEY_PARAMETER] : []),
    ],
    requestBody: {
      required: !doc.bodyOptional,
      description: doc.bodyOptional
        ? 'The file as raw bytes; no body for file_type `empty`. At most 15 MB (no limit on an enterprise deployment).'
        : 'The file as raw bytes. At most 15 MB (no limit on an enterprise deployment).',
      content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
    },
    responses,
  };
}

const API_DESCRIPTION = [
  'Every operation is called with POST under `/api/1/`. JSON operations take their arguments as a JSON object in the body; ',
  `file operations take them as a JSON object in the \`${ARG_HEADER}\` header and the file as the raw body.\n\n`,
  'Every request carries `Authorization: Token <API_KEY>` (keys are created on the Settings page; the e-mail address ',
  'must be verified).\n\n',
  'Every answer has HTTP status 200. A failure is `{"error": "<message>", "error_code": "<code>"}`; a success has no ',
  '`error` field.\n\n',
  'Limits of the file operations: 15 MB per file and 2 minutes of processing; none on an enterprise deployment.',
].join('');

/** The OpenAPI 3.0 document for the deployment whose base address is publicUrl. */
export function buildOpenApiDocument(publicUrl: string): object {
  const argsNames = new Map<z.ZodType, string>();
  const resultNames = new Map<z.ZodType, string>(Object.entries(NAMED_RESULTS).map(([name, schema]) => [schema, name]));
  resultNames.set(errorSchema, 'ErrorResult');
  const names = OPERATIONS.map((op) => {
    const doc = docFor(op);
    if (!argsNames.has(doc.args)) argsNames.set(doc.args, `${pascal(op.path)}Args`);
    if (!resultNames.has(doc.result)) resultNames.set(doc.result, `${pascal(op.path)}Result`);
    return { op, doc, argsName: argsNames.get(doc.args)!, resultName: resultNames.get(doc.result)! };
  });
  const schemas = { ...components(argsNames, 'input'), ...components(resultNames, 'output') };

  const paths: Record<string, object> = {};
  for (const { op, doc, argsName, resultName } of names) {
    paths[`/api/1/${op.path}`] = { post: operationObject(op, doc, argsName, resultName, schemas[argsName]!) };
  }
  const tags = [...new Set(OPERATIONS.map((op) => op.path.split('/')[0]!))].map((name) => ({ name }));

  return {
    openapi: '3.0.3',
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
