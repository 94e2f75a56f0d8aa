// What every import parser produces. Parsers are pure (a file in, document out), run inside a
// parser thread, and never fetch anything.
import type { MapDocument, MapFeature } from '../geojson/model.js';
import type { ParserInput } from './input.js';
import type { SkippedItem } from './skipped.js';
import { materialized } from './jsonPieces.js';
import type { PointTexts } from './featureRows.js';

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

/**
 * Where a parser puts the features it converts, one by one in file order, as soon as each is
 * complete: into an array (FeatureList, the default) or straight out of the parser thread
 * (FeatureFileWriter in ./documentFile.ts), so a large file never holds all of its features at
 * once. A feature may hold JsonPieces (./jsonPieces.ts) where its data is too large for objects.
 */
export interface FeatureSink {
  /**
   * `point`: the feature is a table's point, built as pointFeatureText (./featureRows.ts) says,
   * and these are the texts of its coordinates.
   */
  add(feature: MapFeature, point?: PointTexts): void;
  /** Features added so far. */
  readonly count: number;
}

/** A sink that keeps the features (tests, small documents, KMZ media linking) as plain objects. */
export class FeatureList implements FeatureSink {
  readonly features: MapFeature[] = [];
  add(feature: MapFeature): void {
    this.features.push(materialized(feature));
  }
  get count(): number {
    return this.features.length;
  }
}

export interface ParsedFile {
  /** The document; its `features` are those of a FeatureList sink, empty for any other sink. */
  document: MapDocument;
  skipped: SkippedItem[];
  media: ExtractedMedia[];
  /** The name the file gives itself (KML Document name, GPX metadata name): a title for a new map. */
  name?: string;
}

export interface ParseOptions {
  /** The service's PUBLIC_URL: table imports resolve `service_image_url` values under it. */
  publicUrl: string;
  /** Where the features go; without one they end up in `document.features`. */
  sink?: FeatureSink;
}

export type FormatParser = (input: ParserInput, options: ParseOptions) => ParsedFile | Promise<ParsedFile>;

export const mediaPlaceholder = (index: number): string => `media:${index}`;
