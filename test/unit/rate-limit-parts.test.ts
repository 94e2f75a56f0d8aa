// The rate limits' parts on their own: the in-memory token buckets under a controlled clock, the
// address a client's bucket is named by, the configuration and the refusal's wording.
import { describe, expect, it } from 'vitest';
import { addressBucket } from '../../api/clientAddress.js';
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
      fileWeight: 10,
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
      RATE_LIMIT_FILE_WEIGHT: '3',
      RATE_LIMIT_MB_WEIGHT: '0',
      RATE_LIMIT_STORE: 'postgres',
      DATABASE_URL: 'postgres://localhost/x',
      TRUST_PROXY: '2',
      SHUTDOWN_GRACE_MS: '500',
    });
    expect(config.rateLimits).toEqual({ store: 'postgres', perKey: { burst: 5, perMinute: 60 }, perIp: { burst: 7, perMinute: 120 }, fileWeight: 3, mbWeight: 0 });
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
