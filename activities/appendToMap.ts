// Appends a parsed document to a map under the map's row lock (no concurrent append is lost).
// Only the map's groups and largest feature id are read into this process; the appended
// features stream from the document file into the database, one at a time where their ids or
// groups change, as stored where they do not. Safe to retry: the request id makes the change
// happen at most once.
import { appendDocument, findMapRecord, findMembership } from '../db/maps.js';
import { accessTo, canEdit, canView } from '../lib/access.js';
import { AppError } from '../lib/errors.js';
import { planAppend } from '../lib/geojson/appendPlan.js';
import { featureArrayOf, featureBytes, featuresArrayText, readDocumentHead, readFeatures } from '../lib/formats/documentFile.js';
import { MAX_FEATURES, type MapFeature, type MapGroup } from '../lib/geojson/model.js';
import { checkMapBytes } from '../lib/geojson/sizeLimits.js';
import type { AppendParsedInput, AppendParsedResult } from '../lib/jobContracts.js';
import { summaryOf } from '../lib/mapSummary.js';
import type { ActivityDeps } from './deps.js';
import { failingOnBadInput } from './failures.js';

async function* mapEach(features: AsyncIterable<MapFeature>, place: (feature: MapFeature) => MapFeature): AsyncGenerator<MapFeature> {
  for await (const feature of features) yield place(feature);
}

export function makeAppendToMap({ db, blobs }: ActivityDeps) {
  return async function appendToMap(input: AppendParsedInput): Promise<AppendParsedResult> {
    return failingOnBadInput(async () => {
      const map = await findMapRecord(db, input.mapId);
      const access = map ? accessTo(map, input.userId, await findMembership(db, input.mapId, input.userId)) : 'none';
      if (!canView(access)) throw new AppError('map_not_found', `There is no map with the id ${input.mapId}.`);
      if (!canEdit(access)) throw new AppError('permission_denied', 'Only the owner and editors may change this map.');
      const file = { key: input.parsed.parsedKey, featuresBytes: input.parsed.featuresBytes };
      const head = await readDocumentHead(blobs, file); // the document without its features
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
          const plan = planAppend(target, head, { newGroupTitle: input.newGroup, keepSubgroups: input.keepSubgroups });
          // Features that keep their ids (1, 2, 3 … after none) and groups go in as stored.
          const unchanged = plan.keepsGroups && input.parsed.sequentialIds && current.maxFeatureId === 0;
          const features = unchanged
            ? featuresArrayText(featureBytes(blobs, file))
            : featureArrayOf(mapEach(readFeatures(blobs, file), plan.placeFeature));
          return { features, groupsToAdd: plan.groupsToAdd, extras: plan.extras, media: input.parsed.media, added };
        },
        checkSize: checkMapBytes,
        deadline: input.deadline,
      });
      if (!outcome) throw new AppError('map_not_found', `There is no map with the id ${input.mapId}.`);
      return { map: summaryOf(outcome.record), added: outcome.added };
    });
  };
}
