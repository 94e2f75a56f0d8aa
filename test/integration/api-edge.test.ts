// What careless and hostile clients send at the edge of the API (issue 8): oversized headers,
// compressed and corrupt bodies, strings PostgreSQL cannot store, odd argument shapes, reused
// idempotency keys, and the headers every answer carries.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './harness.js';

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
