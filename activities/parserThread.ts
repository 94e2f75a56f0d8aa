// Runs in a parser thread (see parserPool.ts): one parser call, reading the uploaded file and
// writing the document file (lib/formats/documentFile.ts) feature by feature. Every failure
// becomes a plain message, because only structured-cloneable values cross the thread boundary.
// With the file type 'guess' the format is first told from the content (lib/formats/guessFormat.ts).
import type { MessagePort } from 'node:worker_threads';
import { AppError } from '../lib/errors.js';
import { faultingSink } from './faultPoints.js';
import { PARSERS } from '../lib/formats/index.js';
import { FeatureFileWriter } from '../lib/formats/documentFile.js';
import { guessFormat } from '../lib/formats/guessFormat.js';
import { fileInput } from '../lib/formats/input.js';
import { capSkipped } from '../lib/formats/skipped.js';
import type { ExtractedMedia, ParseOptions } from '../lib/formats/types.js';
import { GUESSED_FORMAT_FILE_TYPES, type GuessedFormat, type ImportFileType } from '../lib/jobContracts.js';
import type { SkippedItem } from '../lib/formats/skipped.js';
import type { MediaRefs } from '../lib/maps.js';
import { releaseLargeBuffers } from './threadBuffers.js';
import { RowCredit } from './rowCredit.js';

export interface ParserTask {
  /** 'guess': told by the file's content. */
  fileType: ImportFileType | 'guess';
  /** The uploaded file. */
  inputFile: string;
  /** Where the document file goes (created empty by the caller). */
  outputFile: string;
  options: Omit<ParseOptions, 'sink'>;
  /**
   * The row lines also go through this port as they are written (each write's bytes, a buffer
   * transferred), numbered from `firstId` when given; a message `null` follows the last one when the file
   * is parsed whole. A file that fails sends no `null`. `credit` (rowCredit.ts) bounds how many
   * writes may be unread: the thread waits for the reader before it sends more.
   */
  rows?: { port: MessagePort; firstId?: number; credit: SharedArrayBuffer };
}

export type ParserThreadResult =
  | {
      ok: true;
      /** Bytes of the feature row lines in the document file. */
      rowBytes: number;
      /** Bytes of the features' JSON texts. */
      featureBytes: number;
      maxFeatureId: number;
      sequentialIds: boolean;
      features: number;
      skipped: SkippedItem[];
      media: ExtractedMedia[];
      /** Ids of `image` properties that still need their fields from the stored images. */
      imageIds: string[];
      /** What the document references (placeholders included until the media is linked). */
      references: MediaRefs;
      /** The name the file gives itself. */
      name?: string;
      /** With the file type 'guess': the format found. */
      format?: GuessedFormat;
    }
  | { ok: false; code: AppError['code']; message: string };

// After a job that made large buffers, the thread collects (threadBuffers.ts says why).
export async function parseInThread(task: ParserTask): Promise<ParserThreadResult> {
  try {
    return await parse(task);
  } finally {
    await releaseLargeBuffers();
  }
}

async function parse({ fileType, inputFile, outputFile, options, rows }: ParserTask): Promise<ParserThreadResult> {
  const credit = rows && new RowCredit(rows.credit);
  const stream = rows && {
    firstId: rows.firstId,
    rows: (bytes: Uint8Array<ArrayBuffer>) => {
      credit!.take(); // waits (synchronously, as the writer writes) while the reader is behind
      rows.port.postMessage(bytes, [bytes.buffer]);
    },
  };
  const writer = new FeatureFileWriter(outputFile, undefined, stream);
  try {
    const input = fileInput(inputFile);
    const format = fileType === 'guess' ? await guessFormat(input) : undefined;
    const parser = PARSERS[format === undefined ? (fileType as ImportFileType) : GUESSED_FORMAT_FILE_TYPES[format]];
    const { document, skipped, media, name } = await parser(input, { ...options, sink: faultingSink(writer) });
    const { features: _none, ...head } = document;
    const { rowBytes, featureBytes } = writer.finish(head);
    rows?.port.postMessage(null);
    return {
      ok: true,
      rowBytes,
      featureBytes,
      maxFeatureId: writer.maxId,
      sequentialIds: writer.sequentialIds,
      features: writer.count,
      skipped: capSkipped(skipped),
      media,
      imageIds: [...writer.imagesToResolve],
      references: writer.references(),
      name: name?.trim().slice(0, 500) || undefined,
      ...(format === undefined ? {} : { format }),
    };
  } catch (error) {
    writer.abandon();
    if (error instanceof AppError) return { ok: false, code: error.code, message: error.message };
    if (error instanceof RangeError) {
      return { ok: false, code: 'file_too_complex', message: 'The file is nested too deeply or too large to process.' };
    }
    throw error;
  }
}
