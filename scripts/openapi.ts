// Prints the OpenAPI document of the HTTP API as JSON, with the server address from PUBLIC_URL:
//   npm run --silent openapi > openapi.json
// The running service serves the same document at GET /openapi.json.
import { buildOpenApiDocument } from '../api/openapi.js';
import { useExtraBasemaps } from '../lib/basemaps.js';
import { ConfigError, loadConfig } from '../lib/config.js';

try {
  const config = loadConfig();
  useExtraBasemaps(config.extraBasemaps); // their ids among map/update's basemaps, as the service's own document has them
  const document = buildOpenApiDocument(config.publicUrl);
  process.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exitCode = 1;
}
