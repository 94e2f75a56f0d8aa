// Reads an uploaded file from the blob store, converts it into a map document in a parser
// thread (parserPool.ts), and stores the document as JSON for the next activity. One parser per format lives
// in lib/formats/.
import { Context } from '@temporalio/activity';
import type { ParseFileInput, ParseFileResult } from '../lib/jobContracts.js';
import type { ActivityDeps } from './deps.js';
import { failingOnBadInput } from './failures.js';
import type { ParserPool } from './parserPool.js';

export function makeParseFile({ blobs, faults, publicUrl }: ActivityDeps, parsers: ParserPool) {
  return async function parseFile(input: ParseFileInput): Promise<ParseFileResult> {
    return failingOnBadInput(async () => {
      const context = Context.current();
      const bytes = await blobs.read(input.blobKey);
      // Heartbeats carry cancellation (the processing limit) to this activity.
      const beat = setInterval(() => context.heartbeat(), 2_000);
      try {
        await faults?.beforeParse?.(context.cancellationSignal);
        const parsed = await parsers.parse(input.fileType, bytes, { publicUrl }, context.cancellationSignal);
        const stored = await blobs.putBuffer('parsed', Buffer.from(parsed.json));
        return { parsedKey: stored.key, features: parsed.features, skipped: parsed.skipped };
      } finally {
        clearInterval(beat);
      }
    });
  };
}
