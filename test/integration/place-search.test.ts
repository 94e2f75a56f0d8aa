// Place search through the service: the API's place/search (a key needed, arguments checked,
// the answer's fields, biggest first among equal matches, in the OpenAPI document) and the site's
// GET /places/search for the Find a place box (public, the same answer, errors as JSON with 400).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { foldName } from '../../lib/places/fold.js';
import { PLACE_LIMIT_DEFAULT, PLACE_LIMIT_MAX, PLACE_QUERY_MAX_LENGTH } from '../../lib/places/placeSearch.js';
import { startTestService, type TestService } from './harness.js';

let service: TestService;
let key: string;
beforeAll(async () => {
  service = await startTestService({ worker: false });
  ({ key } = await service.newUser());
}, 60_000);
afterAll(() => service.stop());

const site = async (query: string) => {
  const response = await fetch(`${service.url}/places/search?${query}`);
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, unknown> };
};

describe('place/search', () => {
  it('answers places by name, best first, with name, region, country, position and population', async () => {
    // The first search may wait for the index, made in a thread at its first use here.
    const answer = await service.call('place/search', key, { query: 'lisb', limit: 3 });
    expect(answer).toEqual({
      places: [
        { name: 'Lisbon', region: 'Lisbon', country: 'Portugal', lon: -9.13333, lat: 38.71667, population: 517802 },
        { name: 'Lisburn', region: 'Northern Ireland', country: 'United Kingdom', lon: -6.03527, lat: 54.52337, population: 77506 },
        { name: 'Lisbon', region: 'Maine', country: 'United States', lon: -70.1045, lat: 44.03146, population: 9392 },
      ],
    });
    // Any case, accents optional; among places of the same name, the biggest first.
    const zurich = await service.call('place/search', key, { query: 'ZURICH' });
    expect(zurich.places[0]).toMatchObject({ name: 'Zürich', country: 'Switzerland' });
    const paris = await service.call('place/search', key, { query: 'Paris', limit: 20 });
    // Paris, París…: the whole name, folded, is the query.
    const exact = paris.places.filter((place: { name: string }) => foldName(place.name) === 'paris');
    expect(exact.length).toBeGreaterThan(5);
    expect(paris.places.slice(0, exact.length)).toEqual(exact);
    const populations = exact.map((place: { population: number }) => place.population);
    expect(populations).toEqual([...populations].sort((a, b) => b - a));
    expect((await service.call('place/search', key, { query: 'Paris, Texas' })).places).toHaveLength(1);
    expect((await service.call('place/search', key, { query: 's' })).places).toHaveLength(PLACE_LIMIT_DEFAULT);
    expect((await service.call('place/search', key, { query: 's', limit: PLACE_LIMIT_MAX })).places).toHaveLength(PLACE_LIMIT_MAX);
    expect(await service.call('place/search', key, { query: 'Qxqxq' })).toEqual({ places: [] });
    expect(await service.call('place/search', key, { query: '東京' })).toEqual({ places: [] });
    // No letter or digit: nothing to look for, nothing found.
    for (const query of ['   ', ',', '*']) expect(await service.call('place/search', key, { query })).toEqual({ places: [] });
    expect(service.internalErrors).toEqual([]);
  });

  it('needs an API key and refuses bad arguments by name', async () => {
    expect((await service.call('place/search', null, { query: 'lisbon' })).error_code).toBe('missing_api_key');
    expect((await service.call('place/search', 'nonsense', { query: 'lisbon' })).error_code).toBe('invalid_api_key');
    const refusals: [unknown, RegExp][] = [
      [{}, /"query" is required/],
      [{ query: '' }, /"query"/],
      [{ query: 'x'.repeat(PLACE_QUERY_MAX_LENGTH + 1) }, /"query"/],
      [{ query: 'lis\u0000bon' }, /"query": contains a NUL character/],
      [{ query: 'lis\ud800bon' }, /"query"/],
      [{ query: 42 }, /"query"/],
      [{ query: 'lisbon', limit: 0 }, /"limit"/],
      [{ query: 'lisbon', limit: PLACE_LIMIT_MAX + 1 }, /"limit"/],
      [{ query: 'lisbon', limit: 2.5 }, /"limit"/],
      [{ query: 'lisbon', limit: '5' }, /"limit"/],
      [{ query: 'lisbon', country: 'PT' }, /unknown argument "country"/],
    ];
    for (const [args, message] of refusals) {
      const answer = await service.call('place/search', key, args);
      expect(answer.error_code, JSON.stringify(args)).toBe('invalid_arguments');
      expect(answer.error, JSON.stringify(args)).toMatch(message);
    }
    // The longest query allowed is answered.
    expect((await service.call('place/search', key, { query: 'a'.repeat(PLACE_QUERY_MAX_LENGTH) })).places).toEqual([]);
  });

  it('is in the OpenAPI document with its example', async () => {
    const document = (await (await fetch(`${service.url}/openapi.json`)).json()) as { paths: Record<string, { post: { requestBody: { content: Record<string, { example: unknown }> } } }> };
    const operation = document.paths['/api/1/place/search']!.post;
    expect(operation.requestBody.content['application/json']!.example).toEqual({ query: 'lisb', limit: 3 });
  });
});

describe('GET /places/search (the Find a place box)', () => {
  it('answers what place/search answers, to anyone, cacheable for a day', async () => {
    const { status, headers, body } = await site('query=lisb&limit=3');
    expect(status).toBe(200);
    expect(headers.get('content-type')).toMatch(/^application\/json/);
    expect(headers.get('cache-control')).toBe('public, max-age=86400');
    expect(body).toEqual(await service.call('place/search', key, { query: 'lisb', limit: 3 }));
    expect((await site(`query=${encodeURIComponent('São Paulo')}`)).body.places).toEqual((await service.call('place/search', key, { query: 'São Paulo' })).places);
  });

  it('refuses bad queries with a JSON error and HTTP 400', async () => {
    for (const query of ['', 'query=', `query=${'x'.repeat(PLACE_QUERY_MAX_LENGTH + 1)}`, 'query=lisbon&limit=0', 'query=lisbon&limit=51', 'query=lisbon&limit=abc', 'query=lisbon&limit=1e1', 'query=a&query=b', 'query=%00']) {
      const { status, body } = await site(query);
      expect(status, query).toBe(400);
      expect(body.error_code, query).toBe('invalid_arguments');
      expect(typeof body.error, query).toBe('string');
    }
  });
});
