import { z } from 'zod';
import { featuresByIds } from '../../../db/featureReads.js';
import { AppError } from '../../../lib/errors.js';
import { callerOf, mapFor } from '../../context.js';
import { MAX_GET_IDS, featureCollectionText, featureId, featuresResult, revision } from '../../featureArgs.js';
import { defineOperation } from '../../operation.js';
import { chargeMapRead } from '../../rateCharges.js';
import { linkKey, mapId } from '../../schemas.js';

/** feature/get: some features of a map by id, for whoever may see the map (map/get's rule). */
export const operation = defineOperation(import.meta.url, {
  path: 'feature/get',
  kind: 'json',
  summary: 'Read features of a map by id',
  description:
    `Answers the map's features with these ids (at most ${MAX_GET_IDS.toLocaleString('en')} ids; an id given twice is answered once) as a GeoJSON ` +
    'FeatureCollection, in the order asked, with the revision they were read at. Ids the map does not have (deleted, or never ' +
    'there) are not an error: they are listed in `missing`, so a client keeping a copy learns what to drop. Who may read is ' +
    "map/get's rule (an unlisted map with its `link_key`); a map the caller may not see is `map_not_found`.",
  args: z.strictObject({
    map_id: mapId,
    ids: z.array(featureId).min(1).max(MAX_GET_IDS, `at most ${MAX_GET_IDS} ids`).describe(`Feature ids, 1 to ${MAX_GET_IDS}`),
    link_key: linkKey.optional(),
  }),
  result: z.object({
    type: z.literal('FeatureCollection'),
    revision: revision.describe('The map revision the features were read at'),
    missing: z.array(featureId).describe('The ids asked for that the map does not have'),
    features: featuresResult,
  }),
  example: {
    args: { map_id: 5480394431770113, ids: [1, 7] },
    result: {
      type: 'FeatureCollection',
      revision: 12,
      missing: [7],
      features: [{ type: 'Feature', id: 1, geometry: { type: 'Point', coordinates: [2.3376, 48.8606] }, properties: { title: 'Louvre', group: 1 } }],
    },
  },
  links: {
    SaveFeatures: { operation: 'feature/save', description: 'Change them, refused if someone changed them since this read', arguments: { map_id: '$request.body#/map_id', revision: '$response.body#/revision' } },
  },
  async handle(ctx, { db }, { map_id, ids, link_key }) {
    await mapFor(db, map_id, callerOf(ctx).userId, 'view', link_key);
    const read = await featuresByIds(db, map_id, ids);
    if (!read) throw new AppError('map_not_found', `There is no map with the id ${map_id}.`);
    await chargeMapRead(ctx, read.features.reduce((sum, feature) => sum + feature.text.length, 0));
    const found = new Set(read.features.map((feature) => feature.id));
    const missing = [...new Set(ids)].filter((id) => !found.has(id));
    ctx.type = 'application/json';
    ctx.body = featureCollectionText({ revision: read.revision, missing }, read.features.map((feature) => feature.text));
  },
});
