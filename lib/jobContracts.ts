// The persisted contract between the API, the workflows and the activities: names, inputs and
// results. Pure data only: workflow code imports this file, so it may not import Node modules.
import type { SkippedItem } from './formats/skipped.js';
import type { MediaRefs, Visibility } from './maps.js';
import type { ImageUploadAnswer } from './media/fields.js';

export type { SkippedItem };

/** GIS formats this service reads beyond the spec's lists (both operations take them). */
export const GIS_FILE_TYPES = ['shapefile', 'flatgeobuf', 'geopackage'] as const;
export const UPLOAD_FILE_TYPES = ['empty', 'kml', 'gpx', 'geojson', ...GIS_FILE_TYPES] as const;
export const APPEND_FILE_TYPES = ['kml', 'gpx', 'geojson', 'csv', 'excel', ...GIS_FILE_TYPES] as const;
export type UploadFileType = (typeof UPLOAD_FILE_TYPES)[number];
export type AppendFileType = (typeof APPEND_FILE_TYPES)[number];
export type ImportFileType = Exclude<UploadFileType, 'empty'> | AppendFileType;

/**
 * The formats an import's content is recognised as (lib/formats/guessFormat.ts) when the file type
 * is 'guess' — the web editor's Import, which asks for none; the API's clients always name one —
 * and the file type that reads each.
 */
export const GUESSED_FORMAT_FILE_TYPES = {
  kml: 'kml',
  kmz: 'kml',
  gpx: 'gpx',
  geojson: 'geojson',
  csv: 'csv',
  xlsx: 'excel',
  xls: 'excel',
  ods: 'excel',
  shapefile: 'shapefile',
  flatgeobuf: 'flatgeobuf',
  geopackage: 'geopackage',
} as const satisfies Record<string, AppendFileType>;
export type GuessedFormat = keyof typeof GUESSED_FORMAT_FILE_TYPES;

/** The fields every map operation answers with; the API adds `url`. */
export interface MapSummaryData {
  id: number;
  owner: string;
  shortName: string;
  title: string;
  visibility: Visibility;
}

export interface ImportSummary {
  features: number;
  skipped: SkippedItem[];
}

export interface ParseFileInput {
  /** The upload or append request: makes the media an import stores idempotent. */
  requestId: string;
  /** Who imports: owner of the media extracted from the file. */
  userId: number;
  /**
   * The map an append goes to: images named by id may be those of its owner and editors. Without
   * it (a new map), only the importer's own.
   */
  mapId?: number;
  blobKey: string;
  /** 'guess': the format is told by the file's content. */
  fileType: ImportFileType | 'guess';
}

export interface ParseFileResult {
  /** The parsed map document in the blob store, a document file as lib/formats/documentFile.ts says. */
  parsedKey: string;
  /** Bytes of its feature row lines. */
  rowBytes: number;
  /** Bytes of the features' JSON texts. */
  featureBytes: number;
  /** The largest feature id (0 without features). */
  maxFeatureId: number;
  /** The features are numbered 1, 2, 3 … in order. */
  sequentialIds: boolean;
  features: number;
  skipped: SkippedItem[];
  /** The images and markers the document references. */
  media: MediaRefs;
  /** The name the file gives itself (a title for a new map when the upload names none). */
  name?: string;
  /** With the file type 'guess': the format the content was recognised as. */
  format?: GuessedFormat;
}

export interface MapSettingsInput {
  visibility: 'public' | 'unlisted' | 'private';
  title?: string;
  description?: string;
  shortName?: string;
}

export interface UploadMapInput {
  requestId: string;
  ownerId: number;
  fileType: UploadFileType;
  /** Absent for `empty`. */
  blobKey: string | null;
  settings: MapSettingsInput;
  /** null: no limit (enterprise). */
  processingTimeoutMs: number | null;
  /** How the new map's first image is rendered once it exists (absent: not rendered). */
  image?: Pick<MapImageInput, 'renderTaskQueue' | 'spacingMs'>;
}

export interface UploadMapResult {
  map: MapSummaryData;
  import: ImportSummary;
}

export interface CreateMapInput {
  requestId: string;
  ownerId: number;
  /** The parsed document and what it references; null for an empty map. */
  parsed: ParseFileResult | null;
  settings: MapSettingsInput;
  /** Epoch ms by which the write must be done (the end of the processing limit); null: no limit. */
  deadline: number | null;
}

export interface AppendMapInput {
  requestId: string;
  mapId: number;
  userId: number;
  /** 'guess' (the web editor's Import): the format is told by the file's content. */
  fileType: AppendFileType | 'guess';
  blobKey: string;
  newGroup?: string;
  processingTimeoutMs: number | null;
}

export interface AppendMapResult {
  map: MapSummaryData;
  import: ImportSummary;
  /** The map's revision after the append (absent from workflows run before it was answered). */
  revision?: number;
  /** The appended features' ids; null when more than MAX_EVENT_IDS or not known (a repeated request). */
  addedIds?: number[] | null;
  /** With the file type 'guess': the format the content was recognised as. */
  format?: GuessedFormat;
}

export interface AppendParsedInput {
  requestId: string;
  mapId: number;
  userId: number;
  parsed: ParseFileResult;
  newGroup?: string;
  keepSubgroups: boolean;
  /** Epoch ms by which the write must be done (the end of the processing limit); null: no limit. */
  deadline: number | null;
}

/** Formats whose groups stay subgroups under new_group: tables, and GIS files (one group per layer). */
const TABLE_TYPES: ReadonlySet<string> = new Set(['csv', 'excel', 'shapefile', 'geopackage']);

/** Whether an append of this file type keeps its groups as subgroups of new_group. */
export const keepsSubgroups = (fileType: string): boolean => TABLE_TYPES.has(fileType);

/** map/upload's parse and write in one activity: the rows go into the new map while the file is parsed. */
export interface UploadDuringParseInput {
  requestId: string;
  ownerId: number;
  fileType: Exclude<UploadFileType, 'empty'>;
  blobKey: string;
  settings: MapSettingsInput;
  /** Epoch ms by which the write must be done (the end of the processing limit); null: no limit. */
  deadline: number | null;
}

/** map/append's parse and write in one activity: the rows go into the map while the file is parsed. */
export interface AppendDuringParseInput extends Omit<AppendMapInput, 'processingTimeoutMs'> {
  /** Epoch ms by which the write must be done (the end of the processing limit); null: no limit. */
  deadline: number | null;
}

export interface AppendParsedResult {
  map: MapSummaryData;
  added: number;
  revision?: number;
  addedIds?: number[] | null;
}

/** image/upload and marker/upload: the file types each accepts. */
export const MEDIA_FILE_TYPES = { image: ['jpg', 'png'], marker: ['png'] } as const;
export type MediaKind = keyof typeof MEDIA_FILE_TYPES;
export type MediaFileType = (typeof MEDIA_FILE_TYPES)[MediaKind][number];

export interface UploadMediaInput {
  requestId: string;
  ownerId: number;
  kind: MediaKind;
  fileType: MediaFileType;
  blobKey: string;
  /** The task queue the processing activity runs on (the `media` workers'). */
  mediaTaskQueue: string;
  /** null: no limit (enterprise). */
  processingTimeoutMs: number | null;
}

export type UploadMediaResult = { kind: 'image'; image: ImageUploadAnswer } | { kind: 'marker'; marker: { marker_id: string } };

export interface StoreMediaInput {
  requestId: string;
  ownerId: number;
  kind: MediaKind;
  fileType: MediaFileType;
  blobKey: string;
}

export interface MediaCleanupInput {
  /** Media no map uses is deleted once it was uploaded, or last let go of by a map, this long ago. */
  graceMs: number;
}

export interface MediaCleanupWorkflowInput extends MediaCleanupInput {
  /** The task queue of the deleting activity (the `media` workers'). */
  mediaTaskQueue: string;
  /** Map versions kept (absent in runs scheduled before versions existed: none are deleted). */
  versions?: VersionRetention;
}

/** A map keeps its newest `keep` versions and every version younger than `keepDays` days. */
export interface VersionRetention {
  keep: number;
  keepDays: number;
}

export interface MediaCleanupResult {
  /** Map versions deleted past their retention (before the media: a version's media may go with it). */
  versions?: number;
  images: string[];
  markers: string[];
}

export interface RenderMapImageInput {
  mapId: number;
}

/** What a render did: the new image's time, or nothing because the map no longer exists. */
export type RenderMapImageResult = { rendered: true; renderedAt: string } | { rendered: false; reason: 'map_gone' };

/** The one workflow per map that renders its static image (`map-image:<id>`). */
export interface MapImageInput {
  mapId: number;
  /** The `render` task queue, where the renderer activity runs. */
  renderTaskQueue: string;
  /** The least time between two counted renders (map/refresh_image, web saves). */
  spacingMs: number;
  /** Render at once, without starting the cool-down: a new map's first image (map/upload). */
  initialRender?: boolean;
  /** Carried across continue-as-new: when the cool-down ends (epoch ms), and a render asked for during it. */
  coolDownUntil?: number | null;
  pending?: boolean;
  /** Continue as new after a render once the history has this many events. */
  historyLimit?: number;
}

/** The answer of a refresh: rendered now, or coalesced into the render at the cool-down's end. */
export type RefreshImageAnswer = { refreshed: true; renderedAt: string } | { refreshed: false; nextRenderAt: number };

export const REFRESH_IMAGE_UPDATE = 'refreshImage';
/** A web save asks for a render and does not wait for it (a signal: saves during the cool-down coalesce). */
export const MAP_SAVED_SIGNAL = 'mapSaved';

export const mapImageWorkflowId = (mapId: number): string => `map-image:${mapId}`;

export const WORKFLOW_TYPES = {
  mapImage: 'mapImage',
  uploadMap: 'uploadMap',
  appendMap: 'appendMap',
  uploadMedia: 'uploadMedia',
  cleanup: 'cleanup',
  mediaCleanup: 'mediaCleanup',
  deliverWebhook: 'deliverWebhook',
} as const;

/** One webhook delivery's workflow (workflows/deliverWebhook.ts): the delivery row's id, and how it is retried. */
export interface DeliverWebhookInput {
  deliveryId: number;
  /** The first retry's delay; each next one twice as long, at most an hour. */
  retryFirstMs: number;
  /** How long it is retried before it is given up (and its endpoint, failing that long, switched off). */
  retryForMs: number;
}

/** The workflow id of a webhook delivery: the operator finds it in the Temporal UI by it. */
export const webhookDeliveryWorkflowId = (deliveryId: number): string => `webhook-delivery:${deliveryId}`;
