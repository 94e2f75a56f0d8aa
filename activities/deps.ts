import type { Db } from '../db/connection.js';
import type { BlobStore } from '../lib/blobs/blobStore.js';
import type { Basemap, ProviderKind } from '../lib/basemaps.js';
import type { BackgroundPainter } from '../lib/render/renderMap.js';
import type { TileOwner } from '../lib/render/tileCache.js';
import type { StreetArchive } from '../lib/streetArchive/index.js';
import type { Mailer } from '../lib/mail.js';
import type { WebhookSettings } from '../lib/webhooks/model.js';

/**
 * Fault-injection points for tests (in the spirit of FoundationDB's BUGGIFY): a test can make
 * a real activity slow or failing at a named point. Production passes none.
 */
export interface FaultHooks {
  /** Runs after the file is read, before parsing; receives the activity's cancellation signal. */
  beforeParse?: (signal: AbortSignal) => Promise<void>;
  /** Runs before an uploaded image or marker is read and processed; receives the activity's cancellation signal. */
  beforeMedia?: (signal: AbortSignal) => Promise<void>;
}

/** What activities are built over; the worker entry points create these. */
export interface ActivityDeps {
  db: Db;
  blobs: BlobStore;
  /** The service's PUBLIC_URL (table imports recognise the service's own image URLs). */
  publicUrl: string;
  faults?: FaultHooks;
  /** How the renderer draws a commercial basemap for the map's owner with a key (fetched XYZ tiles, cached per owner and key); the render worker has it. */
  paintTiles?: (basemap: Basemap, owner: TileOwner) => BackgroundPainter;
  /** The service's own provider keys (config.serviceProviderKeys), for maps whose owners have none. */
  serviceProviderKeys?: Partial<Record<ProviderKind, string>>;
  /** The street map archive (BASEMAP_TILES), opened and checked by the entry point, for the renderer's built-in basemaps; undefined: Natural Earth only. */
  streets?: StreetArchive;
  /** Webhook deliveries: private addresses allowed, retry timing (lib/webhooks/model.ts DEFAULT_WEBHOOK_SETTINGS without it). */
  webhooks?: WebhookSettings;
  /** Tells an owner their webhook endpoint was switched off. */
  mailer?: Mailer;
}
