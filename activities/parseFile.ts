// Reads an uploaded file from the blob store, converts it into a map document and stores that
// as JSON for the next activity. One parser per format lives in lib/formats/.
import { Context } from '@temporalio/activity';
import { AppError } from '../lib/errors.js';
import { PARSERS } from '../lib/formats/index.js';
import type { ParseFileInput, ParseFileResult } from '../lib/jobContracts.js';
import type { ActivityDeps } from './deps.js';
import { failingOnBadInput } from './failures.js';

export function makeParseFile({ blobs }: ActivityDeps) {
  return async function parseFile(input: ParseFileInput): Promise<ParseFileResult> {
    return failingOnBadInput(async () => {
      const parser = PARSERS[input.fileType];
      if (!parser) {
        throw new AppError('unsupported_file_type', `Importing ${input.fileType} files is not available yet.`);
      }
      const bytes = await blobs.read(input.blobKey);
      Context.current().heartbeat('read');
      const { document, skipped } = parser(bytes);
      Context.current().heartbeat('parsed');
      const stored = await blobs.putBuffer('parsed', Buffer.from(JSON.stringify(document)));
      return { parsedKey: stored.key, features: document.features.length, skipped };
    });
  };
}
