import { z } from 'zod';
import { changesSince } from '../../../db/mapChanges.js';
import { AppError } from '../../../lib/errors.js';
import { callerOf, mapFor } from '../../context.js';
import { featureId, revision } from '../../featureArgs.js';
import { defineOperation } from '../../operation.js';
import { linkKey, mapId } from '../../schemas.js';

/**
 * map/changes: the ids of the features added, changed and deleted since a revision, from what
 * the map's versions record (db/mapChanges.ts), for whoever may see the map (map/get's rule).
 */
export const operation = defineOperation(import.meta.url, {
  path: 'map/changes',
  kind: 'json',
  summary: "What changed in a map's features since a revision",
  description:
    'Answers the map\'s current `revision` and the ids of the features `added`, `changed` and `deleted` since `since_revision` ' +
    '(each list sorted; a feature added and deleted since is in none, one changed back to what it was is not `changed`). ' +
    'Every write of the content counts: feature/save, the web editor, map/update with a `geojson`, map/append, restores of versions. ' +
    'A client keeping a copy reads the added and changed ones with feature/get, drops the deleted ones, and asks next time ' +
    'from the `revision` answered. The answer is worked out from the map\'s kept versions: `since_revision` older than the ' +
    'oldest kept version (versions are pruned after a while) is `revision_not_kept`, telling the client to read the whole map ' +
    'again (feature/list); one after the current revision is `unknown_revision`. Who may read is map/get\'s rule.',
  args: z.strictObject({
    map_id: mapId,
    since_revision: revision.describe('A revision the client read (feature/get, feature/list, feature/save, an earlier map/changes)'),
    link_key: linkKey.optional(),
  }),
  result: z.object({
    revision: revision.describe('The map revision now: the next call\'s since_revision'),
    since_revision: revision,
    added: z.array(featureId),
    changed: z.array(featureId),
    deleted: z.array(featureId),
  }),
  example: {
    args: { map_id: 5480394431770113, since_revision: 12 },
    result: { revision: 14, since_revision: 12, added: [3, 4], changed: [1], deleted: [2] },
  },
  links: {
    GetChangedFeatures: { operation: 'feature/get', description: 'Read the changed features', arguments: { map_id: '$request.body#/map_id', ids: '$response.body#/changed' } },
    ChangesSince: { operation: 'map/changes', description: 'Follow on from the current revision', arguments: { map_id: '$request.body#/map_id', since_revision: '$response.body#/revision' } },
  },
  async handle(ctx, { db }, { map_id, since_revision, link_key }) {
    await mapFor(db, map_id, callerOf(ctx).userId, 'view', link_key);
    const changes = await changesSince(db, map_id, since_revision);
    if (!changes) throw new AppError('map_not_found', `There is no map with the id ${map_id}.`);
    if (changes.kind === 'ahead') {
      throw new AppError('unknown_revision', `"since_revision": the map is at revision ${changes.revision}; ${since_revision} is not one of its revisions yet.`);
    }
    if (changes.kind === 'not_kept') {
      throw new AppError(
        'revision_not_kept',
        `The map's changes since revision ${since_revision} are no longer kept${changes.oldest === null ? '' : ` (the oldest kept is ${changes.oldest})`}. ` +
          `Read the whole map again with feature/list (or map/get) and ask for changes from revision ${changes.revision} on.`,
      );
    }
    ctx.body = { revision: changes.revision, since_revision, added: changes.added, changed: changes.changed, deleted: changes.deleted };
  },
});
