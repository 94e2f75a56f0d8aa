// A whole map document (map/update's `geojson`, validated) as the content a map stores: the
// head's JSON text and one row line per feature; refused (map_too_large) when the document is
// larger than a map may be. Two steps, because an `image` that names only an id is completed
// from the stored image, which only the database knows: `contentOfDocument` (no database;
// plain data, so it can come back from an argument thread) and `completedContent`.
import { emptyMapDocument, mediaReferences, type DocumentHead, type MapDocument, type MapFeature } from '../geojson/model.js';
import { checkMapBytes } from '../geojson/sizeLimits.js';
import type { MapContent } from '../maps.js';
import type { FeatureImage } from '../media/fields.js';
import { mediaNotLinkable } from '../media/errors.js';
import { documentBytes } from './documentFile.js';
import { joinedLines, rowLine, rowOf } from './featureRows.js';
import { imageToResolve } from './linkMedia.js';

/** A validated document, as plain data: what crosses back from an argument thread. */
export interface DocumentContent {
  head: string;
  /** One row line per feature, in order; null where a feature waits for its image (`unfilled`). */
  rows: (string | null)[];
  /** Features whose `image` names an image without its size and colours, with their place in `rows`. */
  unfilled: { index: number; feature: MapFeature; imageId: string }[];
  featureCount: number;
  /** Bytes of the JSON texts of the features in `rows`. */
  featureBytes: number;
  nextFeatureId: number;
  media: MapContent['media'];
}

export function contentOfDocument(document: MapDocument): DocumentContent {
  const { features, ...head } = document;
  const rows: (string | null)[] = [];
  const unfilled: DocumentContent['unfilled'] = [];
  let featureBytes = 0;
  let maxId = 0;
  for (const feature of features) {
    if (feature.id > maxId) maxId = feature.id;
    const imageId = imageToResolve(feature);
    if (imageId !== undefined) {
      unfilled.push({ index: rows.length, feature, imageId });
      rows.push(null);
      continue;
    }
    const text = JSON.stringify(feature);
    featureBytes += Buffer.byteLength(text);
    rows.push(rowLine(rowOf(feature, text)));
  }
  checkMapBytes(documentBytes(head, featureBytes, features.length));
  return {
    head: JSON.stringify(head),
    rows,
    unfilled,
    featureCount: features.length,
    featureBytes,
    nextFeatureId: maxId + 1,
    media: mediaReferences(document),
  };
}

/**
 * The content to write: each unfilled feature's `image` gets `w`, `h`, `tip_color` and
 * `avg_color` of the stored image (`images`, by id: the images the map may use); an id not
 * there is refused (invalid_geojson naming it).
 */
export function completedContent(content: DocumentContent, images: ReadonlyMap<string, FeatureImage>): MapContent {
  const rows = [...content.rows];
  let featureBytes = content.featureBytes;
  for (const { index, feature, imageId } of content.unfilled) {
    const stored = images.get(imageId);
    if (!stored) throw mediaNotLinkable('image', imageId);
    const filled: MapFeature = { ...feature, properties: { ...feature.properties, image: { ...(feature.properties.image as object), ...stored } } };
    const text = JSON.stringify(filled);
    featureBytes += Buffer.byteLength(text);
    rows[index] = rowLine(rowOf(filled, text));
  }
  if (content.unfilled.length > 0) checkMapBytes(documentBytes(JSON.parse(content.head) as DocumentHead, featureBytes, content.featureCount));
  const lines = rows as string[];
  return {
    head: content.head,
    lines: () => joinedLines(lines),
    featureCount: content.featureCount,
    featureBytes,
    nextFeatureId: content.nextFeatureId,
    media: content.media,
  };
}

/** The content of a new, empty map (no groups, no features). */
export function emptyMapContent(): MapContent {
  const { features: _none, ...head } = emptyMapDocument();
  return { head: JSON.stringify(head satisfies DocumentHead), lines: () => [], featureCount: 0, featureBytes: 0, nextFeatureId: 1, media: { images: [], markers: [] } };
}
