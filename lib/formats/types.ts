// What every import parser produces. Parsers are pure (bytes in, document out), run inside a
// parser thread, and never fetch anything.
import type { MapDocument } from '../geojson/model.js';
import type { SkippedItem } from '../jobContracts.js';

/**
 * A file found inside an archive (a KMZ icon or image) that the import uploads as a marker or
 * an image. The document refers to it through a placeholder id `media:<index>` in
 * `properties.marker_id` (markers) or `properties.image.id` (images); the import replaces the
 * placeholder with the real id once the media is stored.
 */
export interface ExtractedMedia {
  kind: 'marker' | 'image';
  /** Path inside the archive, for messages. */
  name: string;
  bytes: Uint8Array;
}

export interface ParsedFile {
  document: MapDocument;
  skipped: SkippedItem[];
  media: ExtractedMedia[];
  /** The name the file gives itself (KML Document name, GPX metadata name): a title for a new map. */
  name?: string;
}

export interface ParseOptions {
  /** The service's PUBLIC_URL: table imports resolve `service_image_url` values under it. */
  publicUrl: string;
}

export type FormatParser = (bytes: Uint8Array, options: ParseOptions) => ParsedFile | Promise<ParsedFile>;

export const mediaPlaceholder = (index: number): string => `media:${index}`;
