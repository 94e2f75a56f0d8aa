import { z } from 'zod';
import { mapRevision } from '../../../db/featureReads.js';
import { saveWebChanges } from '../../../db/webSave.js';
import { AppError } from '../../../lib/errors.js';
import { findLinkableImages } from '../../../db/media.js';
import { MAX_FEATURE_SAVE_ITEMS, imagesToComplete, planFeatureSave } from '../../../lib/featureSave.js';
import { featureImage } from '../../../lib/media/fields.js';
import { isObjectRecord } from '../../../lib/geojson/json-data.js';
import { MAX_FEATURES } from '../../../lib/geojson/model.js';
import { checkMapBytes } from '../../../lib/geojson/sizeLimits.js';
import { bodyBytesOf, callerOf, mapFor } from '../../context.js';
import { featureId, revision } from '../../featureArgs.js';
import { defineOperation } from '../../operation.js';
import { chargeMapRead } from '../../rateCharges.js';
import { mapId } from '../../schemas.js';

const max = MAX_FEATURE_SAVE_ITEMS.toLocaleString('en');

/** One feature of `features`: checked by the document model (invalid_geojson naming it by its index), shown as a Feature. */
const featureArgument = z.custom<Record<string, unknown>>(isObjectRecord, { message: 'must be a GeoJSON Feature object' }).meta({ documentedAs: 'Feature' });

/** The save_conflict answer: the error with the map's revision and the features in conflict. */
const saveConflict = z
  .strictObject({
    error: z.string().describe('A human-readable message naming the features'),
    error_code: z.literal('save_conflict'),
    revision: revision.describe('The map revision now'),
    conflicts: z.array(
      z.object({
        id: featureId,
        mine: z.enum(['changed', 'deleted']).describe('What this save did to it'),
        theirs: z.unknown().nullable().describe('The feature as it is now (a GeoJSON Feature), or null when it was deleted (or never there)'),
      }),
    ),
  })
  .describe('feature/save with a `revision`: features it changes or deletes were changed or deleted by someone else since; nothing was saved (HTTP 200)');

/**
 * feature/save: features added, changed and deleted by id, written by the web editor's save
 * (db/webSave.ts saveWebChanges: the same conflict check, the same write, a version kept the
 * same way). For the owner and editors (map/update's rule). The static image is not refreshed:
 * as after map/update, map/refresh_image renders it.
 */
export const operation = defineOperation(import.meta.url, {
  path: 'feature/save',
  kind: 'json',
  summary: 'Add, change and delete features of a map',
  description:
    'Writes in one transaction: each Feature of `features` without an `id` is added (it gets a new id, answered in `added_ids` ' +
    'in the order given), each with an `id` replaces that feature of the map whole (`feature_not_found` when the map has no such feature), ' +
    'and the features of `delete` are deleted (one already gone is no error). Features are checked as a map document\'s are: ' +
    '`invalid_geojson` names the first problem by its index in `features`, and a `group` must be a group of the map. ' +
    'Images and markers must have been uploaded by the owner or an editor; an `image` with its `id` alone gets `w`, `h`, `tip_color` and `avg_color` from the stored image, as with map/update. ' +
    `At most ${max} features and ids in all (\`too_many_features\`; a map holds at most 500,000). A \`revision\` the map has not reached is \`unknown_revision\`. ` +
    'With `revision` (the revision the client read, from feature/get, feature/list or map/changes), the save is refused with ' +
    '`save_conflict` when a feature it changes or deletes was changed or deleted by someone else since; `conflicts` names each ' +
    "(id, `mine`, `theirs`: the feature as it is now, or null) and nothing is saved. Other features changed meanwhile do not stop it (as the web editor's save). " +
    'Without `revision` the save overwrites. A save with nothing in `features` and `delete` writes nothing and answers the revision. Every save keeps a map version, as the web editor\'s saves do (the map page\'s History); ' +
    'the static image is not refreshed (map/refresh_image). The owner and editors may save (`permission_denied` for viewers).',
  args: z.strictObject({
    map_id: mapId,
    features: z.array(featureArgument).max(MAX_FEATURE_SAVE_ITEMS, `at most ${max} features`).default([]).describe('Features to add (no `id`) or to change (their `id`)'),
    delete: z.array(featureId).max(MAX_FEATURE_SAVE_ITEMS, `at most ${max} ids`).default([]).describe('Ids of features to delete'),
    revision: revision.optional().describe('The revision the changes were made on: a conflict is refused (left out: the save overwrites)'),
  }),
  result: z.object({
    revision: revision.describe('The map revision after the save'),
    added_ids: z.array(featureId).describe('The ids the added features got, in the order they were given'),
    added: z.number().int(),
    changed: z.number().int(),
    deleted: z.number().int().describe('Features deleted (ids already gone are not counted)'),
  }),
  example: {
    args: {
      map_id: 5480394431770113,
      revision: 12,
      features: [
        { type: 'Feature', geometry: { type: 'Point', coordinates: [2.2945, 48.8584] }, properties: { title: 'Eiffel Tower' } },
        { type: 'Feature', id: 1, geometry: { type: 'Point', coordinates: [2.3376, 48.8606] }, properties: { title: 'Musée du Louvre', group: 1 } },
      ],
      delete: [2],
    },
    result: { revision: 13, added_ids: [3], added: 1, changed: 1, deleted: 1 },
  },
  failure: { name: 'SaveConflictResult', schema: saveConflict },
  links: {
    ChangesSince: { operation: 'map/changes', description: 'What others changed after this save', arguments: { map_id: '$request.body#/map_id', since_revision: '$response.body#/revision' } },
  },
  async handle(ctx, { db }, args) {
    const items = args.features.length + args.delete.length;
    if (items > MAX_FEATURE_SAVE_ITEMS) {
      throw new AppError('too_many_features', `One save takes at most ${max} features and ids to delete in all; this one has ${items.toLocaleString('en')}. Split it, or import large sets as a file (map/append).`);
    }
    const { userId } = callerOf(ctx);
    await mapFor(db, args.map_id, userId, 'edit');
    // A large save costs what reading a map its size does (1, and more per whole MB of its body).
    await chargeMapRead(ctx, bodyBytesOf(ctx));
    const current = await mapRevision(db, args.map_id);
    if (current === undefined) throw new AppError('map_not_found', `There is no map with the id ${args.map_id}.`);
    if (args.revision !== undefined && args.revision > current) {
      throw new AppError('unknown_revision', `"revision": the map is at revision ${current}; ${args.revision} is not one of its revisions yet.`);
    }
    // Nothing to write: no version, the revision stays.
    if (args.features.length === 0 && args.delete.length === 0) {
      ctx.body = { revision: current, added_ids: [], added: 0, changed: 0, deleted: 0 };
      return;
    }
    // Images given by their id alone get their size and colours from the stored image (as map/update).
    const wanted = imagesToComplete(args.features);
    const images = new Map((wanted.length === 0 ? [] : await findLinkableImages(db, { mapId: args.map_id }, wanted)).map((image) => [image.id, featureImage(image)]));
    const outcome = await saveWebChanges(db, {
      mapId: args.map_id,
      userId,
      // Without a revision no row counts as changed since: only missing features stop the save.
      baseRevision: args.revision ?? Number.MAX_SAFE_INTEGER,
      deletedGroups: [],
      plan: (current) => planFeatureSave(args, current, images),
      check: (after) => {
        checkMapBytes(after.contentBytes);
        if (after.featureCount > MAX_FEATURES) {
          throw new AppError('too_many_features', `The map would hold ${after.featureCount.toLocaleString('en')} items; a map holds at most ${MAX_FEATURES.toLocaleString('en')}.`);
        }
      },
    });
    if (!outcome) throw new AppError('map_not_found', `There is no map with the id ${args.map_id}.`);
    if (!outcome.saved) {
      if (args.revision === undefined) {
        const ids = outcome.conflicts.map((c) => c.id);
        throw new AppError('feature_not_found', `The map has no feature${ids.length === 1 ? '' : 's'} ${ids.join(', ')}; nothing was saved. Leave "id" out to add a feature.`);
      }
      const ids = outcome.conflicts.map((c) => c.id);
      ctx.body = saveConflict.parse({
        error: `Feature${ids.length === 1 ? '' : 's'} ${ids.join(', ')} ${ids.length === 1 ? 'was' : 'were'} changed or deleted by someone else since revision ${args.revision}; nothing was saved. Read ${ids.length === 1 ? 'it' : 'them'} again (feature/get) and save on revision ${outcome.revision}.`,
        error_code: 'save_conflict',
        revision: outcome.revision,
        conflicts: outcome.conflicts.map((c) => ({ id: c.id, mine: c.mine, theirs: c.theirs === null ? null : JSON.parse(c.theirs) })),
      });
      return;
    }
    const addedIds = Object.entries(outcome.ids)
      .sort(([a], [b]) => Number(a) - Number(b))
      .map(([, id]) => id);
    ctx.body = { revision: outcome.revision, added_ids: addedIds, ...outcome.counts };
  },
});
