// Appends a parsed document to a map under the map's row lock (no concurrent append is lost).
// Only the map's groups and largest feature id are read into this process; PostgreSQL joins
// the features. Safe to retry: the request id makes the change happen at most once.
import { appendDocument, findMapRecord, findMembership } from '../db/maps.js';
import { accessTo, canEdit, canView } from '../lib/access.js';
import { AppError } from '../lib/errors.js';
import { prepareAppend } from '../lib/geojson/appendPlan.js';
import { splitFramed } from '../lib/formats/framedDocument.js';
import { MAX_FEATURES, type MapDocument, type MapFeature, type MapGroup } from '../lib/geojson/model.js';
import type { AppendParsedInput, AppendParsedResult } from '../lib/jobContracts.js';
import { summaryOf } from '../lib/mapSummary.js';
import type { ActivityDeps } from './deps.js';
import { failingOnBadInput } from './failures.js';

export function makeAppendToMap({ db, blobs }: ActivityDeps) {
  return async function appendToMap(input: AppendParsedInput): Promise<AppendParsedResult> {
    return failingOnBadInput(async () => {
      const map = await findMapRecord(db, input.mapId);
      const access = map ? accessTo(map, input.userId, await findMembership(db, input.mapId, input.userId)) : 'none';
      if (!canView(access)) throw new AppError('map_not_found', `There is no map with the id ${input.mapId}.`);
      if (!canEdit(access)) throw new AppError('permission_denied', 'Only the owner and editors may change this map.');
      const parts = splitFramed((await blobs.read(input.parsed.parsedKey)).toString('utf8'));
      const head = JSON.parse(parts.head) as MapDocument; // without its features
      const added = input.parsed.features;
      const outcome = await appendDocument(db, {
        mapId: input.mapId,
        requestId: input.requestId,
        prepare: (current) => {
          const total = current.featureCount + added;
          if (total > MAX_FEATURES) {
            throw new AppError('too_many_features', `The map would have ${total} items; a map holds at most ${MAX_FEATURES}.`);
          }
          const target = { groups: current.groups as MapGroup[], maxFeatureId: current.maxFeatureId };
          const options = { newGroupTitle: input.newGroup, keepSubgroups: input.keepSubgroups };
          // Into an empty map, without a new group, the features keep their ids and groups:
          // their text goes to the database as it is.
          const unchanged = input.parsed.sequentialIds && current.featureCount === 0 && current.groups.length === 0 && !input.newGroup;
          const incoming = { ...head, features: unchanged ? [] : (JSON.parse(parts.features) as MapFeature[]) };
          const { features, groupsToAdd, extras } = prepareAppend(target, incoming, options);
          const featuresText = unchanged ? parts.features : JSON.stringify(features);
          return { featuresText, groupsToAdd, extras, media: input.parsed.media, added };
        },
      });
      if (!outcome) throw new AppError('map_not_found', `There is no map with the id ${input.mapId}.`);
      return { map: summaryOf(outcome.record), added: outcome.added };
    });
  };
}
