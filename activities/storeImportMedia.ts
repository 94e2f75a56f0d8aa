// The media side of an import: files extracted from an archive are stored as markers and
// images (with ids derived from the request, so a retry stores nothing twice), image ids from
// table imports are looked up among the images the map may use (its owner's and editors'); the
// parse activity then points the references at them (and drops, with a note, those it cannot).
import { findLinkableImages } from '../db/media.js';
import { AppError } from '../lib/errors.js';
import type { MediaLinks } from '../lib/formats/linkMedia.js';
import { mediaPlaceholder, type ExtractedMedia } from '../lib/formats/types.js';
import type { SkippedItem } from '../lib/formats/skipped.js';
import { featureImage } from '../lib/media/fields.js';
import { derivedMediaId } from '../lib/media/ids.js';
import { storeImage, storeMarker } from './mediaStore.js';
import type { ActivityDeps } from './deps.js';

export interface ImportMedia {
  requestId: string;
  userId: number;
  /** The map an append goes to (whose owner's and editors' images may be linked). */
  mapId?: number;
  media: ExtractedMedia[];
  imageIds: string[];
}

/**
 * Stores the extracted media and looks up the images; returns where each reference points
 * (see linkFeatureMedia) and notes on files that could not be stored.
 */
export async function storeImportMedia({ db, blobs }: ActivityDeps, input: ImportMedia): Promise<{ links: MediaLinks; notes: SkippedItem[] }> {
  const links: MediaLinks = { markers: new Map(), images: new Map() };
  const notes: SkippedItem[] = [];
  for (const [index, file] of input.media.entries()) {
    const options = { id: derivedMediaId(`${input.requestId}:${index}`) };
    try {
      if (file.kind === 'marker') {
        links.markers.set(mediaPlaceholder(index), (await storeMarker(db, blobs, input.userId, file.bytes, options)).id);
      } else {
        links.images.set(mediaPlaceholder(index), featureImage(await storeImage(db, blobs, input.userId, file.bytes, options)));
      }
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      notes.push({ reason: `${file.name} in the archive was not stored: ${error.message}` });
    }
  }
  const scope = input.mapId === undefined ? { userId: input.userId } : { mapId: input.mapId };
  for (const image of await findLinkableImages(db, scope, input.imageIds)) links.images.set(image.id, featureImage(image));
  return { links, notes };
}
