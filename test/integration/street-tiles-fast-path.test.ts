// The street tiles are answered before the app's middleware (api/streetTiles.ts): what they still
// get from it and what they do not. A browser at street zoom asks for dozens at a time, so they
// are not charged to the address's rate limit (a page from that address still is); they carry the
// headers every answer carries (nosniff, HSTS over HTTPS, CORS) and are counted in /metrics under
// their route pattern. (street-tiles.test.ts checks the tiles themselves.)
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../lib/config.js';
import { openConfiguredStreetArchive } from '../../lib/streetArchive/index.js';
import { streetFixture } from '../support/streetArchives.js';
import { startTestService, type TestService } from './harness.js';

/** A GET with exactly these headers; the body read and dropped. */
function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks).toString('latin1') }));
      })
      .on('error', reject);
  });
}

describe('street tiles before the app', () => {
  let service: TestService;
  let tile: string;
  const ADDRESS = '203.0.113.7';
  beforeAll(async () => {
    const defaults = loadConfig({}).rateLimits!;
    // Five requests from an address, then one every minute.
    const rateLimits = { ...defaults, perIp: { burst: 5, perMinute: 1 } };
    const { basemapTiles } = loadConfig({ BASEMAP_TILES: streetFixture() });
    service = await startTestService({ worker: false, config: { basemapTiles, rateLimits, publicUrl: 'https://maps.example.test', trustProxy: 1 } });
    const archive = (await openConfiguredStreetArchive(service.config))!;
    tile = `${service.url}/basemaps/osm/${archive.info.identity}/14/9327/4742.mvt`;
    await archive.close();
  });
  afterAll(() => service?.stop());

  it('are not charged to the address’s rate limit, which still holds for its pages', async () => {
    const answers = [];
    for (let i = 0; i < 40; i++) answers.push(await get(tile, { 'x-forwarded-for': ADDRESS, 'accept-encoding': 'gzip' }));
    expect(answers.map((answer) => answer.status)).toEqual(Array(40).fill(200));
    // The address's bucket is whole: five pages, then a refusal.
    const pages = [];
    for (let i = 0; i < 6; i++) pages.push((await get(`${service.url}/basemaps/classic/style.json`, { 'x-forwarded-for': ADDRESS })).status);
    expect(pages.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(pages[5]).not.toBe(200);
  });

  it('carry nosniff and CORS always, HSTS when the request came over HTTPS through the trusted proxy', async () => {
    const overHttps = await get(tile, { 'x-forwarded-for': '203.0.113.8', 'x-forwarded-proto': 'https' });
    expect(overHttps.headers).toMatchObject({ 'x-content-type-options': 'nosniff', 'access-control-allow-origin': '*', 'strict-transport-security': 'max-age=31536000' });
    const overHttp = await get(tile, { 'x-forwarded-for': '203.0.113.8', 'x-forwarded-proto': 'http' });
    expect(overHttp.headers['x-content-type-options']).toBe('nosniff');
    expect(overHttp.headers['strict-transport-security']).toBeUndefined();
  });

  it('are counted in /metrics under their route pattern, without their address', async () => {
    const before = await get(tile, { 'if-none-match': '"not this one"' });
    expect(before.status).toBe(200);
    const metrics = (await get(`${service.url}/metrics`)).body;
    const count = (status: number) =>
      Number(new RegExp(`mps_http_requests_total\\{method="GET",operation="/basemaps/osm/:identity/:z/:x/:y\\.mvt",status="${status}",error_code=""\\} (\\d+)`).exec(metrics)?.[1] ?? 0);
    expect(count(200)).toBeGreaterThanOrEqual(43);
    expect(metrics).toMatch(/mps_http_request_duration_seconds_count\{operation="\/basemaps\/osm\/:identity\/:z\/:x\/:y\.mvt",error_code=""\} \d+/);
    expect(metrics).not.toContain('9327');
  });
});
