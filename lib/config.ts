// The one place that reads process.env: a zod schema parsed once at start. A bad value stops
// start-up with a message naming the variable.
import path from 'node:path';
import ms from 'ms';
import { z } from 'zod';
import type { Basemap, ProviderKind } from './basemaps.js';
import { readCaFile } from './net/caFile.js';
import { parseExtraBasemaps } from './extraBasemaps.js';
import { readBlobSettings, type BlobServe, type BlobStoreSettings } from './blobs/blobSettings.js';
import { limitsConfigOf, limitsConfigProblem, limitsEnvShape, type LimitsConfig } from './limitsConfig.js';
import { parseStreetArchiveLocation, type StreetArchiveLocation } from './streetArchive/location.js';

const MB = 1024 * 1024;

const positiveInt = z.coerce.number().int().positive();

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  TEMPORAL_ADDRESS: z
    .string()
    .regex(/^[\w.-]+:\d+$/, 'must be host:port, for example 127.0.0.1:7233')
    .optional(),
  TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
  TEMPORAL_TASK_QUEUE: z.string().min(1).default('maps'),
  TEMPORAL_MEDIA_TASK_QUEUE: z.string().min(1).default('media'),
  TEMPORAL_RENDER_TASK_QUEUE: z.string().min(1).default('render'),
  WORKER_QUEUES: z
    .string()
    .regex(/^(maps|media|render)(,(maps|media|render))*$/, 'must be a comma-separated list of maps, media and render')
    .default('maps,media,render'),
  IMAGE_REFRESH_SPACING: z
    .string()
    .refine((value) => durationMs(value) !== undefined, 'must be a duration such as 90s or 5m')
    .default('5m'),
  RENDER_CONCURRENCY: positiveInt.default(1),
  TILE_CACHE_DIR: z.string().min(1).optional(),
  TILE_CACHE_MAX_MB: positiveInt.default(512),
  TILE_TIMEOUT: z
    .string()
    .refine((value) => durationMs(value) !== undefined, 'must be a duration such as 5s')
    .default('5s'),
  BASEMAP_TILES: z.string().trim().min(1).optional(),
  BASEMAP_TILE_CACHE_MB: z.coerce.number().int().min(0).default(64),
  BASEMAPS_EXTRA: z.string().trim().min(1).optional(),
  BASEMAPS_ALLOW_PRIVATE: z.enum(['true', 'false']).default('false'),
  WEBHOOK_ALLOW_PRIVATE: z.enum(['true', 'false']).default('false'),
  WEBHOOK_RETRY_FIRST: z
    .string()
    .refine((value) => durationMs(value) !== undefined, 'must be a duration such as 30s')
    .default('30s'),
  WEBHOOK_RETRY_FOR: z
    .string()
    .refine((value) => durationMs(value) !== undefined, 'must be a duration such as 24h')
    .default('24h'),
  WEBHOOK_CA_FILE: z.string().trim().min(1).optional(),
  PROVIDER_KEY_MAP_PLATFORM: z.string().trim().min(8).optional(),
  PROVIDER_KEY_LOCATION_PLATFORM: z.string().trim().min(8).optional(),
  PROVIDER_KEY_GIS_PLATFORM: z.string().trim().min(8).optional(),
  PROVIDER_KEY_TILE_PROVIDER: z.string().trim().min(8).optional(),
  HEAVY_TRAFFIC_VIEWS: positiveInt.default(1000),
  VERSIONS_KEPT: positiveInt.default(50),
  VERSIONS_KEPT_DAYS: positiveInt.default(30),
  MEDIA_GRACE: z
    .string()
    .refine((value) => durationMs(value) !== undefined, 'must be a duration such as 30m, 24h or 7d')
    .default('24h'),
  SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
  MAIL_FROM: z.string().min(3).optional(),
  DEPLOYMENT: z.enum(['standard', 'enterprise']).default('standard'),
  MAX_UPLOAD_MB: positiveInt.default(15),
  PROCESSING_TIMEOUT_SECONDS: positiveInt.default(120),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
  // Blob storage (lib/blobs/blobSettings.ts checks how they go together).
  BLOB_STORE: z.string().optional(),
  BLOB_SERVE: z.enum(['stream', 'redirect']).optional(),
  S3_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  S3_PUBLIC_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  S3_REGION: z.string().regex(/^[a-z0-9-]+$/, 'must be a region name such as eu-west-1').optional(),
  AWS_REGION: z.string().optional(),
  AWS_ACCESS_KEY_ID: z.string().trim().min(1).optional(),
  AWS_SECRET_ACCESS_KEY: z.string().trim().min(1).optional(),
  AWS_SESSION_TOKEN: z.string().trim().min(1).optional(),
  METRICS_TOKEN: z.string().trim().min(16, 'must be at least 16 characters').optional(),
  WORKER_METRICS_ADDRESS: z
    .string()
    .regex(/^[\w.:[\]-]+:\d+$/, 'must be host:port, for example 127.0.0.1:9464')
    .optional(),
  ...limitsEnvShape,
});

export type Env = Record<string, string | undefined>;

/** Milliseconds of a duration such as "90s", "30m", "24h" or "7d" (the ms package); undefined when it is not one. */
export function durationMs(value: string): number | undefined {
  if (!/^\s*\d+(\.\d+)?\s*[a-z]+\s*$/i.test(value)) return undefined; // a unit is required: "10" is not ten of anything
  let parsed: number | undefined;
  try {
    parsed = ms(value.trim() as ms.StringValue);
  } catch {
    return undefined;
  }
  return typeof parsed === 'number' && Number.isFinite(parsed) && parsed >= 0 ? parsed : undefined;
}

/** Rate limits, proxy trust and the shutdown grace: lib/limitsConfig.ts. */
export interface Config extends LimitsConfig {
  port: number;
  host: string;
  /** Base of every URL the service hands out, without a trailing slash. */
  publicUrl: string;
  dataDir: string;
  /** Unset: embedded PGlite under dataDir. */
  databaseUrl: string | undefined;
  /** Unset: npm start spawns a Temporal dev server under dataDir. */
  temporalAddress: string | undefined;
  temporalNamespace: string;
  taskQueue: string;
  /** The task queue of image and marker processing and the cleanup of unused media. */
  mediaTaskQueue: string;
  /** The task queue of static map images (the renderer). */
  renderTaskQueue: string;
  /** The task queues a worker process (`npm run worker`) polls. */
  workerQueues: WorkerQueue[];
  /** The least time between two renders of one map's static image asked for by map/refresh_image or a web save. */
  imageRefreshSpacingMs: number;
  /** Static images a render worker draws at once, each in a thread of its own (RENDER_CONCURRENCY). */
  renderConcurrency: number;
  /** Where fetched commercial basemap tiles are kept (default DATA_DIR/tile-cache), and how large it may grow. */
  tileCacheDir: string;
  tileCacheMaxBytes: number;
  /** How long one commercial basemap tile may take to arrive. */
  tileTimeoutMs: number;
  /** The PMTiles archive of OpenStreetMap the built-in basemaps draw streets from (BASEMAP_TILES); unset: Natural Earth only (lib/streetArchive/). */
  basemapTiles: StreetArchiveLocation | undefined;
  /** How many bytes of that archive's tiles each process keeps in memory (the tiles read last; 0: none). */
  basemapTileCacheBytes: number;
  /** The operator's own XYZ raster basemaps (BASEMAPS_EXTRA, lib/extraBasemaps.ts), added to the catalogue at start. */
  extraBasemaps: Basemap[];
  /** Basemap tiles may be fetched from private, loopback and link-local addresses (BASEMAPS_ALLOW_PRIVATE=true). */
  basemapsAllowPrivate: boolean;
  /** Webhook endpoints may be at private, loopback and link-local addresses, and plain http (WEBHOOK_ALLOW_PRIVATE=true). */
  webhookAllowPrivate: boolean;
  /** A failed webhook delivery's first retry comes after this long, each next one twice as late (at most an hour) (WEBHOOK_RETRY_FIRST). */
  webhookRetryFirstMs: number;
  /** Deliveries are retried for this long; an endpoint failing this long is switched off (WEBHOOK_RETRY_FOR, 24 h). */
  webhookRetryForMs: number;
  /** PEM certificates of extra CAs trusted for webhook endpoints, beside the usual ones (read from WEBHOOK_CA_FILE at start). */
  webhookCa: string | undefined;
  /**
   * The service's own provider keys (PROVIDER_KEY_<KIND>): the browser shows a map on a commercial
   * basemap with them when its owner has no key, until the map passes heavyTrafficViews in a day.
   */
  serviceProviderKeys: Partial<Record<ProviderKind, string>>;
  /** Views of a map's page and embed in a day (UTC) after which a map shown with a service key falls back to classic for 24 hours. */
  heavyTrafficViews: number;
  /** How long media no map uses is kept before the cleanup deletes it (from its upload, or from when a map let go of it). */
  mediaGraceMs: number;
  /** A map keeps at least its newest this many versions (the editor's History)… */
  versionsKept: number;
  /** …and every version younger than this many days; the hourly cleanup deletes the rest. */
  versionsKeptDays: number;
  /** Unset: every message is written to DATA_DIR/outbox/ as an .eml file and its link logged. */
  smtpUrl: string | undefined;
  /** The sender of the service's e-mail. */
  mailFrom: string;
  deployment: 'standard' | 'enterprise';
  /** null: no limit (enterprise). */
  maxUploadBytes: number | null;
  /** null: no limit (enterprise). */
  processingTimeoutMs: number | null;
  logLevel: 'debug' | 'info' | 'warn' | 'error';
  /** Where uploads, parsed documents, images, markers and static images are kept (BLOB_STORE). */
  blobStore: BlobStoreSettings;
  /** How stored files reach clients (BLOB_SERVE). */
  blobServe: BlobServe;
  /** GET /metrics with `Authorization: Bearer <token>` from anywhere; unset: from loopback only (api/metricsEndpoint.ts). */
  metricsToken: string | undefined;
  /** host:port where a worker process serves the Temporal SDK's metrics; unset: off (workers/runtime.ts). */
  workerMetricsAddress: string | undefined;
}

export type WorkerQueue = 'maps' | 'media' | 'render';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Parses the environment (empty strings count as unset). Throws ConfigError naming each bad variable. */
export function loadConfig(env: Env = process.env): Config {
  const cleaned = Object.fromEntries(
    Object.keys(envSchema.shape).map((key) => [key, env[key] === '' ? undefined : env[key]]),
  );
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const e = parsed.data;
  const problem = limitsConfigProblem(e, e.DATABASE_URL);
  if (problem) throw new ConfigError(`Invalid configuration:\n  ${problem}`);
  const enterprise = e.DEPLOYMENT === 'enterprise';
  const streets = e.BASEMAP_TILES === undefined ? undefined : parseStreetArchiveLocation(e.BASEMAP_TILES, e);
  const blobs = readBlobSettings(e, path.resolve(e.DATA_DIR), streets && 'location' in streets && streets.location.kind === 's3' ? 'BASEMAP_TILES' : undefined);
  const extras = e.BASEMAPS_EXTRA === undefined ? { basemaps: [] } : parseExtraBasemaps(e.BASEMAPS_EXTRA);
  const webhookCa = e.WEBHOOK_CA_FILE === undefined ? { pem: undefined } : readCaFile('WEBHOOK_CA_FILE', e.WEBHOOK_CA_FILE);
  const problems = [...('problem' in webhookCa ? [webhookCa.problem] : []), ...blobs.problems, ...(streets && 'problems' in streets ? streets.problems : []), ...('problems' in extras ? extras.problems : [])];
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  return {
    port: e.PORT,
    host: e.HOST,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    temporalAddress: e.TEMPORAL_ADDRESS,
    temporalNamespace: e.TEMPORAL_NAMESPACE,
    taskQueue: e.TEMPORAL_TASK_QUEUE,
    mediaTaskQueue: e.TEMPORAL_MEDIA_TASK_QUEUE,
    renderTaskQueue: e.TEMPORAL_RENDER_TASK_QUEUE,
    workerQueues: [...new Set(e.WORKER_QUEUES.split(','))] as WorkerQueue[],
    imageRefreshSpacingMs: durationMs(e.IMAGE_REFRESH_SPACING)!,
    renderConcurrency: e.RENDER_CONCURRENCY,
    tileCacheDir: path.resolve(e.TILE_CACHE_DIR ?? path.join(e.DATA_DIR, 'tile-cache')),
    tileCacheMaxBytes: e.TILE_CACHE_MAX_MB * MB,
    tileTimeoutMs: durationMs(e.TILE_TIMEOUT)!,
    basemapTiles: streets && 'location' in streets ? streets.location : undefined,
    basemapTileCacheBytes: e.BASEMAP_TILE_CACHE_MB * MB,
    extraBasemaps: 'basemaps' in extras ? extras.basemaps : [],
    basemapsAllowPrivate: e.BASEMAPS_ALLOW_PRIVATE === 'true',
    webhookAllowPrivate: e.WEBHOOK_ALLOW_PRIVATE === 'true',
    webhookRetryFirstMs: durationMs(e.WEBHOOK_RETRY_FIRST)!,
    webhookRetryForMs: durationMs(e.WEBHOOK_RETRY_FOR)!,
    webhookCa: 'pem' in webhookCa ? webhookCa.pem : undefined,
    serviceProviderKeys: Object.fromEntries(
      (
        [
          ['map_platform', e.PROVIDER_KEY_MAP_PLATFORM],
          ['location_platform', e.PROVIDER_KEY_LOCATION_PLATFORM],
          ['gis_platform', e.PROVIDER_KEY_GIS_PLATFORM],
          ['tile_provider', e.PROVIDER_KEY_TILE_PROVIDER],
        ] as const
      ).filter(([, key]) => key !== undefined),
    ),
    heavyTrafficViews: e.HEAVY_TRAFFIC_VIEWS,
    mediaGraceMs: durationMs(e.MEDIA_GRACE)!,
    versionsKept: e.VERSIONS_KEPT,
    versionsKeptDays: e.VERSIONS_KEPT_DAYS,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM ?? `Maps <no-reply@${new URL(e.PUBLIC_URL ?? 'http://localhost').hostname}>`,
    deployment: e.DEPLOYMENT,
    maxUploadBytes: enterprise ? null : e.MAX_UPLOAD_MB * MB,
    processingTimeoutMs: enterprise ? null : e.PROCESSING_TIMEOUT_SECONDS * 1000,
    logLevel: e.LOG_LEVEL,
    blobStore: blobs.store,
    blobServe: blobs.serve,
    metricsToken: e.METRICS_TOKEN,
    workerMetricsAddress: e.WORKER_METRICS_ADDRESS,
    ...limitsConfigOf(e),
  };
}
