// The rate limits (issues 14 and 24) through the real service, with small buckets: per API key and per
// client address, the weights of file jobs and of reading a large map, the refusals
// (JSON with Retry-After and retry_after: HTTP 200 from the API, 429 elsewhere; a page for a browser), who is believed to be the client
// (TRUST_PROXY), a retry_after that suffices, and buckets in PostgreSQL shared by two API processes.
// rate-limits-defaults.test.ts: the default limits with a polite client and a flood.
import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { PostgresBuckets } from '../../db/rateBuckets.js';
import type { RateLimits } from '../../lib/limitsConfig.js';
import { featureCollection, startTestService, type TestService } from './harness.js';
import { loggedInAccount } from './webClient.js';

/**
 * A key holds 10 tokens and gets one back every 2 s; an address holds 40 and gets one back every
 * 10 s (so a bucket emptied by a test stays empty while the test looks at its answers).
 */
const LIMITS: RateLimits = {
  store: 'memory',
  perKey: { burst: 10, perMinute: 30 },
  perIp: { burst: 40, perMinute: 6 },
  freeFileJobs: 2,
  fileWeight: 4,
  mbWeight: 3,
};
const MB = 1024 * 1024;

let service: TestService;
beforeAll(async () => {
  service = await startTestService({ config: { rateLimits: LIMITS } });
});
afterAll(() => service.stop());

/** Each test its own client address (the service trusts one proxy's X-Forwarded-For, as the harness sets it). */
const newAddress = () => `198.51.${randomBytes(1)[0]}.${randomBytes(1)[0]}`;

interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
  path: string;
  text: string;
}

async function request(base: string, path: string, init: { key?: string; ip?: string; method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  const response = await fetch(`${base}${path}`, {
    method: init.method ?? 'POST',
    headers: {
      ...(init.key ? { authorization: `Token ${init.key}` } : {}),
      ...(init.ip ? { 'x-forwarded-for': init.ip } : {}),
      ...init.headers,
    },
    body: init.body,
  });
  const text = await response.text();
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // a page
  }
  return { status: response.status, headers: response.headers, body, text, path };
}

const call = (op: string, key: string, ip: string, args: unknown = {}, base = service.url) => request(base, `/api/1/${op}`, { key, ip, body: JSON.stringify(args) });
const send = (op: string, key: string, ip: string, args: unknown, file?: string, base = service.url) =>
  request(base, `/api/1/${op}`, { key, ip, headers: { 'service-api-arg': JSON.stringify(args) }, body: file });

/** Calls until the first refusal: how many passed, and the refusal. */
async function passesUntilRefused(next: () => Promise<Answer>, max = 100): Promise<{ passed: number; refusal: Answer }> {
  for (let passed = 0; passed < max; passed++) {
    const answer = await next();
    if (answer.status === 429 || answer.body.error_code === 'rate_limited') return { passed, refusal: answer };
    expect(answer.status).toBe(200);
    expect(answer.body.error_code).not.toBe('rate_limited');
  }
  throw new Error(`no refusal in ${max} requests`);
}

/** A public map of 22,000 points (2–3 MB of GeoJSON, so reading it costs 1 + 3 × 2 = 7), made once for the tests that read it. */
let largeMapMade: Promise<{ body: Record<string, unknown>; path: string; cost: number }> | undefined;
const largeMap = () =>
  (largeMapMade ??= (async () => {
    const owner = await service.newUser();
    const large = await send('map/upload', owner.key, newAddress(), { file_type: 'geojson', visibility: 'public' }, JSON.stringify(featureCollection(22_000)));
    expect(large.body.error).toBeUndefined();
    const { content_bytes: bytes } = (await service.db('maps').where({ id: large.body.id }).select('content_bytes').first()) as { content_bytes: number };
    expect(bytes).toBeGreaterThanOrEqual(2 * MB);
    expect(bytes).toBeLessThan(3 * MB);
    return { body: large.body, path: new URL(large.body.url as string).pathname, cost: 1 + LIMITS.mbWeight * Math.floor(bytes / MB) };
  })());

const expectRateLimited = (answer: Answer, who: RegExp) => {
  // The API answers HTTP 200 whatever happened (the interface spec); the site's other requests 429.
  expect(answer.status).toBe(answer.path.startsWith('/api/') ? 200 : 429);
  expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
  expect(answer.headers.get('cache-control')).toBe('no-store');
  expect(Object.keys(answer.body).sort()).toEqual(['error', 'error_code', 'retry_after']);
  expect(answer.body.error_code).toBe('rate_limited');
  const seconds = answer.body.retry_after as number;
  expect(Number.isInteger(seconds) && seconds >= 1).toBe(true);
  expect(answer.headers.get('retry-after')).toBe(String(seconds));
  expect(answer.body.error).toMatch(who);
  expect(answer.body.error).toContain(`try again in ${seconds} second`);
  return seconds;
};

describe('per API key', () => {
  it('refuses a key past its bucket with rate_limited, Retry-After and retry_after; another key passes; after the wait it passes again', async () => {
    const ip = newAddress();
    const { key } = await service.newUser();
    const { key: other } = await service.newUser();
    const { passed, refusal } = await passesUntilRefused(() => call('map/list', key, ip));
    expect(passed).toBeGreaterThanOrEqual(10); // the burst (and what came back while they ran)
    expect(passed).toBeLessThanOrEqual(11);
    const seconds = expectRateLimited(refusal, /with this API key/);
    expect(seconds).toBeLessThanOrEqual(2); // one token comes back every 2 s
    // The same client with another key: its own bucket.
    expect((await call('map/list', other, ip)).body.owner).toEqual([]);
    // Still refused before the time said (when it said more than a second), and not charged for it.
    if (seconds >= 2) expect((await call('map/list', key, ip)).body.error_code).toBe('rate_limited');
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    const again = await call('map/list', key, ip);
    expect([again.status, again.body.owner]).toEqual([200, []]);
  });

  it('tells a client refused for a map larger than its bucket holds a retry_after that suffices: waiting it, the same request passes', async () => {
    const large = await largeMap();
    const { key } = await service.newUser();
    const ip = newAddress();
    expect((await call('map/get', key, ip, { map_id: large.body.id })).body.id).toBe(large.body.id);
    const refused = await call('map/get', key, ip, { map_id: large.body.id });
    const seconds = expectRateLimited(refused, /with this API key/);
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    const again = await call('map/get', key, ip, { map_id: large.body.id });
    expect([again.body.error_code, again.body.id]).toEqual([undefined, large.body.id]);
  });

  it('charges map/get by the size of the map it reads', async () => {
    const owner = await service.newUser();
    const large = await largeMap();
    const small = await send('map/upload', owner.key, newAddress(), { file_type: 'geojson', visibility: 'public' }, JSON.stringify(featureCollection(3)));
    expect(small.body.error).toBeUndefined();
    const largeCost = large.cost;

    const readers = [await service.newUser(), await service.newUser()];
    const readAddress = newAddress();
    const read = async (key: string, mapId: unknown) => {
      const answer = await call('map/get', key, readAddress, { map_id: mapId });
      expect(answer.body.id).toBe(mapId);
    };
    await read(readers[0]!.key, small.body.id);
    await read(readers[1]!.key, large.body.id);
    // Read again at once: refused once its size is known, before any of it is read; the call's 1
    // is given back, and the wait is for the whole read.
    const refused = await call('map/get', readers[1]!.key, readAddress, { map_id: large.body.id });
    const left = 10 - largeCost; // after the first read
    // The cost comes back at one token every 2 s (less what came back meanwhile).
    expect(expectRateLimited(refused, /with this API key/)).toBeGreaterThanOrEqual((largeCost - left) * 2 - 1);
    const afterSmall = (await passesUntilRefused(() => call('map/list', readers[0]!.key, readAddress))).passed;
    const afterLarge = (await passesUntilRefused(() => call('map/list', readers[1]!.key, readAddress))).passed;
    expect(afterSmall).toBeGreaterThanOrEqual(10 - 1);
    expect(afterSmall).toBeLessThanOrEqual(10 - 1 + 1);
    expect(afterLarge).toBeGreaterThanOrEqual(10 - largeCost);
    expect(afterLarge).toBeLessThanOrEqual(10 - largeCost + 1);
  });
});

describe('per client address', () => {
  it('limits every request of an address (API without a key, pages, log-in posts, files), answers a page with a page, and leaves other addresses and the health check alone', async () => {
    const ip = newAddress();
    const { passed, refusal } = await passesUntilRefused(() => request(service.url, '/api/1/map/list', { ip }));
    expect(passed).toBeGreaterThanOrEqual(40);
    expect(passed).toBeLessThanOrEqual(41);
    expectRateLimited(refusal, /from this address/);

    // A browser's page: a page saying how long to wait, with the status and header.
    const page = await request(service.url, '/login', { ip, method: 'GET', headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    expect(page.status).toBe(429);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.text).toContain('<h1>Too many requests</h1>');
    expect(page.text).toMatch(/please try again in \d+ seconds?\./);
    expect(Number(page.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // Log-in attempts count too (the form's own limits come after these).
    const login = await request(service.url, '/login', {
      ip,
      headers: { accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
      body: 'login=someone&password=guess',
    });
    expect([login.status, login.text.includes('Too many requests')]).toEqual([429, true]);
    // A file or a script's request: JSON.
    expectRateLimited(await request(service.url, '/basemaps/classic/style.json', { ip, method: 'GET' }), /from this address/);
    // A valid key does not lift its address's limit.
    const { key } = await service.newUser();
    expectRateLimited(await call('map/list', key, ip), /from this address/);

    expect((await request(service.url, '/healthz', { ip, method: 'GET' })).status).toBe(200);
    expect((await request(service.url, '/login', { ip: newAddress(), method: 'GET', headers: { accept: 'text/html' } })).status).toBe(200);
    expect((await request(service.url, '/api/1/map/list', { ip: newAddress() })).body.error_code).toBe('missing_api_key');
  });

  it("charges a large map's GeoJSON and downloads on the site by its size, as map/get; refused before it is read, a browser's click with a page", async () => {
    const large = await largeMap();
    const ip = newAddress();
    const get = (path: string, accept = 'application/json') => request(service.url, `${large.path}${path}`, { ip, method: 'GET', headers: { accept } });
    const data = await get('/map.geojson');
    expect([data.status, (JSON.parse(data.text) as { features: unknown[] }).features.length]).toEqual([200, 22_000]);
    const csv = await get('/download.csv', 'text/csv,*/*');
    expect([csv.status, csv.headers.get('content-type')]).toEqual([200, 'text/csv; charset=utf-8']);
    // 40 − 7 − 7 = 26 plain requests left (one more may come back meanwhile: one every 10 s).
    const left = (await passesUntilRefused(() => request(service.url, '/api/1/map/list', { ip }))).passed;
    expect(left).toBeGreaterThanOrEqual(40 - 2 * large.cost);
    expect(left).toBeLessThanOrEqual(40 - 2 * large.cost + 1);
    // Short of the map's cost: JSON for a script, a page for a browser's click, nothing of the map.
    expectRateLimited(await get('/download.geojson'), /from this address/);
    const page = await get('/download.kml', 'text/html,application/xhtml+xml,*/*;q=0.8');
    expect([page.status, page.headers.get('content-type'), page.headers.get('content-disposition')]).toEqual([429, 'text/html; charset=utf-8', null]);
    expect(page.text).toContain('<h1>Too many requests</h1>');
    expect(Number(page.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // Another address: its own bucket, not refused.
    expect((await request(service.url, `${large.path}/map.geojson`, { ip: newAddress(), method: 'GET' })).status).toBe(200);
  });

  it('believes X-Forwarded-For only when told to (TRUST_PROXY): otherwise every made-up address shares the bucket of the connection', async () => {
    const direct = await startTestService({ worker: false, config: { rateLimits: { ...LIMITS, perIp: { burst: 5, perMinute: 6 } }, trustProxy: false } });
    try {
      const { passed, refusal } = await passesUntilRefused(() => request(direct.url, '/api/1/map/list', { ip: newAddress() }));
      expect(passed).toBe(5);
      expectRateLimited(refusal, /from this address/);
    } finally {
      await direct.stop();
    }
  });
});

describe('file jobs', () => {
  // Buckets that take a minute per token back: what a file job cost is still missing when the
  // test counts, however long the service took over the files.
  let slow: TestService;
  beforeAll(async () => {
    slow = await startTestService({ config: { rateLimits: { ...LIMITS, perKey: { burst: 10, perMinute: 1 }, perIp: { burst: 40, perMinute: 1 } } } });
  });
  afterAll(() => slow.stop());

  it('charges a file job by its size (a small file nothing, each whole MB the MB weight, a compressed one once decoded); map/update with a geojson alike, at least 1', async () => {
    // Each key starts full (10), each from an address of its own: three small uploads; an
    // upload of 1–2 MB (3) and the same sent gzipped (3, known once it is stored); an empty map
    // (0), an update of its title (1) and one with a geojson of 1–2 MB (3, the 1 included).
    const [small, large, updater] = [
      { ...(await slow.newUser()), ip: newAddress() },
      { ...(await slow.newUser()), ip: newAddress() },
      { ...(await slow.newUser()), ip: newAddress() },
    ];
    for (let i = 0; i < 3; i++) expect((await send('map/upload', small.key, small.ip, { file_type: 'geojson', visibility: 'private' }, JSON.stringify(featureCollection(3)), slow.url)).body.id).toBeDefined();
    const mbFile = JSON.stringify(featureCollection(12_000));
    expect(Buffer.byteLength(mbFile)).toBeGreaterThanOrEqual(MB);
    expect(Buffer.byteLength(mbFile)).toBeLessThan(2 * MB);
    expect((await send('map/upload', large.key, large.ip, { file_type: 'geojson', visibility: 'private' }, mbFile, slow.url)).body.id).toBeDefined();
    const zipped = await request(slow.url, '/api/1/map/upload', {
      key: large.key,
      ip: large.ip,
      headers: { 'service-api-arg': JSON.stringify({ file_type: 'geojson', visibility: 'private' }), 'content-encoding': 'gzip' },
      body: gzipSync(mbFile) as unknown as string,
    });
    expect(zipped.body.id).toBeDefined();
    const created = await send('map/upload', updater.key, updater.ip, { file_type: 'empty', visibility: 'private' }, undefined, slow.url);
    expect((await call('map/update', updater.key, updater.ip, { map_id: created.body.id, title: 'Renamed' }, slow.url)).body.title).toBe('Renamed');
    expect((await call('map/update', updater.key, updater.ip, { map_id: created.body.id, geojson: JSON.parse(mbFile) }, slow.url)).body.id).toBe(created.body.id);

    const countLists = (user: { key: string; ip: string }) => passesUntilRefused(() => call('map/list', user.key, user.ip, {}, slow.url));
    const counts = [(await countLists(small)).passed, (await countLists(large)).passed, (await countLists(updater)).passed];
    expect(counts).toEqual([10, 10 - 3 - 3, 10 - 1 - 3]);
    // An upload refused by the limit stores nothing and says so the same way.
    const refusedUpload = await send('map/upload', updater.key, updater.ip, { file_type: 'geojson', visibility: 'private', title: 'Refused' }, mbFile, slow.url);
    expect([refusedUpload.body.error_code, refusedUpload.headers.get('retry-after')]).toEqual(['rate_limited', String(refusedUpload.body.retry_after)]);
    expect(await slow.db('maps').where({ title: 'Refused' }).count('* as n').first()).toMatchObject({ n: 0 });
  });

  it("charges the editor's file posts (Import, photos, icons) from the address as file jobs: a large file by its size", async () => {
    const me = await loggedInAccount(slow, { formToken: true }); // 3 requests from its address
    const mapId = (await send('map/upload', me.key, newAddress(), { file_type: 'empty', visibility: 'private' }, undefined, slow.url)).body.id as number;
    const file = JSON.stringify(featureCollection(20_000));
    expect(Buffer.byteLength(file)).toBeGreaterThanOrEqual(2 * MB);
    expect(Buffer.byteLength(file)).toBeLessThan(3 * MB);
    const form = new FormData();
    form.append('file', new Blob([file]), 'points.geojson');
    const imported = await me.browser.request(`/maps/${mapId}/import`, { multipart: form, headers: { 'x-csrf-token': me.browser.cookie('mps_csrf') ?? '' } });
    expect([imported.status, (JSON.parse(imported.html) as { import: { features: number } }).import.features]).toEqual([200, 20_000]);
    // 40 − 3 − 2 × 3 = 31 plain requests left.
    const left = (await passesUntilRefused(() => request(slow.url, '/api/1/map/list', { ip: me.browser.ip }))).passed;
    expect(left).toBe(40 - 3 - 2 * LIMITS.mbWeight);
  });
});

describe.skipIf(inject('databaseUrl') === null)('buckets in PostgreSQL (RATE_LIMIT_STORE=postgres)', () => {
  it('are shared by two API processes: what a key spent on one is gone on the other', async () => {
    const shared: RateLimits = { ...LIMITS, store: 'postgres' };
    const one = await startTestService({ worker: false, config: { rateLimits: shared } });
    const two = await startTestService({ worker: false, config: { rateLimits: shared } });
    try {
      const { key } = await one.newUser();
      const ip = newAddress();
      for (let i = 0; i < 6; i++) expect((await request(one.url, '/api/1/map/list', { key, ip })).status).toBe(200);
      const { passed, refusal } = await passesUntilRefused(() => request(two.url, '/api/1/map/list', { key, ip }));
      expect(passed).toBeGreaterThanOrEqual(4);
      expect(passed).toBeLessThanOrEqual(5);
      expectRateLimited(refusal, /with this API key/);
      expect((await request(one.url, '/api/1/map/list', { key, ip })).body.error_code).toBe('rate_limited');
    } finally {
      await one.stop();
      await two.stop();
    }
  });
  it('give back what a refused request took, as the memory buckets do', async () => {
    const buckets = new PostgresBuckets(service.db, 60_000);
    const subject = `key:give-${randomBytes(4).toString('hex')}`;
    const rule = { burst: 10, perMinute: 1 };
    try {
      expect(await buckets.take(subject, rule, 8)).toEqual({ granted: true });
      expect((await buckets.take(subject, rule, 5)).granted).toBe(false);
      await buckets.give(subject, rule, 4);
      expect(await buckets.take(subject, rule, 6)).toEqual({ granted: true });
      await buckets.give(subject, rule, 50); // never above the burst
      expect(await buckets.take(subject, rule, 10)).toEqual({ granted: true });
      expect((await buckets.take(subject, rule, 1)).granted).toBe(false);
    } finally {
      await buckets.close();
    }
  });
});
