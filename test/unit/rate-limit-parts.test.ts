// The rate limits' parts on their own: the in-memory token buckets under a controlled clock, what
// a request is charged (file jobs by their size and the jobs running; what a refused request
// gets back, and that waiting its retry_after suffices), the address a client's bucket is named
// by, the configuration and the refusal's wording.
import { describe, expect, it } from 'vitest';
import { addressBucket } from '../../api/clientAddress.js';
import { fileJobCost, JobsInFlight, RateMeter, type RateSubject } from '../../api/rateCharges.js';
import type { RateLimits } from '../../lib/limitsConfig.js';
import { ConfigError, loadConfig } from '../../lib/config.js';
import { RateLimited } from '../../lib/rateLimited.js';
import { MemoryBuckets } from '../../lib/tokenBuckets.js';

const rule = { burst: 10, perMinute: 60 }; // one token a second

function clocked() {
  let now = 1_000_000;
  const buckets = new MemoryBuckets(() => now, 3);
  return { buckets, advance: (ms: number) => (now += ms) };
}

describe('MemoryBuckets', () => {
  it('grants the burst, refuses without charging, and says how long until the cost is back', () => {
    const { buckets, advance } = clocked();
    for (let i = 0; i < 10; i++) expect(buckets.takeNow('a', rule, 1).granted).toBe(true);
    expect(buckets.takeNow('a', rule, 1)).toEqual({ granted: false, retryAfterMs: 1000 });
    advance(400);
    expect(buckets.takeNow('a', rule, 1)).toEqual({ granted: false, retryAfterMs: 600 });
    advance(600);
    expect(buckets.takeNow('a', rule, 1).granted).toBe(true);
    // Weights: 4 tokens take 4 seconds to come back; a cost above the burst waits for a full bucket.
    expect(buckets.takeNow('a', rule, 4)).toEqual({ granted: false, retryAfterMs: 4000 });
    expect(buckets.takeNow('a', rule, 50)).toEqual({ granted: false, retryAfterMs: 10_000 });
    advance(10_000);
    expect(buckets.takeNow('a', rule, 50).granted).toBe(true);
    expect(buckets.takeNow('b', rule, 1).granted).toBe(true); // another subject, its own bucket
  });

  it('never holds more than the burst, forgets full buckets and the least recently used past its size', () => {
    const { buckets, advance } = clocked();
    buckets.takeNow('a', rule, 5);
    advance(3_600_000);
    for (let i = 0; i < 10; i++) expect(buckets.takeNow('a', rule, 1).granted).toBe(true);
    expect(buckets.takeNow('a', rule, 1).granted).toBe(false);
    buckets.takeNow('b', rule, 1);
    buckets.takeNow('c', rule, 1);
    buckets.takeNow('d', rule, 1); // a fourth subject: 'a', the least recently used, goes (a full bucket again)
    expect(buckets.size).toBe(3);
    expect(buckets.takeNow('a', rule, 1).granted).toBe(true);
    advance(10_000);
    buckets.sweep();
    expect(buckets.size).toBe(0);
  });
});

describe('RateMeter', () => {
  const limits: RateLimits = { store: 'memory', perKey: { burst: 10, perMinute: 60 }, perIp: { burst: 20, perMinute: 60 }, freeFileJobs: 2, fileWeight: 3, mbWeight: 2 };
  const MB = 1024 * 1024;

  function world(rules = limits) {
    const { buckets, advance } = clocked();
    const jobs = new JobsInFlight();
    const address: RateSubject = { subject: 'ip:a', rule: rules.perIp, who: 'from this address' };
    const key: RateSubject = { subject: 'key:k', rule: rules.perKey, who: 'with this API key' };
    /** A request as the limiter makes one: the address admitted at 1, then the key's bucket. */
    const request = async () => {
      const meter = new RateMeter(buckets, rules, jobs);
      meter.add(address);
      await meter.admit(1);
      meter.add(key);
      return meter;
    };
    /** Tokens a bucket holds now: asks for all of them (and gives them back when they were there). */
    const tokens = (subject: RateSubject) => {
      const { burst, perMinute } = subject.rule;
      const grant = buckets.takeNow(subject.subject, subject.rule, burst);
      if (grant.granted) buckets.giveNow(subject.subject, subject.rule, burst);
      return grant.granted ? burst : burst - (grant.retryAfterMs * perMinute) / 60_000;
    };
    return { buckets, advance, jobs, address, key, request, tokens };
  }

  it('charges a file job its whole MB, and fileWeight for each of its client’s jobs running past the free ones', () => {
    expect(fileJobCost(limits, 900 * 1024, 0)).toBe(0);
    expect(fileJobCost(limits, 1, 1)).toBe(0);
    expect(fileJobCost(limits, 1, 2)).toBe(3);
    expect(fileJobCost(limits, 1, 4)).toBe(9);
    expect(fileJobCost(limits, 15 * MB, 0)).toBe(30);
    expect(fileJobCost({ ...limits, freeFileJobs: 0 }, 1, 0)).toBe(3);
  });

  it('counts a job among its key’s running jobs until its request ends; a refused job not at all', async () => {
    const { jobs, key, address, request, tokens } = world();
    const running = [await request(), await request(), await request()];
    for (const meter of running) await meter.chargeFileJob(10);
    // 0 + 0 + 3 from the key; the address its admissions (3) and the third job's 3 (up to 3, 1 paid).
    expect(tokens(key)).toBe(7);
    expect(tokens(address)).toBe(20 - 3 - 2);
    // A fourth at once costs 6, a fifth 9: refused, and counted out again at once.
    await (await request()).chargeFileJob(10);
    await expect((await request()).chargeFileJob(10)).rejects.toThrow(/with this API key/);
    expect(jobs.start('key:k')).toBe(4); // three running and the fourth, not the refused fifth
    jobs.end('key:k');
    for (const meter of running) meter.finish();
    expect(jobs.start('key:k')).toBe(1); // the fourth, whose request has not ended
  });

  const refusalOf = (charge: Promise<void>): Promise<RateLimited | undefined> => charge.then(() => undefined, (error: RateLimited) => error);

  it('gives a refused request back what it paid (all but the address’s 1), and waiting its retry_after suffices', async () => {
    const { advance, key, request, tokens } = world();
    // The key holds 10: a read of 4 MB costs 1 + 8 = 9, paid in two steps as map/get learns its size.
    const first = await request();
    await first.chargeUpTo(1);
    await first.chargeUpTo(9);
    expect(tokens(key)).toBe(1);
    const second = await request();
    await second.chargeUpTo(1);
    let refusal = await refusalOf(second.chargeUpTo(9));
    expect(refusal?.retryAfterSeconds).toBe(8); // 9 needed, 1 held after its own 1 came back
    expect(tokens(key)).toBe(1);
    advance(refusal!.retryAfterSeconds * 1000);
    const retry = await request();
    await retry.chargeUpTo(1);
    await retry.chargeUpTo(9);

    // The address refuses after the key paid: the key gets its tokens back, the address keeps its 1,
    // and the wait counts that 1 too.
    const { advance: later, key: k2, address: a2, request: r2, tokens: t2, buckets } = world();
    buckets.takeNow(a2.subject, a2.rule, 15); // the address holds 5
    const big = await r2();
    refusal = await refusalOf(big.chargeFileJob(4 * MB)); // 8
    expect(refusal?.message).toMatch(/from this address/);
    expect(t2(k2)).toBe(10);
    expect(t2(a2)).toBe(4);
    expect(refusal?.retryAfterSeconds).toBe(4); // 8 needed, 4 held
    later(refusal!.retryAfterSeconds * 1000);
    await (await r2()).chargeFileJob(4 * MB);
  });

  it('waits for the slowest of the buckets that refused, so that waiting suffices for both', async () => {
    const { advance, request, buckets, address } = world();
    buckets.takeNow(address.subject, address.rule, 16); // the address holds 4
    const first = await request(); // the address 3
    await first.chargeUpTo(3); // the key 7, the address 1
    const second = await request(); // the address 0
    // The key is 2 s short; the address 8 s, and 1 s more for the admission a retry pays again.
    const refusal = await refusalOf(second.chargeUpTo(9));
    expect(refusal?.message).toMatch(/from this address/);
    expect(refusal?.retryAfterSeconds).toBe(9);
    advance(refusal!.retryAfterSeconds * 1000);
    const retry = await request();
    await retry.chargeUpTo(9);
  });

  it('lets a request that costs more than a burst, learnt in two steps, pass once the bucket is full', async () => {
    const { advance, request } = world({ ...limits, perIp: { burst: 100, perMinute: 60 } });
    const first = await request();
    await first.chargeUpTo(1);
    await first.chargeUpTo(4); // the key holds 6
    const big = await request();
    await big.chargeUpTo(1);
    const refusal = await refusalOf(big.chargeUpTo(25)); // a 12 MB read: 25, more than the key's 10
    expect(refusal?.retryAfterSeconds).toBe(4); // until the key is full
    advance(refusal!.retryAfterSeconds * 1000);
    const retry = await request();
    await retry.chargeUpTo(1);
    await retry.chargeUpTo(25);
  });
});

describe('addressBucket', () => {
  it('names IPv4 clients by their address and IPv6 clients by their /64 network', () => {
    expect(addressBucket('203.0.113.7')).toBe('203.0.113.7');
    expect(addressBucket('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressBucket('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressBucket('2001:0DB8:0001:0002:ffff:1:2:3')).toBe('2001:db8:1:2::/64');
    expect(addressBucket('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressBucket('::1')).toBe('0:0:0:0::/64');
    expect(addressBucket('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });
});

describe('configuration of the limits', () => {
  it('has defaults that a person or a script at a normal pace never meets', () => {
    const config = loadConfig({});
    expect(config.rateLimits).toEqual({
      store: 'memory',
      perKey: { burst: 300, perMinute: 600 },
      perIp: { burst: 1000, perMinute: 1200 },
      freeFileJobs: 2,
      fileWeight: 1,
      mbWeight: 2,
    });
    expect(config.trustProxy).toBe(false);
    expect(config.shutdownGraceMs).toBe(30_000);
    expect(config.testSlowActivityMs).toBeUndefined();
  });

  it('reads every variable, turns limits off, and refuses the PostgreSQL store without PostgreSQL', () => {
    const config = loadConfig({
      RATE_LIMIT_KEY_PER_MINUTE: '60',
      RATE_LIMIT_KEY_BURST: '5',
      RATE_LIMIT_IP_PER_MINUTE: '120',
      RATE_LIMIT_IP_BURST: '7',
      RATE_LIMIT_FILE_JOBS: '0',
      RATE_LIMIT_FILE_WEIGHT: '3',
      RATE_LIMIT_MB_WEIGHT: '0',
      RATE_LIMIT_STORE: 'postgres',
      DATABASE_URL: 'postgres://localhost/x',
      TRUST_PROXY: '2',
      SHUTDOWN_GRACE_MS: '500',
    });
    expect(config.rateLimits).toEqual({ store: 'postgres', perKey: { burst: 5, perMinute: 60 }, perIp: { burst: 7, perMinute: 120 }, freeFileJobs: 0, fileWeight: 3, mbWeight: 0 });
    expect([config.trustProxy, config.shutdownGraceMs]).toEqual([2, 500]);
    expect(loadConfig({ RATE_LIMITS: 'off' }).rateLimits).toBeNull();
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(() => loadConfig({ RATE_LIMIT_STORE: 'postgres' })).toThrow(/RATE_LIMIT_STORE: postgres needs DATABASE_URL/);
    expect(() => loadConfig({ TRUST_PROXY: 'yes' })).toThrow(ConfigError);
    expect(() => loadConfig({ RATE_LIMIT_KEY_BURST: '0' })).toThrow(/RATE_LIMIT_KEY_BURST/);
  });
});

describe('RateLimited', () => {
  it('says how long to wait in words and in whole seconds', () => {
    const error = new RateLimited(2_100, 'with this API key');
    expect(error.body()).toEqual({ error: 'Too many requests with this API key; please try again in 3 seconds.', error_code: 'rate_limited', retry_after: 3 });
    expect(new RateLimited(10, 'from this address').retryAfterSeconds).toBe(1);
    expect(new RateLimited(10, 'from this address').message).toContain('in 1 second.');
    expect(new RateLimited(300_000, 'from this address').message).toContain('in 5 minutes.');
  });
});
