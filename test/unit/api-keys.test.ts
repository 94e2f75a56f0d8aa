import { describe, expect, it } from 'vitest';
import { apiKeyMatches, apiKeyPrefix, generateApiKey, hashApiKey } from '../../lib/apiKeys.js';

describe('API keys', () => {
  it('generates distinct well-formed keys whose prefix can be read back', () => {
    const a = generateApiKey();
    const b = generateApiKey();
    expect(a.key).not.toBe(b.key);
    expect(apiKeyPrefix(a.key)).toBe(a.prefix);
    expect(a.hash).toBe(hashApiKey(a.key));
    expect(a.hash).not.toContain(a.key.slice(15));
  });

  it('matches only the exact key', () => {
    const { key, hash } = generateApiKey();
    expect(apiKeyMatches(key, hash)).toBe(true);
    expect(apiKeyMatches(`${key}x`, hash)).toBe(false);
    expect(apiKeyMatches(key.replace(/.$/, (c) => (c === 'a' ? 'b' : 'a')), hash)).toBe(false);
    expect(apiKeyMatches(key, 'abcd')).toBe(false);
  });

  it('rejects malformed keys', () => {
    for (const bad of ['', 'mps_short', 'Token abc', `mps_AAAAAAAAAA_${'x'.repeat(42)}`, `xyz_AAAAAAAAAA_${'x'.repeat(43)}`]) {
      expect(apiKeyPrefix(bad)).toBeUndefined();
    }
  });
});
