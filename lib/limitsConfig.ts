// The configuration of issue 14's operational limits, kept apart from config.ts (which spreads
// it into its one schema): the rate limits of the API and the web pages (token buckets per API
// key and per client address), which proxies' X-Forwarded-For is believed, and how long a
// stopping process lets work in flight finish.
import { z } from 'zod';
import type { BucketRule } from './tokenBuckets.js';

const positiveInt = z.coerce.number().int().positive();

export const limitsEnvShape = {
  RATE_LIMITS: z.enum(['on', 'off']).default('on'),
  RATE_LIMIT_STORE: z.enum(['memory', 'postgres']).default('memory'),
  RATE_LIMIT_KEY_PER_MINUTE: positiveInt.default(600),
  RATE_LIMIT_KEY_BURST: positiveInt.default(300),
  RATE_LIMIT_IP_PER_MINUTE: positiveInt.default(1200),
  RATE_LIMIT_IP_BURST: positiveInt.default(1000),
  RATE_LIMIT_FILE_JOBS: z.coerce.number().int().min(0).default(2),
  RATE_LIMIT_FILE_WEIGHT: positiveInt.default(1),
  RATE_LIMIT_MB_WEIGHT: z.coerce.number().int().min(0).default(2),
  TRUST_PROXY: z
    .string()
    .regex(/^(true|false|\d{1,2})$/, 'must be false, true, or the number of proxies in front of the service (1, 2 …)')
    .default('false'),
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).default(30_000),
  TEST_SLOW_ACTIVITY_MS: z.coerce.number().int().min(0).optional(),
};

type LimitsEnv = z.output<z.ZodObject<typeof limitsEnvShape>>;

export interface RateLimits {
  /** memory: buckets per API process; postgres: one table every API process shares. */
  store: 'memory' | 'postgres';
  /** Per API key (authenticated /api/1/ calls). */
  perKey: BucketRule;
  /** Per client address (every request: API, web pages, files, log-in attempts). */
  perIp: BucketRule;
  /**
   * File jobs (map/upload, map/append, image/upload, marker/upload, map/update with a geojson,
   * the editor's Import and uploads) a client (its key, or its address for the editor's) may
   * have running at once, each paying only its size (api/rateCharges.ts fileJobCost).
   */
  freeFileJobs: number;
  /** What a file job adds to its cost for each of its client's jobs already running past freeFileJobs. */
  fileWeight: number;
  /** Tokens per whole MB: of a file job's body, and of the map's GeoJSON that map/get (and the site's reads of a map) sends, on top of its 1. */
  mbWeight: number;
}

export interface LimitsConfig {
  /** null: no rate limits (RATE_LIMITS=off: tests, benchmarks). */
  rateLimits: RateLimits | null;
  /**
   * Whose X-Forwarded-For is believed: false (the default) takes the connection's address; a
   * number n takes the address the nearest n proxies saw (the n-th entry from the end); true
   * takes the first entry (any client can write it: only behind a proxy that replaces the header).
   */
  trustProxy: boolean | number;
  /** How long a stopping process (SIGTERM, SIGINT) lets requests and activities in flight finish. */
  shutdownGraceMs: number;
  /** Tests only: every file and media activity waits this long before its work (cancellable). */
  testSlowActivityMs: number | undefined;
}

export function limitsConfigOf(e: LimitsEnv): LimitsConfig {
  return {
    rateLimits:
      e.RATE_LIMITS === 'off'
        ? null
        : {
            store: e.RATE_LIMIT_STORE,
            perKey: { burst: e.RATE_LIMIT_KEY_BURST, perMinute: e.RATE_LIMIT_KEY_PER_MINUTE },
            perIp: { burst: e.RATE_LIMIT_IP_BURST, perMinute: e.RATE_LIMIT_IP_PER_MINUTE },
            freeFileJobs: e.RATE_LIMIT_FILE_JOBS,
            fileWeight: e.RATE_LIMIT_FILE_WEIGHT,
            mbWeight: e.RATE_LIMIT_MB_WEIGHT,
          },
    trustProxy: e.TRUST_PROXY === 'true' ? true : e.TRUST_PROXY === 'false' || e.TRUST_PROXY === '0' ? false : Number(e.TRUST_PROXY),
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    testSlowActivityMs: e.TEST_SLOW_ACTIVITY_MS,
  };
}

/** A setting that cannot work with the rest (checked by loadConfig), or undefined. */
export function limitsConfigProblem(e: Pick<LimitsEnv, 'RATE_LIMITS' | 'RATE_LIMIT_STORE'>, databaseUrl: string | undefined): string | undefined {
  if (e.RATE_LIMITS === 'on' && e.RATE_LIMIT_STORE === 'postgres' && !databaseUrl) {
    return 'RATE_LIMIT_STORE: postgres needs DATABASE_URL (the embedded PGlite answers one query at a time: keep the memory store)';
  }
  return undefined;
}
