// What a map is to the service's code, whichever layer holds it: its record (the settings a
// maps row keeps), who its members are, and the media it uses. db/ returns these; api/, the
// activities and lib/ use them.

export type Visibility = 'public' | 'unlisted' | 'private' | 'select';
export type MemberRole = 'editor' | 'viewer';

export interface MapRecord {
  id: number;
  ownerId: number;
  owner: string;
  shortName: string;
  title: string;
  description: string;
  basemap: string;
  visibility: Visibility;
  /** The unlisted map's link key, part of its every address (lib/linkKeys.ts); null for any other visibility. */
  linkKey: string | null;
  collaborate: boolean;
  createdAt: Date;
  modifiedAt: Date;
  /** Bytes of the map's GeoJSON text (as map/get answers it). */
  contentBytes: number;
}

/** The images and markers a map (or a document) uses, by id. */
export interface MediaRefs {
  images: string[];
  markers: string[];
}

/** Feature row lines (lib/formats/featureRows.ts) in pieces, each line ending in a line break; pieces may end anywhere. */
export type RowLines = AsyncIterable<Buffer | string> | Iterable<Buffer | string>;

/**
 * A map's content as it is written: the head (the document without its features: type, groups,
 * other top-level keys) as JSON text, and the features as row lines (lib/formats/featureRows.ts).
 */
export interface MapContent {
  head: string;
  /** The feature row lines, in order; a function, since a retried write reads them again. */
  lines: () => RowLines;
  featureCount: number;
  /** Bytes of the features' JSON texts. */
  featureBytes: number;
  /** The id after the largest the features use (where the map's next ids start). */
  nextFeatureId: number;
  /** The images and markers the features use. */
  media: MediaRefs;
}

/** A map with everything map/get shows but its features (they stream: see db/mapDocument.ts). */
export interface MapDetail extends MapRecord {
  editors: string[];
  viewers: string[];
  images: string[];
  markers: string[];
}

/** One stored PNG of a map's image. */
export interface MapImageFile {
  /** Blob store key. */
  key: string;
  /** Bytes. */
  size: number;
  width: number;
  height: number;
}

/** A map's static image (1200×630) and thumbnail (400×300), as the renderer stored them last. */
export interface MapImageFiles {
  static: MapImageFile;
  thumbnail: MapImageFile;
  renderedAt: string;
}

/** A map's title when its maker gave none (and its file named none). */
export const DEFAULT_MAP_TITLE = 'Untitled map';
