// map/upload in one activity (issue 27): the parser thread sends the feature rows as it writes
// them (rowsFromThread.ts) and they go into the new map's COPY while the file is still being
// parsed, in the transaction that creates the map (db/maps.ts insertStreamedMap): nothing of it
// is seen before the commit, and a file that fails leaves nothing. A file with media to store and
// link is rolled back and written the other way (createMap's), still within this activity. The
// activity keeps the processing limit itself: the parse stops at the deadline and nothing commits
// after it, so its answer is the request's outcome.
import { Context } from '@temporalio/activity';
import { TimeLimitReached } from '../db/errors.js';
import { insertStreamedMap } from '../db/maps.js';
import { DEFAULT_BASEMAP } from '../lib/basemaps.js';
import { documentBytes, localRowLineBytes, readLocalDocumentHead } from '../lib/formats/documentFile.js';
import { capSkipped } from '../lib/formats/skipped.js';
import { checkMapBytes } from '../lib/geojson/sizeLimits.js';
import type { UploadDuringParseInput, UploadMapResult } from '../lib/jobContracts.js';
import { renderDescription } from '../lib/markdown/index.js';
import { summaryOf } from '../lib/mapSummary.js';
import { createMapFromParsed, mapNames, requireOwner } from './createMap.js';
import type { ActivityDeps } from './deps.js';
import { failingOnBadInput } from './failures.js';
import { faultAfterLines, faultPoint } from './faultPoints.js';
import { keepParsedFile } from './parseFile.js';
import type { ParsedFile, ParserPool } from './parserPool.js';
import { faultBeforeParse, startStreamingParse, type StreamingParse } from './rowsFromThread.js';

export function makeUploadDuringParse(deps: ActivityDeps, parsers: ParserPool) {
  const { db, blobs, faults, publicUrl } = deps;
  return async function uploadDuringParse(input: UploadDuringParseInput): Promise<UploadMapResult> {
    return failingOnBadInput(async () => {
      const context = Context.current();
      if (input.deadline !== null && Date.now() >= input.deadline) throw new TimeLimitReached();
      await requireOwner(db, input.ownerId);
      const description = input.settings.description ?? '';
      // Rendered once, in the renderer's thread within its budget, and kept for the map's page.
      const descriptionHtml = (await renderDescription(description)).html;
      const outputFile = await blobs.scratchFile();
      // Heartbeats carry cancellation (a cancelled workflow) to this activity.
      const beat = setInterval(() => context.heartbeat(), 2_000);
      const limit = input.deadline === null ? undefined : AbortSignal.timeout(Math.max(1, input.deadline - Date.now()));
      let inputFile: string | undefined;
      let parse: StreamingParse | undefined;
      try {
        await faultBeforeParse(faults, context.cancellationSignal, limit);
        inputFile = await blobs.localFile(input.blobKey);
        parse = startStreamingParse(parsers, { fileType: input.fileType, inputFile, outputFile, options: { publicUrl } }, { signals: [context.cancellationSignal], limit });
        let parsed: ParsedFile | undefined;
        let record;
        try {
          record = await insertStreamedMap(db, {
            ownerId: input.ownerId,
            description,
            descriptionHtml,
            basemap: DEFAULT_BASEMAP,
            visibility: input.settings.visibility,
            requestId: input.requestId,
            deadline: input.deadline,
            lines: faultAfterLines(parse.lines),
            linesAgain: async () => localRowLineBytes(outputFile, (await parse!.parsing).rowBytes),
            settle: async () => {
              const file = (parsed = await parse!.parsing);
              await faultPoint('after-staging'); // parsed whole, its rows in the COPY, nothing committed
              // Media is stored and the rows' references pointed at it: the rows change.
              if (file.media.length > 0 || file.imageIds.length > 0) return { fallBack: true };
              const head = await readLocalDocumentHead(outputFile, file.rowBytes);
              checkMapBytes(documentBytes(head, file.featureBytes, file.features));
              return {
                ...mapNames(input.settings, file.name),
                content: { head: JSON.stringify(head), featureCount: file.features, featureBytes: file.featureBytes, nextFeatureId: file.maxFeatureId + 1, media: file.references },
              };
            },
          });
        } catch (error) {
          throw await parse.failWith(error); // a failed write ends the parse too
        }
        // A retry of a committed upload: its map, whose file was parsed again (its rows not read).
        if (parsed === undefined) parse.skipLines();
        const file = parsed ?? (await parse.parsing);
        if (record === 'fallBack') {
          const kept = await keepParsedFile(deps, { requestId: input.requestId, userId: input.ownerId, blobKey: input.blobKey, fileType: input.fileType }, file, outputFile);
          try {
            const map = await createMapFromParsed(deps, { requestId: input.requestId, ownerId: input.ownerId, parsed: kept, settings: input.settings, deadline: input.deadline });
            return { map, import: { features: kept.features, skipped: kept.skipped } };
          } finally {
            await blobs.delete(kept.parsedKey);
          }
        }
        await faultPoint('after-commit');
        return { map: summaryOf(record), import: { features: file.features, skipped: capSkipped(file.skipped) } };
      } finally {
        clearInterval(beat);
        await parse?.end(); // the thread is done with the files before they go
        await blobs.discardFile(outputFile);
        // A store whose blobs live elsewhere (S3) made the parser a copy of the upload.
        if (inputFile !== undefined) await blobs.discardFile(inputFile);
      }
    });
  };
}
