// What careless and hostile clients send at the edge of the API (issue 8): oversized headers,
// compressed and corrupt bodies, strings PostgreSQL cannot store, odd argument shapes, reused
// idempotency keys, and the headers every answer carries.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { featureCollection, startTestService, type TestService } from './harness.js';

let service: TestService;
let key: string;
beforeAll(async () => {
  service = await startTestService();
  ({ key } = await service.newUser());
});
afterAll(() => service.stop());

const expectError = (body: Record<string, unknown>, code: string, message?: RegExp) => {
  expect(Object.keys(body).sort()).toEqual(['error', 'error_code']);
  expect(body.error_code).toBe(code);
  if (message) expect(body.error).toMatch(message);
};

async function post(path: string, init: RequestInit): Promise<{ status: number; headers: Headers; body: Record<string, unknown> }> {
  const response = await fetch(`${service.url}${path}`, { method: 'POST', ...init });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, unknown> };
}

describe('headers', () => {
  it('takes the longest documented argument in the argument header (a 100,000-character description as \\u escapes)', async () => {
    const description = 'é'.repeat(100_000);
    const args = JSON.stringify({ file_type: 'empty', visibility: 'private', description }).replace(/é/g, '\\u00e9');
    expect(args.length).toBeGreaterThan(600_000);
    const { status, body } = await post('/api/1/map/upload', { headers: { authorization: `Token ${key}`, 'service-api-arg': args } });
    expect(status).toBe(200);
    expect(body.error).toBeUndefined();
    expect((await service.call('map/get', key, { map_id: body.id })).description).toBe(description);
  });

  it('answers headers over 1 MB with the JSON error, not a bare 431 or a reset connection', async () => {
    for (const size of [1_100_000, 3_000_000]) {
      const { status, headers, body } = await post('/api/1/map/upload', {
        headers: { authorization: `Token ${key}`, 'service-api-arg': `{"title":"${'a'.repeat(size)}"}` },
      });
      expect(status).toBe(200);
      expect(headers.get('content-type')).toMatch(/^application\/json/);
      expect(headers.get('x-content-type-options')).toBe('nosniff');
      expectError(body, 'headers_too_large', /larger than 1024 kB/);
    }
    // The service goes on answering.
    expect((await service.call('map/list', key)).owner).toBeDefined();
  });
});

describe('compressed bodies: one rule for JSON and file operations', () => {
  const auth = () => ({ authorization: `Token ${key}` });

  it('reads gzip, deflate and br bodies of JSON operations, and refuses corrupt or unknown encodings', async () => {
    const json = Buffer.from('{}');
    for (const [encoding, bytes] of [
      ['gzip', gzipSync(json)],
      ['deflate', deflateSync(json)],
      ['br', brotliCompressSync(json)],
    ] as const) {
      const { body } = await post('/api/1/map/list', { headers: { ...auth(), 'content-encoding': encoding }, body: bytes });
      expect(body.owner, encoding).toBeDefined();
    }
    const corrupt = await post('/api/1/map/list', { headers: { ...auth(), 'content-encoding': 'gzip' }, body: Buffer.from('not gzip at all') });
    expectError(corrupt.body, 'invalid_content_encoding', /not valid gzip data/);
    const truncated = await post('/api/1/map/list', { headers: { ...auth(), 'content-encoding': 'br' }, body: brotliCompressSync(Buffer.from('{"a":1}')).subarray(0, 3) });
    expectError(truncated.body, 'invalid_content_encoding');
    const unknown = await post('/api/1/map/list', { headers: { ...auth(), 'content-encoding': 'zstd' }, body: json });
    expectError(unknown.body, 'invalid_content_encoding', /"zstd" is not one the service reads/);
  });

  it('decodes compressed files the same way, counts the limit in decoded bytes, and refuses corrupt ones', async () => {
    const geojson = JSON.stringify(featureCollection(3));
    const args = JSON.stringify({ file_type: 'geojson', visibility: 'private' });
    const upload = (body: Uint8Array<ArrayBuffer>, encoding: string) =>
      post('/api/1/map/upload', { headers: { ...auth(), 'service-api-arg': args, 'content-encoding': encoding }, body });
    const ok = await upload(gzipSync(geojson), 'gzip');
    expect(ok.body.import).toEqual({ features: 3, skipped: [] });
    expectError((await upload(Buffer.from(geojson), 'gzip')).body, 'invalid_content_encoding', /not valid gzip data/);
    expectError((await upload(Buffer.from(geojson), 'compress')).body, 'invalid_content_encoding');
    // 16 MB of spaces in 16 kB: over the 15 MB limit once decoded.
    const bomb = gzipSync(Buffer.alloc(16 * 1024 * 1024, 0x20), { level: 9 });
    expect(bomb.length).toBeLessThan(100_000);
    expectError((await upload(bomb, 'gzip')).body, 'file_too_large');
    await expect.poll(() => fs.readdirSync(path.join(service.blobDir, 'uploads'))).toEqual([]);
  });
});

describe('string arguments: one rule (no NUL, no lone surrogates) for every one of them', () => {
  it('refuses NUL characters and lone surrogates in JSON and header arguments with invalid_arguments', async () => {
    const id = (await service.send('map/upload', key, { file_type: 'empty', visibility: 'private' })).id as number;
    const before = await service.call('map/get', key, { map_id: id });
    for (const bad of ['a\u0000b', 'a\ud800b', '\udfff']) {
      for (const name of ['title', 'description', 'short_name']) {
        const answer = await service.call('map/update', key, { map_id: id, [name]: bad });
        expectError(answer, 'invalid_arguments', new RegExp(`"${name}": contains a (NUL character|lone surrogate)`));
        const upload = await service.send('map/upload', key, JSON.stringify({ file_type: 'empty', visibility: 'public', [name]: bad }));
        expectError(upload, 'invalid_arguments');
      }
      const append = await service.send('map/append', key, JSON.stringify({ map_id: id, file_type: 'geojson', new_group: bad }), JSON.stringify(featureCollection(1)));
      expectError(append, 'invalid_arguments', /"new_group": contains/);
    }
    expect(await service.call('map/get', key, { map_id: id })).toEqual(before);
  });

  it('refuses bytes that are not UTF-8 instead of turning them into U+FFFD', async () => {
    const body = Buffer.concat([Buffer.from('{"map_id": 1, "title": "caf'), Buffer.from([0xe9]), Buffer.from('"}')]);
    const update = await post('/api/1/map/update', { headers: { authorization: `Token ${key}` }, body });
    expectError(update.body, 'invalid_json', /not UTF-8/);
    // Node hands header bytes over as Latin-1 characters: a lone 0xE9 byte is not UTF-8.
    const header = `{"file_type":"empty","visibility":"public","title":"caf${String.fromCharCode(0xe9)}"}`;
    const raw = await rawRequest('/api/1/map/upload', `Authorization: Token ${key}\r\nService-API-Arg: ${header}\r\n`);
    expectError(raw, 'invalid_arguments', /not UTF-8/);
  });
});

describe('argument shapes', () => {
  it('takes an empty body or {} as no arguments, and refuses a list or a scalar', async () => {
    const auth = { authorization: `Token ${key}` };
    expect((await post('/api/1/map/list', { headers: auth })).body.owner).toBeDefined();
    expect((await post('/api/1/map/list', { headers: auth, body: '{}' })).body.owner).toBeDefined();
    for (const body of ['[]', 'null', '5', '"x"', '[{}]']) {
      expectError((await post('/api/1/map/list', { headers: auth, body })).body, 'invalid_json', /must be a JSON object of arguments/);
    }
    expectError(await service.send('map/upload', key, '[]'), 'invalid_arguments', /must be a JSON object/);
  });

  it('refuses a map_id string that JavaScript cannot hold exactly, instead of rounding it to another id', async () => {
    const answer = await service.call('map/get', key, { map_id: '9007199254740993' });
    expectError(answer, 'invalid_arguments', /map_id/);
    // As a JSON number it reaches JSON.parse as 2^53 + 1, which no double holds: refused, not rounded.
    const asNumber = await post('/api/1/map/get', { headers: { authorization: `Token ${key}` }, body: '{"map_id": 9007199254740993}' });
    expectError(asNumber.body, 'invalid_arguments');
    expectError(await service.call('map/get', key, { map_id: '900719925474099' }), 'map_not_found');
  });

  it('refuses an Idempotency-Key header that is present but empty', async () => {
    const answer = await service.send('map/upload', key, { file_type: 'empty', visibility: 'public' }, undefined, { 'idempotency-key': '' });
    expectError(answer, 'invalid_arguments', /Idempotency-Key/);
  });
});

describe('idempotency keys belong to one request', () => {
  it('answers a retry with the first answer, and refuses the key for another map, other arguments or another file', async () => {
    const one = (await service.send('map/upload', key, { file_type: 'empty', visibility: 'private' })).id as number;
    const two = (await service.send('map/upload', key, { file_type: 'empty', visibility: 'private' })).id as number;
    const file = JSON.stringify(featureCollection(2));
    const headers = { 'idempotency-key': `reuse-${Date.now()}` };
    const first = await service.send('map/append', key, { map_id: one, file_type: 'geojson' }, file, headers);
    expect(first.import.features).toBe(2);
    // The same request again (arguments in another order): the same answer, nothing appended twice.
    expect(await service.send('map/append', key, { file_type: 'geojson', map_id: one }, file, headers)).toEqual(first);
    const reused = [
      await service.send('map/append', key, { map_id: two, file_type: 'geojson' }, file, headers),
      await service.send('map/append', key, { map_id: one, file_type: 'geojson', new_group: 'X' }, file, headers),
      await service.send('map/append', key, { map_id: one, file_type: 'geojson' }, JSON.stringify(featureCollection(3)), headers),
    ];
    for (const answer of reused) expectError(answer, 'idempotency_key_reused', /different request/);
    expect((await service.call('map/get', key, { map_id: one })).geojson.features).toHaveLength(2);
    expect((await service.call('map/get', key, { map_id: two })).geojson.features).toHaveLength(0);
  });
});

describe('a retry after the client went away', () => {
  let slow: TestService;
  beforeAll(async () => {
    // Parsing waits a moment, so the first try's client is gone before the job reads its file.
    slow = await startTestService({ faults: { beforeParse: () => new Promise((resolve) => setTimeout(resolve, 1_000)) } });
  });
  afterAll(() => slow.stop());

  it('joins the job the first try started, which still has its file', async () => {
    const { key: slowKey } = await slow.newUser();
    const file = JSON.stringify(featureCollection(50));
    const headers = { authorization: `Token ${slowKey}`, 'service-api-arg': JSON.stringify({ file_type: 'geojson', visibility: 'private' }), 'idempotency-key': 'gone' };
    const controller = new AbortController();
    const first = fetch(`${slow.url}/api/1/map/upload`, { method: 'POST', headers, body: file, signal: controller.signal }).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 300));
    controller.abort();
    await first;
    const retry = await fetch(`${slow.url}/api/1/map/upload`, { method: 'POST', headers, body: file });
    const answer = (await retry.json()) as Record<string, unknown>;
    expect(answer.error).toBeUndefined();
    expect(answer.import).toEqual({ features: 50, skipped: [] });
    expect((await slow.call('map/list', slowKey)).owner).toHaveLength(1);
    await expect.poll(() => fs.readdirSync(path.join(slow.blobDir, 'uploads'))).toEqual([]);
    expect(slow.internalErrors).toEqual([]);
  });
});

describe('a body that breaks off in the middle', () => {
  it('is answered with the JSON error, not a reset connection, on a JSON operation too', async () => {
    const corrupt = Buffer.concat([gzipSync(Buffer.from('{"map_id":1}')).subarray(0, 10), Buffer.alloc(12 * 1024 * 1024, 7)]);
    // A client that sends its whole body before it reads the answer (as Python's http.client does).
    const { hostname, port } = new URL(service.url);
    const answer = await new Promise<{ text: string; error?: string }>((resolve) => {
      const chunks: Buffer[] = [];
      const socket = net.connect(Number(port), hostname, () => {
        socket.write(`POST /api/1/map/update HTTP/1.1\r\nHost: x\r\nAuthorization: Token ${key}\r\nContent-Encoding: gzip\r\nContent-Length: ${corrupt.length}\r\n\r\n`);
        socket.write(corrupt, () => socket.end());
      });
      socket.on('data', (chunk) => chunks.push(chunk));
      socket.on('error', (error) => resolve({ text: Buffer.concat(chunks).toString(), error: error.message }));
      socket.on('close', () => resolve({ text: Buffer.concat(chunks).toString() }));
    });
    expect(answer.error).toBeUndefined();
    expect(answer.text).toMatch(/^HTTP\/1.1 200/);
    expectError(JSON.parse(answer.text.slice(answer.text.indexOf('{'))), 'invalid_content_encoding');
  });
});

describe('headers of every answer', () => {
  it('say nosniff everywhere and no-store on API answers, success, failure and streamed map alike', async () => {
    const id = (await service.send('map/upload', key, { file_type: 'empty', visibility: 'private' })).id as number;
    for (const [path, body] of [
      ['/api/1/map/get', JSON.stringify({ map_id: id })],
      ['/api/1/map/get', JSON.stringify({ map_id: 'x' })],
      ['/api/1/nope', '{}'],
    ] as const) {
      const response = await fetch(`${service.url}${path}`, { method: 'POST', headers: { authorization: `Token ${key}` }, body });
      expect(response.headers.get('cache-control'), path).toBe('no-store');
      expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
      await response.arrayBuffer();
    }
    for (const path of ['/openapi.json', '/healthz', '/nothing-here']) {
      const response = await fetch(`${service.url}${path}`);
      expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
      await response.arrayBuffer();
    }
  });
});

describe('large JSON bodies', () => {
  it('are read off the event loop: four 12 MB bodies with a million keys each leave the API responsive', async () => {
    const keys = Array.from({ length: 1_000_000 }, (_, i) => `"key${i.toString(36)}":1`).join(',');
    const body = `{"map_id":1,${keys}}`;
    expect(body.length).toBeGreaterThan(11_000_000);
    expect(body.length).toBeLessThan(15 * 1024 * 1024);
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const answers = Promise.all(
      Array.from({ length: 4 }, () => post('/api/1/map/get', { headers: { authorization: `Token ${key}` }, body })),
    );
    // Meanwhile a small request is answered.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const started = performance.now();
    expect((await service.call('map/list', key)).owner).toBeDefined();
    const smallRequestMs = performance.now() - started;
    for (const { body: answer } of await answers) expectError(answer, 'invalid_arguments', /unknown argument "key0"/);
    delay.disable();
    // Parsed on the event loop, the four bodies stalled it for over 4 seconds (measured 4.2 s).
    expect(delay.max / 1e6).toBeLessThan(1_500);
    expect(smallRequestMs).toBeLessThan(3_000);
  });
});

/** A request written by hand, for bytes fetch() would not send. */
function rawRequest(requestPath: string, headers: string): Promise<Record<string, unknown>> {
  const { hostname, port } = new URL(service.url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => {
      socket.write(Buffer.from(`POST ${requestPath} HTTP/1.1\r\nHost: ${hostname}\r\n${headers}Content-Length: 0\r\nConnection: close\r\n\r\n`, 'latin1'));
    });
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const bodyText = text.slice(text.indexOf('\r\n\r\n') + 4);
      try {
        resolve(JSON.parse(bodyText.includes('{') ? bodyText.slice(bodyText.indexOf('{'), bodyText.lastIndexOf('}') + 1) : bodyText));
      } catch (error) {
        reject(error);
      }
    });
  });
}
