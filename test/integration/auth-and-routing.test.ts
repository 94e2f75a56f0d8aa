import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokeKey } from '../../lib/accounts.js';
import { startTestService, type TestService } from './harness.js';
import { accountRepository } from '../../db/accounts.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.stop());

const expectError = (body: unknown, code: string) => {
  expect(body).toBeTypeOf('object');
  const { error, error_code } = body as { error: unknown; error_code: unknown };
  expect(error_code).toBe(code);
  expect(typeof error).toBe('string');
  expect((error as string).length).toBeGreaterThan(10);
  expect(Object.keys(body as object).sort()).toEqual(['error', 'error_code']);
};

describe('authentication', () => {
  it('answers a request without a key with missing_api_key', async () => {
    expectError(await service.call('map/list', null), 'missing_api_key');
  });

  it('refuses a malformed Authorization header', async () => {
    const response = await fetch(`${service.url}/api/1/map/list`, {
      method: 'POST',
      headers: { authorization: 'Bearer abc' },
    });
    expect(response.status).toBe(200);
    expectError(await response.json(), 'invalid_api_key');
  });

  it('refuses a well-formed but unknown key and a malformed key', async () => {
    expectError(await service.call('map/list', `mps_AAAAAAAAAA_${'x'.repeat(43)}`), 'invalid_api_key');
    expectError(await service.call('map/list', 'not-a-key'), 'invalid_api_key');
  });

  it('refuses a key whose secret part is wrong even when the prefix exists', async () => {
    const { key } = await service.newUser();
    const tampered = key.slice(0, -1) + (key.endsWith('a') ? 'b' : 'a');
    expectError(await service.call('map/list', tampered), 'invalid_api_key');
  });

  it('refuses a revoked key', async () => {
    const { key, username } = await service.newUser();
    expect((await service.call('map/list', key)).error).toBeUndefined();
    await revokeKey(accountRepository(service.db), username, key);
    expectError(await service.call('map/list', key), 'invalid_api_key');
  });

  it('refuses a user whose e-mail address is not verified', async () => {
    const { key } = await service.newUser({ verified: false });
    expectError(await service.call('map/list', key), 'email_not_verified');
  });
});

describe('routing and bodies', () => {
  it('answers unknown operations and other methods with errors, HTTP 200 and JSON', async () => {
    const { key } = await service.newUser();
    expectError(await service.call('map/delete', key, {}), 'unknown_endpoint');
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const response = await fetch(`${service.url}/api/1/map/get`, { method, headers: { authorization: `Token ${key}` } });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/application\/json/);
      expectError(await response.json(), 'method_not_allowed');
    }
  });

  it('refuses a body that is not a JSON object', async () => {
    const { key } = await service.newUser();
    for (const body of ['{"map_id": ', '[1,2]', '42']) {
      const response = await fetch(`${service.url}/api/1/map/get`, {
        method: 'POST',
        headers: { authorization: `Token ${key}` },
        body,
      });
      expectError(await response.json(), 'invalid_json');
    }
  });

  it('accepts JSON sent with a form content type, as curl -d does', async () => {
    const { key } = await service.newUser();
    const response = await fetch(`${service.url}/api/1/map/list`, {
      method: 'POST',
      headers: { authorization: `Token ${key}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: '{}',
    });
    expect(await response.json()).toEqual({ owner: [], editor: [], viewer: [] });
  });

  it('treats __proto__ and constructor keys in bodies and headers as data, polluting nothing', async () => {
    const { key } = await service.newUser();
    const body = '{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}';
    const response = await fetch(`${service.url}/api/1/map/list`, { method: 'POST', headers: { authorization: `Token ${key}` }, body });
    // JSON.parse keeps them as plain keys, which are unknown arguments, in the body as in the header.
    const answer = (await response.json()) as { error: string };
    expectError(answer, 'invalid_arguments');
    expect(answer.error).toContain('unknown argument "__proto__", "constructor"');
    const header = await service.send('map/upload', key, '{"__proto__": {"polluted": true}, "file_type": "empty", "visibility": "public"}');
    expectError(header, 'invalid_arguments');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses unknown arguments by name', async () => {
    const { key } = await service.newUser();
    const body = await service.call('map/list', key, { owner: 'x' });
    expectError(body, 'invalid_arguments');
    expect(body.error).toContain('"owner"');
  });

  it('answers /healthz (alive) with 200 JSON, and /readyz with 200 once the database, Temporal and the blob store answer', async () => {
    const health = await fetch(`${service.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${service.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({
      status: 'ready',
      checks: { database: { status: 'ok' }, temporal: { status: 'ok' }, blob_store: { status: 'ok' } },
    });
  });

  it('has not logged an internal error', () => {
    expect(service.internalErrors).toEqual([]);
  });
});
