// Appends a parsed document to a map under the map's row lock (no concurrent append is lost).
// Only the map's head and next feature id are read into this process; the appended feature rows
// stream from the document file into the database: as the parser wrote them when they keep
// their ids and groups (the first import into a map), with their ids changed in the text
// otherwise, parsed and written again only where their group changes. Safe to retry: the
// request id makes the change happen at most once.
import { findMapWithRole } from '../db/maps.js';
import { appendFeatures, type PreparedAppend } from '../db/mapFeatures.js';
import { requireMapAccess } from '../lib/access.js';
import { AppError } from '../lib/errors.js';
import { planAppendTo, type AppendPlan } from '../lib/geojson/appendPlan.js';
import { readDocumentHead, readRows, rowLineBytes, type DocumentFile, type DocumentFileSource } from '../lib/formats/documentFile.js';
import { joinedLines, rowLine } from '../lib/formats/featureRows.js';
import { checkMapBytes } from '../lib/geojson/sizeLimits.js';
import type { AppendParsedInput, AppendParsedResult } from '../lib/jobContracts.js';
import { summaryOf } from '../lib/mapSummary.js';
import { MAX_EVENT_IDS } from '../lib/webhooks/model.js';
import type { ActivityDeps } from './deps.js';
import { failingOnBadInput } from './failures.js';
import { faultAfterLines, faultPoint } from './faultPoints.js';

/** The file's rows placed into the map, as lines; counts the bytes of their texts and the largest id. */
function placedLines(source: DocumentFileSource, file: DocumentFile, plan: AppendPlan) {
  const written = { featureBytes: 0, maxId: 0 };
  async function* lines(): AsyncGenerator<string> {
    for await (const row of readRows(source, file)) {
      const placed = plan.placeRow(row);
      written.featureBytes += Buffer.byteLength(placed.text);
      if (placed.id > written.maxId) written.maxId = placed.id;
      yield rowLine(placed);
    }
  }
  return { lines: joinedLines(lines()), written };
}

export function makeAppendToMap(deps: ActivityDeps) {
  return async function appendToMap(input: AppendParsedInput): Promise<AppendParsedResult> {
    return failingOnBadInput(() => appendParsedFile(deps, input));
  };
}

/** Appends a parsed document file (parseFile's) to the map: what appendToMap does. */
export async function appendParsedFile({ db, blobs }: ActivityDeps, input: AppendParsedInput): Promise<AppendParsedResult> {
  requireMapAccess(await findMapWithRole(db, input.mapId, input.userId), input.mapId, input.userId, 'edit');
  const parsed = input.parsed;
  const file = { key: parsed.parsedKey, rowBytes: parsed.rowBytes };
  const fileHead = await readDocumentHead(blobs, file); // the document without its features
  const outcome = await appendFeatures(db, {
    mapId: input.mapId,
    requestId: input.requestId,
    userId: input.userId,
    prepare: (current): PreparedAppend => {
      const { plan, head } = planAppendTo(current, parsed.features, fileHead, { newGroupTitle: input.newGroup, keepSubgroups: input.keepSubgroups });
      const common = { head, added: parsed.features, media: parsed.media };
      if (plan.keepsGroups && parsed.sequentialIds && current.nextFeatureId === 1) {
        // The features keep their ids (1, 2, 3 …) and groups: they go in as the parser wrote them.
        return {
          ...common,
          lines: faultAfterLines(rowLineBytes(blobs, file)),
          written: () => ({ featureBytes: parsed.featureBytes, nextFeatureId: parsed.maxFeatureId + 1 }),
        };
      }
      const placed = placedLines(blobs, file, plan);
      return { ...common, lines: faultAfterLines(placed.lines), written: () => ({ featureBytes: placed.written.featureBytes, nextFeatureId: placed.written.maxId + 1 }) };
    },
    checkSize: checkMapBytes,
    deadline: input.deadline,
    maxIds: MAX_EVENT_IDS,
  });
  if (!outcome) throw new AppError('map_not_found', `There is no map with the id ${input.mapId}.`);
  await faultPoint('after-commit');
  return { map: summaryOf(outcome.record), added: outcome.added, revision: outcome.revision, addedIds: outcome.addedIds };
}
