// Internal errors (a bug, an outage: what a client only sees as internal_error) as one JSON log
// line at error level, with the request's id and the error's kind, message and stack.
import { errorFields, log } from '../lib/observability/logger.js';

export function logInternalError(message: string, error: unknown, requestId?: string): void {
  log.error({ request_id: requestId, err: errorFields(error) }, message);
}
