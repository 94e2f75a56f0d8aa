// The rate limits at their defaults (issue 24): a client that sends its files one or two at a
// time, waiting as each `retry_after` says, is never refused; a flood of files from one key is.
// (rate-limits.test.ts checks the weights and answers with small buckets.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../lib/config.js';
import { startTestService, type TestService } from './harness.js';

let service: TestService;
beforeAll(async () => {
  const defaults = loadConfig({}).rateLimits;
  expect(defaults).not.toBeNull();
  service = await startTestService({ renderWorker: false, config: { rateLimits: defaults } });
});
afterAll(() => service.stop());

/** A small KML file: one placemark. */
const smallKml = (n: number) =>
  `<?xml version="1.0" encoding="UTF-8"?><kml xmlns="http://www.opengis.net/kml/2.2"><Document><Placemark><name>Stop ${n}</name>` +
  `<Point><coordinates>${(n % 360) - 180},${(n % 170) - 85}</coordinates></Point></Placemark></Document></kml>`;

const upload = (key: string, n: number) => service.send('map/upload', key, { file_type: 'kml', visibility: 'private', title: `Polite ${n}` }, smallKml(n));

describe('at the default limits', () => {
  it('never refuses a client that uploads 400 small files two at a time', async () => {
    const { key } = await service.newUser();
    const refusals: unknown[] = [];
    let next = 0;
    const started = Date.now();
    // Two senders, each sending its next file once the last is answered; any refusal ends the run
    // (a polite client would wait `retry_after` and send again: that is what must not happen).
    const sender = async () => {
      while (next < 400 && refusals.length === 0) {
        const n = next++;
        const answer = await upload(key, n);
        if (answer.error_code === 'rate_limited') refusals.push({ file: n, ...answer });
        else expect(answer.error).toBeUndefined();
      }
    };
    await Promise.all([sender(), sender()]);
    const seconds = (Date.now() - started) / 1000;
    console.log(`400 small uploads two at a time: ${seconds.toFixed(1)} s, ${(400 / seconds).toFixed(1)} a second`);
    expect(refusals).toEqual([]);
    const { n } = (await service.db('maps').where('title', 'like', 'Polite %').count('* as n').first()) as { n: string | number };
    expect(Number(n)).toBe(400);
  }, 300_000);

  it('limits a burst of 100 uploads sent at once with one key, each refusal saying how long to wait', async () => {
    const { key } = await service.newUser();
    const answers = await Promise.all(Array.from({ length: 100 }, (_, n) => upload(key, 1000 + n)));
    const refused = answers.filter((answer) => answer.error_code === 'rate_limited');
    const passed = answers.filter((answer) => answer.error === undefined);
    console.log(`100 uploads at once with one key: ${passed.length} passed, ${refused.length} refused`);
    expect(passed.length + refused.length).toBe(100);
    expect(refused.length).toBeGreaterThanOrEqual(50);
    for (const answer of refused) expect(answer.retry_after).toBeGreaterThanOrEqual(1);
  });
});
