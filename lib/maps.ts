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
  collaborate: boolean;
  createdAt: Date;
  modifiedAt: Date;
}

/** The images and markers a map (or a document) uses, by id. */
export interface MediaRefs {
  images: string[];
  markers: string[];
}

/** A map with everything map/get shows but its features (they stream: see db/documentStream.ts). */
export interface MapDetail extends MapRecord {
  /** Bytes of the map's GeoJSON text. */
  contentBytes: number;
  editors: string[];
  viewers: string[];
  images: string[];
  markers: string[];
}
