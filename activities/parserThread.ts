// Runs in a parser thread (see parserPool.ts): one parser call, with every failure turned into
// a plain message, because only structured-cloneable values cross the thread boundary.
import { AppError } from '../lib/errors.js';
import { PARSERS } from '../lib/formats/index.js';
import { frameDocument, hasSequentialIds } from '../lib/formats/framedDocument.js';
import { imagesToResolve } from '../lib/formats/linkMedia.js';
import { mediaReferences } from '../lib/geojson/model.js';
import { capSkipped } from '../lib/formats/skipped.js';
import type { ExtractedMedia, ParseOptions } from '../lib/formats/types.js';
import type { MediaRefs } from '../db/maps.js';
import type { ImportFileType, SkippedItem } from '../lib/jobContracts.js';

export interface ParserTask {
  fileType: ImportFileType;
  bytes: Uint8Array;
  options: ParseOptions;
}

export type ParserThreadResult =
  | {
      ok: true;
      /** The document in the framed form of framedDocument.ts. */
      framed: string;
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

export async function parseInThread({ fileType, bytes, options }: ParserTask): Promise<ParserThreadResult> {
  const parser = PARSERS[fileType];
  try {
    const { document, skipped, media, name } = await parser(bytes, options);
    return {
      ok: true,
      framed: frameDocument(document),
      sequentialIds: hasSequentialIds(document.features),
      features: document.features.length,
      skipped: capSkipped(skipped),
      media,
      imageIds: imagesToResolve(document, (id) => id.startsWith('media:')),
      references: mediaReferences(document),
      name: name?.trim().slice(0, 500) || undefined,
    };
  } catch (error) {
    if (error instanceof AppError) return { ok: false, code: error.code, message: error.message };
    if (error instanceof RangeError) {
      return { ok: false, code: 'file_too_complex', message: 'The file is nested too deeply or too large to process.' };
    }
    throw error;
  }
}
