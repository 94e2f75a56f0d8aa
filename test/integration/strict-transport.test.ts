// HSTS (issue 24): Strict-Transport-Security on every answer to a request that came over HTTPS
// (as a proxy the service trusts says, TRUST_PROXY) when PUBLIC_URL is https; never on a request
// over plain HTTP, nor when the proxy's word is not believed, nor when the service names itself
// with http addresses.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../lib/config.js';
import { startTestService, type TestService } from './harness.js';

const started: TestService[] = [];
const serviceWith = async (config: Partial<Config>) => {
  const service = await startTestService({ worker: false, config });
  started.push(service);
  return service;
};
afterAll(() => Promise.all(started.map((service) => service.stop())));

/** The answers' Strict-Transport-Security headers: a page, an API call, a missing page, a probe. */
async function hstsOf(service: TestService, proto?: string): Promise<(string | null)[]> {
  const headers = { 'x-forwarded-for': '203.0.113.9', ...(proto ? { 'x-forwarded-proto': proto } : {}) };
  const answers = await Promise.all([
    fetch(`${service.url}/login`, { headers }),
    fetch(`${service.url}/api/1/map/list`, { method: 'POST', headers }),
    fetch(`${service.url}/no/such/page/here`, { headers }),
    fetch(`${service.url}/healthz`, { headers }),
  ]);
  await Promise.all(answers.map((answer) => answer.arrayBuffer()));
  return answers.map((answer) => answer.headers.get('strict-transport-security'));
}

describe('Strict-Transport-Security', () => {
  let https: TestService;
  beforeAll(async () => {
    https = await serviceWith({ publicUrl: 'https://maps.example.test', trustProxy: 1 });
  });

  it('is sent with every answer to a request that came over HTTPS, through a trusted proxy, to an https service', async () => {
    expect(await hstsOf(https, 'https')).toEqual(Array(4).fill('max-age=31536000'));
  });

  it('is never sent over plain HTTP', async () => {
    expect(await hstsOf(https)).toEqual(Array(4).fill(null));
    expect(await hstsOf(https, 'http')).toEqual(Array(4).fill(null));
  });

  it('is not sent when the proxy is not believed (TRUST_PROXY false), nor by a service whose PUBLIC_URL is http', async () => {
    const untrusting = await serviceWith({ publicUrl: 'https://maps.example.test', trustProxy: false });
    expect(await hstsOf(untrusting, 'https')).toEqual(Array(4).fill(null));
    const plain = await serviceWith({ trustProxy: 1 });
    expect(plain.config.publicUrl.startsWith('http://')).toBe(true);
    expect(await hstsOf(plain, 'https')).toEqual(Array(4).fill(null));
  });
});
