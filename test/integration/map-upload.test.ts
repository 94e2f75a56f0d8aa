import fs from 'node:fs';
import http from 'node:http';
import { ReadableStream } from 'node:stream/web';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, featureCollection, type TestService } from './harness.js';

let service: TestService;
let key: string;
let username: string;
beforeAll(async () => {
  service = await startTestService();
  ({ key, username } = await service.newUser());
});
afterAll(() => service.stop());

const mapCount = async (ownerKey: string) => {
  const list = await service.call('map/list', ownerKey);
  return list.owner.length as number;
};

/** The files requests keep while they run (a map's rendered images under map-images/ are not a request's). */
const blobFiles = (): string[] =>
  fs.existsSync(service.blobDir)
    ? fs
        .readdirSync(service.blobDir, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile() && !e.parentPath.includes('map-images'))
        .map((e) => e.name)
    : [];

describe('map/upload', () => {
  it('creates an empty map with the spec fields, without a body', async () => {
    const body = await service.send('map/upload', key, { file_type: 'empty', visibility: 'public', title: 'Empty one' });
    expect(Object.keys(body).sort()).toEqual(['id', 'owner', 'short_name', 'title', 'url', 'visibility']);
    expect(body).toMatchObject({ owner: username, short_name: 'empty-one', title: 'Empty one', visibility: 'public' });
    expect(body.url).toBe(`${service.url}/${username}/empty-one`);
    const map = await service.call('map/get', key, { map_id: body.id });
    expect(map.geojson).toEqual({ type: 'FeatureCollection', features: [], groups: [] });
  });

  it('imports a GeoJSON file, keeps groups and reports the import', async () => {
    const doc = {
      type: 'FeatureCollection',
      groups: [{ id: 'g', title: 'Group' }],
      features: [
        { type: 'Feature', geometry: { type: 'Point', coordinates: [10, 20] }, properties: { title: 'A', group: 'g' } },
        { type: 'Feature', id: 7, geometry: { type: 'LineString', coordinates: [[0, 0], [1, 1]] }, properties: {} },
      ],
      export: { by: 'another tool' },
    };
    const body = await service.send(
      'map/upload',
      key,
      { file_type: 'geojson', visibility: 'unlisted', title: 'Imported', description: 'Two items', short_name: 'My Trip!' },
      JSON.stringify(doc),
    );
    expect(body).toMatchObject({ short_name: 'my-trip', title: 'Imported', visibility: 'unlisted', import: { features: 2, skipped: [] } });
    const map = await service.call('map/get', key, { map_id: body.id });
    expect(map.description).toBe('Two items');
    expect(map.geojson.groups).toEqual([{ id: 'g', title: 'Group' }]);
    expect(map.geojson.export).toEqual({ by: 'another tool' });
    const ids = map.geojson.features.map((f: { id: number }) => f.id);
    expect(new Set(ids).size).toBe(2);
    expect(ids).toContain(7);
  });

  it('makes the preferred short name unique per owner and returns the final one', async () => {
    const first = await service.send('map/upload', key, { file_type: 'empty', visibility: 'public', short_name: 'Same Name' });
    const second = await service.send('map/upload', key, { file_type: 'empty', visibility: 'public', short_name: 'same-name' });
    expect(first.short_name).toBe('same-name');
    expect(second.short_name).toBe('same-name-2');
    expect(second.url).toMatch(/\/same-name-2$/);
    const other = await service.newUser();
    const theirs = await service.send('map/upload', other.key, { file_type: 'empty', visibility: 'public', short_name: 'same name' });
    expect(theirs.short_name).toBe('same-name');
  });

  it('gives unique short names to concurrent uploads with the same preference', async () => {
    const results = await Promise.all(
      Array.from({ length: 5 }, () => service.send('map/upload', key, { file_type: 'empty', visibility: 'private', short_name: 'race' })),
    );
    const names = results.map((r) => r.short_name);
    expect(new Set(names).size).toBe(5);
    expect(names).toContain('race');
  });

  it('requires visibility and accepts only public, unlisted and private', async () => {
    const before = await mapCount(key);
    const missing = await service.send('map/upload', key, { file_type: 'empty' });
    expect(missing).toMatchObject({ error_code: 'invalid_arguments' });
    expect(missing.error).toContain('visibility');
    const select = await service.send('map/upload', key, { file_type: 'empty', visibility: 'select' });
    expect(select).toMatchObject({ error_code: 'invalid_arguments' });
    expect(select.error).toMatch(/public, unlisted, private/);
    expect(await mapCount(key)).toBe(before);
  });

  it('refuses a missing, invalid or non-object Service-API-Arg header', async () => {
    expect(await service.send('map/upload', key, undefined)).toMatchObject({ error_code: 'invalid_arguments' });
    const bad = await service.send('map/upload', key, '{"file_type": "empty",');
    expect(bad).toMatchObject({ error_code: 'invalid_arguments' });
    expect(bad.error).toMatch(/not valid JSON/);
    expect(await service.send('map/upload', key, '[1]')).toMatchObject({ error_code: 'invalid_arguments' });
  });

  it('refuses an unknown file_type, naming the allowed ones', async () => {
    const body = await service.send('map/upload', key, { file_type: 'dwg', visibility: 'public' }, 'x');
    expect(body.error_code).toBe('invalid_arguments');
    expect(body.error).toMatch(/empty, kml, gpx, geojson, shapefile, flatgeobuf, geopackage/);
    const csv = await service.send('map/upload', key, { file_type: 'csv', visibility: 'public' }, 'x');
    expect(csv.error_code).toBe('invalid_arguments');
  });

  it('reads the whole body before answering an early error, so clients see the JSON answer', async () => {
    const half = Buffer.alloc(1024 * 1024, 0x20);
    let answered = false;
    let answeredEarly: boolean | undefined;
    const answer = new Promise<Record<string, unknown>>((resolve, reject) => {
      const req = http.request(`${service.url}/api/1/map/upload`, {
        method: 'POST',
        headers: { authorization: 'Token not-a-key', 'service-api-arg': '{}', 'content-length': String(half.length * 2) },
      });
      req.on('response', (res) => {
        answered = true;
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve(JSON.parse(text)));
      });
      req.on('error', reject);
      req.write(half);
      // Half the body is sent: the service has found the bad key but must not answer yet.
      setTimeout(() => {
        answeredEarly = answered;
        req.end(half);
      }, 300);
    });
    expect(await answer).toMatchObject({ error_code: 'invalid_api_key' });
    expect(answeredEarly).toBe(false);
  });

  it('refuses a file upload without a body', async () => {
    expect(await service.send('map/upload', key, { file_type: 'geojson', visibility: 'public' })).toMatchObject({
      error_code: 'missing_file',
    });
  });

  it('refuses invalid GeoJSON with a message naming the first problem, and leaves no map behind', async () => {
    const before = await mapCount(key);
    const doc = featureCollection(3);
    (doc.features[1]!.geometry.coordinates as number[])[1] = 95;
    const body = await service.send('map/upload', key, { file_type: 'geojson', visibility: 'public' }, JSON.stringify(doc));
    expect(body.error_code).toBe('invalid_geojson');
    expect(body.error).toMatch(/latitude 95/);
    const notJson = await service.send('map/upload', key, { file_type: 'geojson', visibility: 'public' }, '{"type":');
    expect(notJson.error_code).toBe('invalid_geojson');
    expect(await mapCount(key)).toBe(before);
    expect(blobFiles()).toEqual([]);
  });

  it('refuses 15 MB + 1 byte, declared or streamed, and keeps no partial file', async () => {
    const limit = 15 * 1024 * 1024;
    const tooBig = new Uint8Array(limit + 1).fill(0x20);
    const declared = await service.send('map/upload', key, { file_type: 'geojson', visibility: 'public' }, tooBig);
    expect(declared).toMatchObject({ error_code: 'file_too_large' });
    expect(declared.error).toMatch(/15 MB/);

    // Chunked: no Content-Length, so the cap is enforced while streaming.
    const chunks = (async function* () {
      for (let sent = 0; sent <= limit; sent += 1024 * 1024) yield new Uint8Array(1024 * 1024).fill(0x20);
    })();
    const response = await fetch(`${service.url}/api/1/map/upload`, {
      method: 'POST',
      headers: { authorization: `Token ${key}`, 'service-api-arg': '{"file_type":"geojson","visibility":"public"}' },
      body: ReadableStream.from(chunks),
      duplex: 'half',
    } as RequestInit);
    expect(await response.json()).toMatchObject({ error_code: 'file_too_large' });
    expect(blobFiles()).toEqual([]);
  });

  it('accepts a file of exactly the limit size at the transport level', async () => {
    const limit = 15 * 1024 * 1024;
    const json = JSON.stringify(featureCollection(10));
    const padded = new TextEncoder().encode(json + ' '.repeat(limit - json.length));
    const body = await service.send('map/upload', key, { file_type: 'geojson', visibility: 'private' }, padded);
    expect(body.error).toBeUndefined();
    expect(body.import.features).toBe(10);
  });

  it('returns the first result for a retried Idempotency-Key and creates nothing new', async () => {
    const before = await mapCount(key);
    const file = JSON.stringify(featureCollection(2));
    const args = { file_type: 'geojson', visibility: 'private', title: 'Once' };
    const first = await service.send('map/upload', key, args, file, { 'idempotency-key': 'upload-once-1' });
    const again = await service.send('map/upload', key, args, file, { 'idempotency-key': 'upload-once-1' });
    expect(again).toEqual(first);
    expect(await mapCount(key)).toBe(before + 1);
    // Concurrent retries of a new key still create one map.
    const racing = await Promise.all(
      [1, 2, 3].map(() => service.send('map/upload', key, args, file, { 'idempotency-key': 'upload-once-2' })),
    );
    expect(new Set(racing.map((r) => r.id)).size).toBe(1);
    expect(await mapCount(key)).toBe(before + 2);
    expect(blobFiles()).toEqual([]);
  });

  it('scopes idempotency keys per user', async () => {
    const other = await service.newUser();
    const args = { file_type: 'empty', visibility: 'private' };
    const mine = await service.send('map/upload', key, args, undefined, { 'idempotency-key': 'shared-key' });
    const theirs = await service.send('map/upload', other.key, args, undefined, { 'idempotency-key': 'shared-key' });
    expect(theirs.owner).toBe(other.username);
    expect(theirs.id).not.toBe(mine.id);
  });

  it('refuses a malformed Idempotency-Key', async () => {
    const body = await service.send('map/upload', key, { file_type: 'empty', visibility: 'private' }, undefined, {
      'idempotency-key': 'has spaces in it',
    });
    expect(body.error_code).toBe('invalid_arguments');
  });

  it('has not logged an internal error', () => {
    expect(service.internalErrors).toEqual([]);
  });
});
