// What the operations share in their argument and answer schemas (zod): the handlers validate
// with them and openapi.ts documents them. Each operation's own argument schema lives in its
// file under routes/.
import { z } from 'zod';
import { mapGeoJsonSchema } from './geojsonSchema.js';
import { BASEMAPS, basemapById, basemapCatalogue } from '../lib/basemaps.js';
import { contentOfDocument, type DocumentContent } from '../lib/formats/documentContent.js';
import { parseMapDocument } from '../lib/geojson/model.js';
import { isObjectRecord, stringProblem } from '../lib/geojson/json-data.js';
import { LINK_KEY_PATTERN } from '../lib/linkKeys.js';

/**
 * Up to 16 digits, at most 2^53 − 1 (new maps' ids are random below 2^53): every such number is
 * exact in JavaScript (a larger one could name another map).
 */
/**
 * A pattern of the positive whole numbers written without leading zeros up to `max` (digits): the
 * shorter ones, then, for each digit of max, the numbers equal to it before that digit and lower
 * at it, then max itself. The OpenAPI document shows it, so a client (or a generator of requests)
 * knows that "9007199254740992" is no map id without trying.
 */
function notAbove(max: string): RegExp {
  const range = (low: number, high: number) => (low === high ? String(low) : `[${low}-${high}]`);
  const rest = (count: number) => (count === 0 ? '' : count === 1 ? '\\d' : `\\d{${count}}`);
  const choices = max.length > 1 ? [`[1-9]\\d{0,${max.length - 2}}`] : [];
  for (let i = 0; i < max.length; i++) {
    const low = i === 0 ? 1 : 0;
    const digit = Number(max[i]);
    if (digit > low) choices.push(`${max.slice(0, i)}${range(low, digit - 1)}${rest(max.length - i - 1)}`);
  }
  choices.push(max);
  return new RegExp(`^(?:${choices.join('|')})$`);
}

const digits = z
  .string()
  .regex(notAbove(String(Number.MAX_SAFE_INTEGER)), 'must be a map id: digits, not starting with 0, at most 9007199254740991')
  .refine((value) => Number.isSafeInteger(Number(value)), 'must be a map id: at most 9007199254740991')
  .transform(Number);

export const mapId = z
  .union([z.number().int().positive().max(Number.MAX_SAFE_INTEGER), digits], {
    error: 'must be a map id: a positive whole number up to 9007199254740991, or a string of its digits',
  })
  .describe('The id of a map (a number; a string of digits is accepted too)');

/** An unlisted map's link key (lib/linkKeys.ts): the part of its link after `~`. */
export const linkKey = z
  .string()
  .regex(LINK_KEY_PATTERN, 'must be a link key: the 22 capital letters after "~" in the map\'s link')
  .describe("An unlisted map's link key: the 22 capital letters after `~` in its link (`url`)");

/**
 * Text an argument may hold, one rule for every string argument: no NUL character and no lone
 * surrogate (half of a UTF-16 pair), which PostgreSQL cannot store and which would otherwise be
 * silently replaced by U+FFFD.
 */
export const text = (max: number) =>
  z
    .string()
    .max(max)
    // The pattern shows the NUL rule in the OpenAPI document (lone surrogates JSON Schema cannot say).
    // eslint-disable-next-line no-control-regex -- the NUL character is what it is about
    .regex(/^[^\u0000]*$/, 'contains a NUL character (U+0000)')
    .superRefine((value, ctx) => {
      const problem = stringProblem(value);
      if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
    });

export const settableVisibility = z.enum(['public', 'unlisted', 'private']);
export const visibility = z.enum(['public', 'unlisted', 'private', 'select']);
export const title = text(500);
export const description = text(100_000);
export const shortName = text(200).describe('A preference; the final short name is returned');
// Not z.enum: the catalogue grows by the operator's basemaps at start (BASEMAPS_EXTRA). The same
// issue as an enum's, so a refusal lists the ids as one would.
export const basemapId = z
  .string()
  .superRefine((id, ctx) => {
    if (basemapById(id) === undefined) {
      const values = basemapCatalogue().map((basemap) => basemap.id);
      ctx.addIssue({ code: 'invalid_value', values, input: id, message: `must be one of ${values.join(', ')}` });
    }
  })
  .describe(`A basemap id of the catalogue (basemap/list): ${BASEMAPS.map((basemap) => basemap.id).join(', ')}, or one the operator added (BASEMAPS_EXTRA)`);

/**
 * map/update's `geojson`: checked by the document model (lib/geojson/model.ts, whose messages
 * name the first problem) into the text that is stored. The OpenAPI document shows it as the
 * MapGeoJSON schema (see openapi.ts).
 */
export const geojsonArgument = z
  .custom<Record<string, unknown>>(isObjectRecord, { message: 'must be a GeoJSON FeatureCollection object' })
  .transform((value): DocumentContent => contentOfDocument(parseMapDocument(value)))
  .meta({ documentedAs: 'MapGeoJSON' });

export const mapSummary = z.object({
  id: z.number().int(),
  url: z.url().describe('The map page'),
  owner: z.string(),
  short_name: z.string(),
  title: z.string(),
  visibility,
});

export const importSummary = z.object({
  features: z.number().int().describe('Features imported'),
  skipped: z
    .array(z.object({ reason: z.string(), line: z.number().int().optional() }))
    .describe('Items left out or changed, with their row or line: at most 100, then one entry counting the rest'),
});

export const mapGeoJson = mapGeoJsonSchema;

export const errorResult = z.object({ error: z.string(), error_code: z.string() });

const valueAt = (input: unknown, path: PropertyKey[]): unknown =>
  path.reduce<unknown>((value, key) => (value && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key] : undefined), input);

/** The first problem, readable: `"map_id" is required`, `"visibility" must be one of …`. */
export function describeZodError(error: z.ZodError, input: unknown): string {
  const issue = error.issues[0]!;
  const where = issue.path.length > 0 ? issue.path.join('.') : 'arguments';
  if (issue.code === 'unrecognized_keys') return `unknown argument ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}`;
  if (issue.path.length > 0 && valueAt(input, issue.path) === undefined) return `"${where}" is required`;
  if (issue.code === 'invalid_value') {
    return `"${where}" must be one of ${issue.values.map((v) => String(v)).join(', ')}`;
  }
  return `"${where}": ${issue.message}`;
}

export const mapFileResult = mapSummary.extend({
  import: importSummary.optional().describe('What the file held; absent for an empty map'),
});

const color = z.string().regex(/^#[0-9a-f]{6}$/);

export const imageUploadResult = z.object({
  image_id: z.string().describe("The image's id: a feature's `image.id`"),
  width: z.number().int().describe('Pixels, of the upright original'),
  height: z.number().int().describe('Pixels, of the upright original'),
  tip_color: color.describe("Colour at the bottom centre, where the popup's tip sits (#rrggbb)"),
  avg_color: color.describe('Average colour, shown before the image loads (#rrggbb)'),
  has_gps: z.boolean().describe('Whether the photo carries a GPS position'),
  geometry: z
    .object({ type: z.literal('Point'), coordinates: z.array(z.number()).length(2) })
    .nullable()
    .describe('Where the photo was taken, [longitude, latitude]; null without GPS'),
  date_str: z.string().nullable().describe('When the photo was taken, as readable text ("2024-06-01 14:03"); null when unknown'),
  date_iso: z.string().nullable().describe('When the photo was taken, ISO 8601 (with the offset when the camera wrote one); null when unknown'),
});

export const markerUploadResult = z.object({
  marker_id: z.string().describe("The marker's id: a feature's `marker_id`"),
});
