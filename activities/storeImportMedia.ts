// The media side of an import: files extracted from an archive are stored as markers and
// images (with ids derived from the request, so a retry stores nothing twice), image ids from
// table imports are looked up, and the document's references are pointed at them.
import { findImages } from '../db/media.js';
import { AppError } from '../lib/errors.js';
import { linkMedia, type MediaLinks } from '../lib/formats/linkMedia.js';
import { mediaPlaceholder, type ExtractedMedia } from '../lib/formats/types.js';
import type { MapDocument } from '../lib/geojson/model.js';
import type { SkippedItem } from '../lib/jobContracts.js';
import { featureImage } from '../lib/media/fields.js';
import { derivedMediaId } from '../lib/media/ids.js';
import { storeImage, storeMarker } from '../lib/media/store.js';
import type { ActivityDeps } from './deps.js';

export interface ImportMedia {
  requestId: string;
  userId: number;
  media: ExtractedMedia[];
  imageIds: string[];
}

/** Links the document's media in place; returns notes on references that had to be dropped. */
export async function storeImportMedia({ db, blobs }: ActivityDeps, doc: MapDocument, input: ImportMedia): Promise<SkippedItem[]> {
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
  for (const image of await findImages(db, input.imageIds)) links.images.set(image.id, featureImage(image));
  return [...notes, ...linkMedia(doc, links)];
}
