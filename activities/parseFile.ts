// Reads an uploaded file from the blob store and converts it in a parser thread
// (parserPool.ts) into a document file (lib/formats/documentFile.ts) for the write activity;
// stores the media the file holds and points the document's references at it. One parser per
// format lives in lib/formats/.
import { Context } from '@temporalio/activity';
import { FeatureFileWriter, readDocumentHead, readFeatures, type DocumentFile } from '../lib/formats/documentFile.js';
import { linkFeatureMedia, type MediaLinks } from '../lib/formats/linkMedia.js';
import { capSkipped } from '../lib/formats/skipped.js';
import type { SkippedItem } from '../lib/formats/skipped.js';
import type { ParseFileInput, ParseFileResult } from '../lib/jobContracts.js';
import type { MediaRefs } from '../lib/maps.js';
import { REQUEST_PREFIXES } from '../lib/blobs/blobStore.js';
import type { ActivityDeps } from './deps.js';
import { failingOnBadInput } from './failures.js';
import { faultPoint } from './faultPoints.js';
import type { ParsedFile, ParserPool } from './parserPool.js';
import { storeImportMedia } from './storeImportMedia.js';


export function makeParseFile(deps: ActivityDeps, parsers: ParserPool) {
  const { blobs, faults, publicUrl } = deps;
  return async function parseFile(input: ParseFileInput): Promise<ParseFileResult> {
    return failingOnBadInput(async () => {
      const context = Context.current();
      const outputFile = await blobs.scratchFile();
      // Heartbeats carry cancellation (the processing limit) to this activity.
      const beat = setInterval(() => context.heartbeat(), 2_000);
      let inputFile: string | undefined;
      try {
        await faults?.beforeParse?.(context.cancellationSignal);
        inputFile = await blobs.localFile(input.blobKey);
        const parsed = await parsers.parse(
          { fileType: input.fileType, inputFile, outputFile, options: { publicUrl } },
          context.cancellationSignal,
        );
        return await keepParsedFile(deps, input, parsed, outputFile);
      } finally {
        clearInterval(beat);
        await blobs.discardFile(outputFile);
        // A store whose blobs live elsewhere (S3) made the parser a copy of the upload.
        if (inputFile !== undefined) await blobs.discardFile(inputFile);
      }
    });
  };
}

/**
 * The parsed document file stored for the write (in the blob store), the media the file holds
 * stored and the document's references pointed at it; what parseFile answers.
 */
export async function keepParsedFile(deps: ActivityDeps, input: ParseFileInput, parsed: ParsedFile, outputFile: string): Promise<ParseFileResult> {
  const { blobs } = deps;
  let file: DocumentFile = { key: (await blobs.adoptFile(REQUEST_PREFIXES.parsed, outputFile)).key, rowBytes: parsed.rowBytes };
  await faultPoint('after-staging');
  let featureBytes = parsed.featureBytes;
  let { skipped, references } = parsed;
  if (parsed.media.length > 0 || parsed.imageIds.length > 0) {
    try {
      const { links, notes } = await storeImportMedia(deps, { ...input, media: parsed.media, imageIds: parsed.imageIds });
      const linked = await linkDocumentMedia(deps, file, links);
      skipped = capSkipped([...skipped, ...notes, ...linked.notes]);
      references = linked.references;
      file = linked.file;
      featureBytes = linked.featureBytes;
    } catch (error) {
      await blobs.delete(file.key);
      throw error;
    }
  }
  return {
    parsedKey: file.key,
    rowBytes: file.rowBytes,
    featureBytes,
    maxFeatureId: parsed.maxFeatureId,
    features: parsed.features,
    skipped,
    media: references,
    sequentialIds: parsed.sequentialIds,
    name: parsed.name,
    ...(parsed.format === undefined ? {} : { format: parsed.format }),
  };
}

/** Rewrites a document file with its media references linked (a new file; the old one is deleted). */
async function linkDocumentMedia(
  { blobs }: ActivityDeps,
  file: DocumentFile,
  links: MediaLinks,
): Promise<{ file: DocumentFile; featureBytes: number; notes: SkippedItem[]; references: MediaRefs }> {
  const notes: SkippedItem[] = [];
  const outputFile = await blobs.scratchFile();
  const writer = new FeatureFileWriter(outputFile);
  try {
    for await (const feature of readFeatures(blobs, file)) {
      linkFeatureMedia(feature, links, notes);
      writer.add(feature);
    }
    const { rowBytes, featureBytes } = writer.finish(await readDocumentHead(blobs, file));
    const stored = await blobs.adoptFile(REQUEST_PREFIXES.parsed, outputFile);
    await blobs.delete(file.key);
    return {
      file: { key: stored.key, rowBytes },
      featureBytes,
      notes,
      references: writer.references(),
    };
  } finally {
    writer.abandon();
    await blobs.discardFile(outputFile);
  }
}
