// map/append in one activity (issue 27): the parser thread sends the feature rows as it writes
// them (rowsFromThread.ts) and they go into the map's COPY while the file is still being parsed,
// numbered from a block of ids reserved beforehand (db/streamedAppend.ts). The map's row lock is
// taken only once the file is parsed whole, for the head, counters and revision. A file whose rows
// cannot go in as they were streamed — media to store and link, or group ids the map uses
// already — is rolled back and written the other way (appendToMap's: the document file placed
// into the map), still within this activity; a `new_group` append, whose rows all change group,
// goes that way from the start.
// The activity keeps the processing limit itself: the parse stops at the deadline and nothing
// commits after it, so its answer is the request's outcome.
import fs from 'node:fs';
import { Context } from '@temporalio/activity';
import { TimeLimitReached } from '../db/errors.js';
import { findMapWithRole } from '../db/maps.js';
import { appendStreamedRows, releaseFeatureIds, reserveFeatureIds, type StreamedFinish } from '../db/streamedAppend.js';
import { requireMapAccess } from '../lib/access.js';
import { AppError } from '../lib/errors.js';
import { localRowLineBytes, readLocalDocumentHead } from '../lib/formats/documentFile.js';
import { capSkipped } from '../lib/formats/skipped.js';
import { planAppendTo } from '../lib/geojson/appendPlan.js';
import { MAX_FEATURES } from '../lib/geojson/model.js';
import { checkMapBytes } from '../lib/geojson/sizeLimits.js';
import { GUESSED_FORMAT_FILE_TYPES, keepsSubgroups, type AppendDuringParseInput, type AppendMapResult } from '../lib/jobContracts.js';
import { summaryOf } from '../lib/mapSummary.js';
import type { MapContentState } from '../db/mapFeatures.js';
import { MAX_EVENT_IDS } from '../lib/webhooks/model.js';
import { appendParsedFile } from './appendToMap.js';
import type { ActivityDeps } from './deps.js';
import { failingOnBadInput } from './failures.js';
import { faultAfterLines, faultPoint } from './faultPoints.js';
import { keepParsedFile } from './parseFile.js';
import type { ParsedFile, ParserPool } from './parserPool.js';
import { faultBeforeParse, startStreamingParse, type StreamingParse } from './rowsFromThread.js';

/**
 * Formats of plain text, where every feature takes at least a few bytes of the file (a CSV row
 * `0,0` and its line break: 4): the ids reserved for such a file are at most its bytes / 4.
 * Compressed and binary formats may hold anything up to the feature cap.
 */
const TEXT_FORMATS: ReadonlySet<string> = new Set(['csv', 'geojson', 'kml', 'gpx']);
const MIN_FEATURE_BYTES = 4;

/** How many ids to reserve for a file: as many as it could hold features, never more than a map may. */
function idsFor(fileType: string, fileBytes: number): number {
  if (!TEXT_FORMATS.has(fileType)) return MAX_FEATURES;
  return Math.max(1, Math.min(MAX_FEATURES, Math.ceil(fileBytes / MIN_FEATURE_BYTES)));
}

export function makeAppendDuringParse(deps: ActivityDeps, parsers: ParserPool) {
  const { db, blobs, faults, publicUrl } = deps;
  return async function appendDuringParse(input: AppendDuringParseInput): Promise<AppendMapResult> {
    return failingOnBadInput(async () => {
      const context = Context.current();
      if (input.deadline !== null && Date.now() >= input.deadline) throw new TimeLimitReached();
      requireMapAccess(await findMapWithRole(db, input.mapId, input.userId), input.mapId, input.userId, 'edit');
      const outputFile = await blobs.scratchFile();
      // Heartbeats carry cancellation (a cancelled workflow) to this activity.
      const beat = setInterval(() => context.heartbeat(), 2_000);
      const limit = input.deadline === null ? undefined : AbortSignal.timeout(Math.max(1, input.deadline - Date.now()));
      let inputFile: string | undefined;
      let parse: StreamingParse | undefined;
      let ids: Awaited<ReturnType<typeof reserveFeatureIds>>;
      let written = false;
      const keepSubgroups = (format: ParsedFile['format']) => keepsSubgroups(format ? GUESSED_FORMAT_FILE_TYPES[format] : input.fileType);
      /** The other way: the parsed document file kept, then placed into the map (appendToMap's). */
      const appendWhole = async (file: ParsedFile): Promise<AppendMapResult> => {
        const kept = await keepParsedFile(deps, input, file, outputFile);
        try {
          const appended = await appendParsedFile(deps, { ...input, parsed: kept, keepSubgroups: keepSubgroups(file.format) });
          written = true;
          return {
            map: appended.map,
            import: { features: appended.added, skipped: kept.skipped },
            ...(file.format === undefined ? {} : { format: file.format }),
            ...(appended.revision !== undefined ? { revision: appended.revision, addedIds: appended.addedIds } : {}),
          };
        } finally {
          await blobs.delete(kept.parsedKey);
        }
      };
      try {
        await faultBeforeParse(faults, context.cancellationSignal, limit);
        inputFile = await blobs.localFile(input.blobKey);
        if (input.newGroup !== undefined) {
          // Every row goes into the new group, so the rows change after the parse: parsed first.
          const file = await parsers
            .parse({ fileType: input.fileType, inputFile, outputFile, options: { publicUrl } }, limit ? AbortSignal.any([context.cancellationSignal, limit]) : context.cancellationSignal)
            .catch((error: unknown) => {
              throw limit?.aborted ? new TimeLimitReached() : error;
            });
          return await appendWhole(file);
        }
        ids = await reserveFeatureIds(db, input.mapId, idsFor(input.fileType, (await fs.promises.stat(inputFile)).size), input.deadline);
        if (!ids) throw new AppError('map_not_found', `There is no map with the id ${input.mapId}.`);
        parse = startStreamingParse(
          parsers,
          { fileType: input.fileType, inputFile, outputFile, options: { publicUrl } },
          { firstId: ids.first, signals: [context.cancellationSignal], limit },
        );
        let parsed: ParsedFile | undefined;
        const whenParsed = parse.parsing.then((result) => {
          parsed = result;
          return { added: result.features, featureBytes: result.featureBytes };
        });
        whenParsed.catch(() => {}); // awaited by the write, or its failure is the parse's
        const finish = async (current: MapContentState): Promise<StreamedFinish> => {
          const file = parsed!;
          // Media is stored and the rows' references pointed at it: the rows change.
          if (file.media.length > 0 || file.imageIds.length > 0) return { fallBack: true };
          const { plan, head } = planAppendTo(current, file.features, await readLocalDocumentHead(outputFile, file.rowBytes), { keepSubgroups: keepSubgroups(file.format) });
          // Group ids the map uses already: the rows' groups change.
          if (!plan.keepsGroups) return { fallBack: true };
          return { head, media: file.references };
        };
        let outcome;
        try {
          outcome = await appendStreamedRows(db, {
            mapId: input.mapId,
            requestId: input.requestId,
            userId: input.userId,
            ids,
            lines: faultAfterLines(parse.lines),
            linesAgain: async () => localRowLineBytes(outputFile, (await parse!.parsing).rowBytes),
            parsed: whenParsed,
            finish,
            checkSize: checkMapBytes,
            deadline: input.deadline,
            maxIds: MAX_EVENT_IDS,
          });
        } catch (error) {
          throw await parse.failWith(error); // a failed write ends the parse too
        }
        if (!outcome) throw new AppError('map_not_found', `There is no map with the id ${input.mapId}.`);
        const file = parsed!;
        if ('fallBack' in outcome) {
          await releaseFeatureIds(db, input.mapId, ids);
          ids = undefined;
          return await appendWhole(file);
        }
        written = !outcome.alreadyApplied;
        const format = file.format === undefined ? {} : { format: file.format };
        await faultPoint('after-commit');
        return { map: summaryOf(outcome.record), import: { features: outcome.added, skipped: capSkipped(file.skipped) }, ...format, revision: outcome.revision, addedIds: outcome.addedIds };
      } finally {
        clearInterval(beat);
        await parse?.end(); // the thread is done with the files before they go
        // Ids no feature took go back when no other write has taken ids since.
        if (ids && !written) await releaseFeatureIds(db, input.mapId, ids).catch(() => {});
        await blobs.discardFile(outputFile);
        // A store whose blobs live elsewhere (S3) made the parser a copy of the upload.
        if (inputFile !== undefined) await blobs.discardFile(inputFile);
      }
    });
  };
}
