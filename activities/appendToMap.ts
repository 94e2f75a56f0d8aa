// Appends a parsed document to a map under the map's row lock (no concurrent append is lost).
// Safe to retry: the request id makes the change happen at most once.
import { changeMapContent, findMapRecord, findMembership } from '../db/maps.js';
import { accessTo, canEdit, canView } from '../lib/access.js';
import { AppError } from '../lib/errors.js';
import { appendToMapDocument, mediaReferences, type MapDocument } from '../lib/geojson/model.js';
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
      const incoming = JSON.parse((await blobs.read(input.parsedKey)).toString('utf8')) as MapDocument;
      const outcome = await changeMapContent<MapDocument>(db, input.mapId, input.requestId, (current) => {
        const { document, added } = appendToMapDocument(current, incoming, {
          newGroupTitle: input.newGroup,
          keepSubgroups: input.keepSubgroups,
        });
        return { geojson: document, media: mediaReferences(document), added };
      });
      if (!outcome) throw new AppError('map_not_found', `There is no map with the id ${input.mapId}.`);
      return { map: summaryOf(outcome.record), added: outcome.added };
    });
  };
}
