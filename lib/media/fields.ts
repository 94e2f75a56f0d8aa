// The spec's shapes built from stored records: the feature `image` property a map document
// carries, and the image/upload and marker/upload answers.
import type { ImageRecord, MarkerRecord } from './records.js';
import type { Point } from '../geojson/geometry.js';

export interface FeatureImage {
  id: string;
  w: number;
  h: number;
  tip_color: string;
  avg_color: string;
}

/** A feature's `image` property for this image (what the KMZ import and clients fill in). */
export function featureImage(image: Pick<ImageRecord, 'id' | 'width' | 'height' | 'tipColor' | 'avgColor'>): FeatureImage {
  return { id: image.id, w: image.width, h: image.height, tip_color: image.tipColor, avg_color: image.avgColor };
}

export interface ImageUploadAnswer {
  image_id: string;
  width: number;
  height: number;
  tip_color: string;
  avg_color: string;
  has_gps: boolean;
  geometry: Point | null;
  date_str: string | null;
  date_iso: string | null;
}

export function imageUploadAnswer(image: ImageRecord): ImageUploadAnswer {
  return {
    image_id: image.id,
    width: image.width,
    height: image.height,
    tip_color: image.tipColor,
    avg_color: image.avgColor,
    has_gps: image.hasGps,
    geometry: image.hasGps ? image.geometry : null,
    date_str: image.dateStr,
    date_iso: image.dateIso,
  };
}

export const markerUploadAnswer = (marker: MarkerRecord): { marker_id: string } => ({ marker_id: marker.id });
