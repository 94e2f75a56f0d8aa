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
  invalid_content_encoding: 'The request body is compressed with a Content-Encoding the service does not read (it reads gzip, deflate and br), or is not valid data in it.',
  headers_too_large: 'The request headers are larger than the service accepts (1 MB in all).',
  malformed_request: 'The request is not a well-formed HTTP request.',
  request_timeout: 'The request did not arrive in time.',
  invalid_arguments: 'An argument is missing, has the wrong type or a value that is not allowed.',
  map_not_found: 'No map with this id exists, or the caller may not see it.',
  media_not_found: 'No image or marker file is at this URL, or the caller may not see it (HTTP 404, from /images/… and /markers/…).',
  basemap_not_found: 'No built-in basemap style, tile or font file is at this URL (HTTP 404, from /basemaps/…).',
  permission_denied: 'The caller may see the map but not make this change (only the owner changes visibility and the short name).',
  save_conflict: 'A save (the web editor\'s, HTTP 409 there; feature/save with a `revision`) changes or deletes items someone else changed or deleted since that revision; nothing was saved, the conflicts are listed by id.',
  feature_not_found: 'A feature id the request names to change is not in the map (feature/save; leave `id` out to add a feature).',
  unknown_revision: 'feature/save\'s `revision` or map/changes\' `since_revision` is after the map\'s current revision (the message says which that is).',
  invalid_bbox: 'feature/list\'s `bbox` has a latitude outside -90…90 or its south above its north.',
  group_not_found: 'feature/list\'s `group` is no group of the map.',
  revision_not_kept: 'map/changes: the map no longer keeps its versions back to `since_revision` (or never had them); read the whole map again (feature/list) and follow its changes from the revision that read answers.',
  idempotency_key_reused: 'The Idempotency-Key was already used for a different request (another operation, map, arguments or file).',
  map_too_large: 'The map would be larger than a map may be (64 MB of GeoJSON text).',
  unsupported_file_type: 'The file_type, or the file\'s content as recognised by its first bytes, is not accepted by this operation.',
  missing_file: 'The operation needs a file in the request body and none was sent.',
  file_too_large: 'The file is larger than the upload limit.',
  invalid_geojson: 'The GeoJSON is not valid; the message names the first problem.',
  image_too_large: 'The image has more pixels than the service processes (100 megapixels, 25 for a marker), or a side over 65,535 pixels.',
  invalid_image: 'The image is damaged, truncated or cannot be decoded.',
  file_too_complex: 'The file needs more memory to process than one import may use.',
  feature_too_large: 'One item of the file would be larger than a map item may be (32 MB of GeoJSON text).',
  processing_timeout: 'Processing the file took longer than the time limit.',
  service_unavailable: 'A component the service needs (the database, the job server or its workers) cannot be reached.',
  server_busy: 'The service is busy with other large requests; retry in a few seconds.',
  internal_error: 'Something failed inside the service; the request can be retried.',
  // Imports (lib/formats/):
  unsupported_type: 'The file is not of the kind its file_type names, or of no kind the import reads; the message says what it looks like.',
  invalid_file: 'The file cannot be read as its format: not well-formed XML (with line and column), a wrong root element, a broken encoding or NUL characters; a truncated or inconsistent Shapefile, FlatGeobuf or GeoPackage.',
  doctype_not_allowed: 'The XML file has a <!DOCTYPE> declaration; DTDs and entities are refused in uploads.',
  too_deep: 'The XML elements of the file are nested more deeply than an import allows.',
  no_features: 'The file holds nothing that can become a map item; the message says what it holds instead.',
  too_many_features: 'The file holds more items than one map may have, or a feature/save would make the map hold more, or names more features and ids than one save takes.',
  invalid_archive: 'The zip archive (KMZ, zipped shapefile) is corrupt, truncated, encrypted or uses a zip feature that is not supported.',
  archive_too_large: 'The archive (KMZ, XLSX, ODS, zipped shapefile) has too many entries or inflates to more data than one import may unpack.',
  no_kml_in_archive: 'The KMZ archive holds no .kml file.',
  no_shp_in_archive: 'The zipped shapefile holds no .shp file.',
  unknown_crs: 'The file declares a coordinate system the service cannot convert to WGS 84 longitude/latitude (the message names it), or has none and its coordinates are not longitude/latitude.',
  missing_coordinate_columns: 'The table has no latitude or no longitude column; the message lists the accepted column names.',
  empty_table: 'The table has no header row, or a header row and no data rows.',
  csv_parse_error: 'The CSV file is malformed (for example a quote that is never closed); the message names the row.',
  unsupported_encoding: 'The CSV file is in a text encoding the import cannot recognise; save it as UTF-8.',
  sheet_too_large: 'The table has more rows, columns or groups than one import accepts.',
  cell_too_large: 'A cell of the table holds more text than one import accepts.',
  invalid_spreadsheet: 'The spreadsheet file is damaged or not built the way its format requires.',
  encrypted_spreadsheet: 'The spreadsheet is protected with a password; save it without one.',
  // Account operations (operator CLI now, web pages later):
  username_taken: 'Another account already uses this username.',
  email_taken: 'Another account already uses this e-mail address.',
  user_not_found: 'No account has this username.',
  key_not_found: 'The account has no active API key with this prefix.',
  provider_key_missing: 'The map is on a commercial basemap and its owner has not added a provider key of the kind it needs; the message says which and where.',
  provider_key_refused: 'The provider of the map\'s commercial basemap refused the owner\'s provider key (HTTP 401 or 403); the message names the provider kind.',
  basemap_address_refused: 'The basemap\'s tile server is at a private, loopback or link-local network address, which the service does not fetch from unless its operator allows it (BASEMAPS_ALLOW_PRIVATE).',
  basemap_unavailable: 'The tiles of the map\'s commercial basemap could not be fetched (the provider did not answer in time); the image can be refreshed later.',
  invalid_credentials: 'The username or e-mail address and the password of a log-in do not match an account.',
  invalid_token: 'A verification or password-reset link was used already, expired or is incomplete.',
  rate_limited: 'Too many requests with this API key or from this address (HTTP 429, with the seconds to wait in `retry_after` and a Retry-After header), or too many log-in, sign-up or reset attempts; the message says when to try again.',
  invalid_provider_key: 'A provider key is not of the form its provider kind needs (the map platform needs a public token starting "pk.").',
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
