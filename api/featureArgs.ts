// What the per-feature operations (feature/get, feature/list, feature/save, map/changes) share:
// feature ids, revisions, and their answers' features as JSON text put together from the stored
// texts (never parsed on the way out, as map/get's document).
import { z } from 'zod';
import { featureSchema } from './geojsonSchema.js';

export const featureId = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).describe('A feature id (the `id` of a map GeoJSON Feature)');

export const revision = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).describe("A map revision: every write of the map's content moves it on by 1");

/** Most ids feature/get reads at once. */
export const MAX_GET_IDS = 1_000;

/** feature/list's page size: the default and the most. */
export const DEFAULT_PAGE = 1_000;
export const MAX_PAGE = 10_000;
/** A page ends once it holds this many bytes of features (its first feature always is in it). */
export const MAX_PAGE_BYTES = 8 * 1024 * 1024;

/** The answer's features, shown as Features in the document (the texts go out as stored). */
export const featuresResult = z.array(featureSchema).describe('GeoJSON Features, each with its `id`');

/** `{"type":"FeatureCollection",<fields>,"features":[<texts>]}`. */
export function featureCollectionText(fields: Record<string, unknown>, texts: readonly string[]): string {
  const head = JSON.stringify({ type: 'FeatureCollection', ...fields });
  return `${head.slice(0, -1)},"features":[${texts.join(',')}]}`;
}
