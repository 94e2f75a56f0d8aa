// Runs in a parser thread (see parserPool.ts): one parser call, reading the uploaded file and
// writing the document file (lib/formats/documentFile.ts) feature by feature. Every failure
// becomes a plain message, because only structured-cloneable values cross the thread boundary.
import { AppError } from '../lib/errors.js';
import { PARSERS } from '../lib/formats/index.js';
import { FeatureFileWriter } from '../lib/formats/documentFile.js';
import { fileInput } from '../lib/formats/input.js';
import { capSkipped } from '../lib/formats/skipped.js';
import type { ExtractedMedia, ParseOptions } from '../lib/formats/types.js';
import type { MediaRefs } from '../db/maps.js';
import type { ImportFileType, SkippedItem } from '../lib/jobContracts.js';

export interface ParserTask {
  fileType: ImportFileType;
  /** The uploaded file. */
  inputFile: string;
  /** Where the document file goes (created empty by the caller). */
  outputFile: string;
  options: Omit<ParseOptions, 'sink'>;
}

export type ParserThreadResult =
  | {
      ok: true;
      /** Bytes of the feature lines in the document file. */
      featuresBytes: number;
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
    }
  | { ok: false; code: AppError['code']; message: string };

export async function parseInThread({ fileType, inputFile, outputFile, options }: ParserTask): Promise<ParserThreadResult> {
  const parser = PARSERS[fileType];
  const writer = new FeatureFileWriter(outputFile);
  try {
    const { document, skipped, media, name } = await parser(fileInput(inputFile), { ...options, sink: writer });
    const { features: _none, ...head } = document;
    const { featuresBytes } = writer.finish(head);
    return {
      ok: true,
      featuresBytes,
      sequentialIds: writer.sequentialIds,
      features: writer.count,
      skipped: capSkipped(skipped),
      media,
      imageIds: [...writer.imagesToResolve],
      references: writer.references(),
      name: name?.trim().slice(0, 500) || undefined,
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
