// Reads an uploaded file from the blob store, converts it into a map document in a parser
// thread (parserPool.ts), stores the media it holds, and keeps the document in the blob store,
// framed as head and features (lib/formats/framedDocument.ts), for the write activity. One
// parser per format lives in lib/formats/.
import { Context } from '@temporalio/activity';
import { capSkipped } from '../lib/formats/skipped.js';
import { frameDocument, parseParts, splitFramed } from '../lib/formats/framedDocument.js';
import { mediaReferences } from '../lib/geojson/model.js';
import type { ParseFileInput, ParseFileResult } from '../lib/jobContracts.js';
import type { ActivityDeps } from './deps.js';
import { failingOnBadInput } from './failures.js';
import type { ParserPool } from './parserPool.js';
import { storeImportMedia } from './storeImportMedia.js';

export function makeParseFile(deps: ActivityDeps, parsers: ParserPool) {
  const { blobs, faults, publicUrl } = deps;
  return async function parseFile(input: ParseFileInput): Promise<ParseFileResult> {
    return failingOnBadInput(async () => {
      const context = Context.current();
      const bytes = await blobs.read(input.blobKey);
      // Heartbeats carry cancellation (the processing limit) to this activity.
      const beat = setInterval(() => context.heartbeat(), 2_000);
      try {
        await faults?.beforeParse?.(context.cancellationSignal);
        const parsed = await parsers.parse(input.fileType, bytes, { publicUrl }, context.cancellationSignal);
        let { framed, skipped, references } = parsed;
        if (parsed.media.length > 0 || parsed.imageIds.length > 0) {
          const document = parseParts(splitFramed(framed));
          const notes = await storeImportMedia(deps, document, { ...input, media: parsed.media, imageIds: parsed.imageIds });
          framed = frameDocument(document);
          skipped = capSkipped([...skipped, ...notes]);
          references = mediaReferences(document);
        }
        const stored = await blobs.putBuffer('parsed', Buffer.from(framed));
        return {
          parsedKey: stored.key,
          features: parsed.features,
          skipped,
          media: references,
          sequentialIds: parsed.sequentialIds,
          name: parsed.name,
        };
      } finally {
        clearInterval(beat);
      }
    });
  };
}
