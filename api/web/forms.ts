// What the web routes share about forms: the posted fields, the HTTP status of each refusal (forms
// and the editor's JSON requests alike), the logged-in viewer.
import type { Context, Next } from 'koa';
import type { ErrorCode } from '../../lib/errors.js';
import type { WebState } from './session.js';

export const STATUS: Partial<Record<ErrorCode, number>> = {
  invalid_arguments: 400,
  invalid_credentials: 401,
  invalid_token: 400,
  username_taken: 409,
  email_taken: 409,
  rate_limited: 429,
  invalid_geojson: 400,
  invalid_json: 400,
  permission_denied: 403,
  map_not_found: 404,
  file_too_large: 413,
  map_too_large: 413,
  server_busy: 503,
  // The editor's Import (map/append's failures):
  missing_file: 400,
  unsupported_type: 415,
  unsupported_file_type: 415,
  too_many_features: 413,
  feature_too_large: 413,
  archive_too_large: 413,
  sheet_too_large: 413,
  cell_too_large: 413,
  file_too_complex: 413,
  processing_timeout: 422,
  // The editor's image and icon uploads (uploadMedia's failures):
  image_too_large: 413,
  invalid_image: 400,
  service_unavailable: 503,
  internal_error: 500,
};

/** The form's fields as strings ('' when missing or not text). */
export function fields(ctx: Context): Record<string, string> {
  const body = ((ctx.request as { body?: unknown }).body ?? {}) as Record<string, unknown>;
  return Object.fromEntries(Object.entries(body).map(([key, value]) => [key, typeof value === 'string' ? value : '']));
}

export const viewerOf = (ctx: Context) => (ctx.state as WebState).viewer;

/**
 * Pages for a logged-in viewer only: anyone else goes to the log-in page, and back here after it
 * (a form's post goes back to `fallback`, the page the form was on).
 */
export function requireViewer(fallback: string) {
  return async (ctx: Context, next: Next) => {
    if (!viewerOf(ctx)) return ctx.redirect(`/login?next=${encodeURIComponent(ctx.method === 'GET' ? ctx.path : fallback)}`);
    await next();
  };
}
