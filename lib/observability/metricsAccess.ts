// The METRICS_TOKEN check that both metrics endpoints share: the API's GET /metrics
// (api/metricsEndpoint.ts) and the workers' listener at WORKER_METRICS_ADDRESS
// (workers/metricsListener.ts). A scraper sends `Authorization: Bearer <token>`.
import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

export const METRICS_TOKEN_WANTED = 'Send the metrics token as "Authorization: Bearer <METRICS_TOKEN>".';

/** The header that goes with a 401 for want of the token. */
export const METRICS_AUTHENTICATE = 'Bearer realm="metrics"';

/** Whether an Authorization header carries the token (compared in constant time). */
export function bearerMatches(authorization: string | undefined, token: string): boolean {
  const given = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
  // Digests of equal length: the comparison takes the same time whatever was sent.
  return given !== undefined && timingSafeEqual(digest(given), digest(token));
}
