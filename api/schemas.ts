// The arguments and answers of every operation, as zod schemas: the handlers validate with
// them and scripts/openapi.ts generates the OpenAPI document from them.
import { z } from 'zod';
import { BASEMAP_IDS } from '../lib/basemaps.js';
import { APPEND_FILE_TYPES, UPLOAD_FILE_TYPES } from '../lib/jobContracts.js';

export const mapId = z
  .union([z.number().int().positive().max(Number.MAX_SAFE_INTEGER), z.string().regex(/^[1-9]\d{0,15}$/).transform(Number)])
  .describe('The id of a map (a number; a string of digits is accepted too)');

const settableVisibility = z.enum(['public', 'unlisted', 'private']);
const visibility = z.enum(['public', 'unlisted', 'private', 'select']);
const title = z.string().max(500);
const description = z.string().max(100_000);
const shortName = z.string().max(200).describe('A preference; the final short name is returned');

export const mapListArgs = z.strictObject({});
export const mapGetArgs = z.strictObject({ map_id: mapId });

export const mapUploadArgs = z.strictObject({
  file_type: z.enum(UPLOAD_FILE_TYPES),
  visibility: settableVisibility,
  title: title.optional(),
  description: description.optional(),
  short_name: shortName.optional(),
});

export const mapUpdateArgs = z.strictObject({
  map_id: mapId,
  title: title.optional(),
  short_name: shortName.optional(),
  description: description.optional(),
  geojson: z.record(z.string(), z.unknown()).optional().describe('A map GeoJSON document; replaces the whole content'),
  basemap: z.enum(BASEMAP_IDS).optional(),
  visibility: settableVisibility.optional(),
});

export const mapAppendArgs = z.strictObject({
  map_id: mapId,
  file_type: z.enum(APPEND_FILE_TYPES),
  new_group: z.string().trim().min(1).max(500).optional(),
});

export const mapSummary = z.object({
  id: z.number().int(),
  url: z.string(),
  owner: z.string(),
  short_name: z.string(),
  title: z.string(),
  visibility,
});

export const importSummary = z.object({
  features: z.number().int().describe('Features imported'),
  skipped: z.array(z.object({ reason: z.string(), line: z.number().int().optional() })),
});

export const mapListResult = z.object({
  owner: z.array(mapSummary),
  editor: z.array(mapSummary),
  viewer: z.array(mapSummary),
});

export const mapDetail = mapSummary.extend({
  description: z.string(),
  geojson: z.record(z.string(), z.unknown()),
  basemap: z.string(),
  collaborate: z.boolean(),
  viewer_users: z.array(z.string()),
  editor_users: z.array(z.string()),
  created_date: z.string().describe('ISO 8601, UTC'),
  modified_date: z.string().describe('ISO 8601, UTC'),
  images: z.array(z.string()),
  markers: z.array(z.string()),
});

export const mapFileResult = mapSummary.extend({ import: importSummary.optional() });

export const errorResult = z.object({ error: z.string(), error_code: z.string() });

const valueAt = (input: unknown, path: PropertyKey[]): unknown =>
  path.reduce<unknown>((value, key) => (value && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key] : undefined), input);

/** The first problem, readable: `"map_id" is required`, `"visibility" must be one of …`. */
export function describeZodError(error: z.ZodError, input: unknown): string {
  const issue = error.issues[0]!;
  const where = issue.path.length > 0 ? issue.path.join('.') : 'arguments';
  if (issue.code === 'unrecognized_keys') return `unknown argument ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
  if (issue.path.length > 0 && valueAt(input, issue.path) === undefined) return `"${where}" is required`;
  if (issue.code === 'invalid_value') {
    return `"${where}" must be one of ${issue.values.map((v) => String(v)).join(', ')}`;
  }
  return `"${where}": ${issue.message}`;
}
