// After an import is parsed: point the document's media references at stored media. Files
// extracted from an archive appear as placeholders (types.ts); `image` properties that carry
// only an id (table imports of a map export) get their size and colours from the stored image.
import type { MapFeature } from '../geojson/model.js';
import type { SkippedItem } from './skipped.js';
import type { FeatureImage } from '../media/fields.js';
import { shorten } from '../geojson/json-data.js';
import { isOverlay } from '../geojson/overlay.js';

export interface MediaLinks {
  /** Placeholder → the stored marker's id. */
  markers: Map<string, string>;
  /** Placeholder or image id → the feature `image` property of the stored image. */
  images: Map<string, FeatureImage>;
}

type ImageProperty = Partial<Record<'id' | 'w' | 'h' | 'tip_color' | 'avg_color', unknown>>;

const imageOf = (feature: MapFeature): ImageProperty | undefined => {
  const image = feature.properties.image;
  return image && typeof image === 'object' ? (image as ImageProperty) : undefined;
};

/**
 * The id of the feature's `image` property when it lacks any of its size and colours (`w`, `h`,
 * `tip_color`, `avg_color`): those come from the stored image (or the placeholder's file).
 */
export function imageToResolve(feature: MapFeature): string | undefined {
  const image = imageOf(feature);
  if (typeof image?.id !== 'string' || image.id === '') return undefined;
  const complete = image.w !== undefined && image.h !== undefined && image.tip_color !== undefined && image.avg_color !== undefined;
  return complete ? undefined : image.id;
}

const describe = (feature: MapFeature): string =>
  typeof feature.properties.title === 'string' && feature.properties.title
    ? `"${shorten(feature.properties.title, 60)}"`
    : `feature ${feature.id}`;

/** Rewrites one feature's references in place; a reference that cannot be linked is removed and reported. */
export function linkFeatureMedia(feature: MapFeature, links: MediaLinks, notes: SkippedItem[]): void {
  const markerRef = feature.properties.marker_id;
  if (typeof markerRef === 'string' && markerRef.startsWith('media:')) {
    const markerId = links.markers.get(markerRef);
    if (markerId) feature.properties.marker_id = markerId;
    else {
      delete feature.properties.marker_id;
      notes.push({ reason: `the icon of ${describe(feature)} could not be used as a marker; the item was imported without it` });
    }
  }
  const image = imageToResolve(feature);
  if (image !== undefined) {
    const linked = links.images.get(image);
    if (linked) feature.properties.image = linked;
    else if (isOverlay(feature.properties)) {
      // An overlay is its image: without one, what is left is the outline of where it lay.
      delete feature.properties.image;
      delete feature.properties.overlay;
      delete feature.properties.opacity;
      notes.push({ reason: `the image of the overlay ${describe(feature)} could not be stored; its outline was imported as a polygon` });
    } else {
      delete feature.properties.image;
      notes.push({ reason: `the image of ${describe(feature)} is not an image of this service uploaded by the map's owner or an editor; the item was imported without it` });
    }
  }
}
