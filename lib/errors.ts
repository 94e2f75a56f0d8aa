// The AppError family: every failure a client can see carries a stable snake_case code and a
// human message. One middleware (api/middleware/errors.ts) turns these into
// {"error": message, "error_code": code}; nothing else reaches a client.

/** Every error_code the API can answer with, and what it means. The README lists them. */
export const ERROR_CODES = {
  missing_api_key: 'The request has no "Authorization: Token <key>" header.',
  invalid_api_key: 'The API key is malformed, unknown or revoked.',
  email_not_verified: 'The account behind the key has not verified its e-mail address.',
  unknown_endpoint: 'No API operation lives at this path.',
  method_not_allowed: 'API operations are called with POST only.',
  invalid_json: 'The request body is not a JSON object.',
  invalid_arguments: 'An argument is missing, has the wrong type or a value that is not allowed.',
  map_not_found: 'No map with this id exists, or the caller may not see it.',
  permission_denied: 'The caller may see the map but not change it.',
  unsupported_file_type: 'The file_type, or the file\'s content as recognised by its first bytes, is not accepted by this operation.',
  missing_file: 'The operation needs a file in the request body and none was sent.',
  file_too_large: 'The file is larger than the upload limit.',
  invalid_geojson: 'The GeoJSON is not valid; the message names the first problem.',
  image_too_large: 'The image has more pixels than the service processes.',
  invalid_image: 'The image is damaged, truncated or cannot be decoded.',
  file_too_complex: 'The file needs more memory to process than one import may use.',
  processing_timeout: 'Processing the file took longer than the time limit.',
  service_unavailable: 'A component the service needs (the job server or its workers) cannot be reached.',
  internal_error: 'Something failed inside the service; the request can be retried.',
  // Account operations (operator CLI now, web pages later):
  username_taken: 'Another account already uses this username.',
  email_taken: 'Another account already uses this e-mail address.',
  user_not_found: 'No account has this username.',
  key_not_found: 'The account has no active API key with this prefix.',
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const isErrorCode = (value: unknown): value is ErrorCode =>
  typeof value === 'string' && Object.hasOwn(ERROR_CODES, value);
