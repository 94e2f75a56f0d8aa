// What the service keeps of an uploaded image or marker: its metadata and the resized files
// (derivatives) in the blob store. db/media.ts stores and returns these.
import type { Point } from '../geojson/geometry.js';

/** One stored resized file. */
export interface StoredDerivative {
  /** e.g. s1024: fits in a 1024×1024 box. */
  name: string;
  width: number;
  height: number;
  contentType: string;
  /** Blob store key. */
  key: string;
  /** Bytes. */
  size: number;
}

/** What processing tells of an image (lib/media/processImage.ts), kept with it as it is. */
export interface ImageFields {
  /** Of the upright original (after EXIF orientation). */
  width: number;
  height: number;
  /** #rrggbb, the mean of a small area at the bottom centre. */
  tipColor: string;
  /** #rrggbb, the mean of the whole image (transparent parts over white). */
  avgColor: string;
  hasGps: boolean;
  geometry: Point | null;
  dateStr: string | null;
  dateIso: string | null;
}

export interface ImageRecord extends ImageFields {
  id: string;
  ownerId: number;
  blobPrefix: string;
  derivatives: StoredDerivative[];
  createdAt: Date;
}

export interface MarkerRecord {
  id: string;
  ownerId: number;
  width: number;
  height: number;
  blobPrefix: string;
  derivatives: StoredDerivative[];
  createdAt: Date;
}

/** Media as the file server needs it: its files, and who may fetch them. */
export interface ServableMedia {
  derivatives: StoredDerivative[];
  /** A public or unlisted map uses it: anyone may fetch it (and shared caches may keep it). */
  publicUse: boolean;
  /** The caller uploaded it, or may see a map that uses it (owner, editor of a collaborative map, viewer of a `select` map). */
  callerMaySee: boolean;
}
