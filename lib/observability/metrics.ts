// Every metric this process exposes at GET /metrics (api/metricsEndpoint.ts), in one
// prom-client registry: Node's default process metrics and the service's own, named `mps_…`.
// Labels are bounded sets (operation names and route patterns, error codes, formats, workflow
// types, statement kinds): never ids, user names or URLs, so the metrics hold no user data and
// their number stays small. The README's "Logs and metrics" section says what to watch.
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';

export const registry = new Registry();
collectDefaultMetrics({ register: registry });

const registers = [registry];

/** Seconds: from a millisecond API answer to a 2-minute import. */
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 150];
/** Seconds: a stat or a query of a fraction of a millisecond to a streamed 15 MB file. */
const STORAGE_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10];

export const httpRequests = new Counter({
  name: 'mps_http_requests_total',
  help: 'HTTP requests answered, by method, operation (API operation or route pattern), status and error_code ("" when none).',
  labelNames: ['method', 'operation', 'status', 'error_code'] as const,
  registers,
});

export const httpDuration = new Histogram({
  name: 'mps_http_request_duration_seconds',
  help: 'Time from a request’s arrival to the last byte of its answer, by operation and error_code.',
  labelNames: ['operation', 'error_code'] as const,
  buckets: REQUEST_BUCKETS,
  registers,
});

export const imports = new Counter({
  name: 'mps_imports_total',
  help: 'Files imported into maps (map/upload, map/append, the web editor’s Import), by format.',
  labelNames: ['format'] as const,
  registers,
});

export const importBytes = new Counter({
  name: 'mps_import_bytes_total',
  help: 'Bytes of the imported files (as stored, after any Content-Encoding), by format.',
  labelNames: ['format'] as const,
  registers,
});

export const importFeatures = new Counter({
  name: 'mps_import_features_total',
  help: 'Features the imported files added to maps, by format.',
  labelNames: ['format'] as const,
  registers,
});

export const workflows = new Counter({
  name: 'mps_workflows_total',
  help:
    'Workflows as the API saw them, by type and outcome: started (a new run), joined (a retry under the same Idempotency-Key), ' +
    'completed, failed (error_code says why).',
  labelNames: ['workflow_type', 'outcome', 'error_code'] as const,
  registers,
});

export const workflowWait = new Histogram({
  name: 'mps_workflow_wait_seconds',
  help: 'How long the API waited for a workflow’s result, by type and outcome (completed, failed).',
  labelNames: ['workflow_type', 'outcome'] as const,
  buckets: REQUEST_BUCKETS,
  registers,
});

export const blobDuration = new Histogram({
  name: 'mps_blob_operation_duration_seconds',
  help: 'Blob store operations by operation (putStream, read, exists, …) and outcome (ok, error); a stream counts until its end.',
  labelNames: ['operation', 'outcome'] as const,
  buckets: STORAGE_BUCKETS,
  registers,
});

export const dbDuration = new Histogram({
  name: 'mps_db_query_duration_seconds',
  help: 'Database queries through knex by statement kind (select, insert, update, delete, …) and outcome (ok, error).',
  labelNames: ['statement', 'outcome'] as const,
  buckets: STORAGE_BUCKETS,
  registers,
});

/** Seconds since a process.hrtime.bigint() reading. */
export const secondsSince = (start: bigint): number => Number(process.hrtime.bigint() - start) / 1e9;

/** One imported file: its format (the file type that read it: kml, gpx, geojson, csv, excel), its bytes, the features it added. */
export function recordImport(format: string, bytes: number, features: number): void {
  imports.inc({ format });
  importBytes.inc({ format }, bytes);
  importFeatures.inc({ format }, features);
}
