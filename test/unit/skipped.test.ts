import { describe, expect, it } from 'vitest';
import { MAX_REPORTED_SKIPS, capSkipped } from '../../lib/formats/skipped.js';

describe('capSkipped', () => {
  it('keeps short lists as they are', () => {
    const skipped = [{ reason: 'no coordinates', line: 3 }];
    expect(capSkipped(skipped)).toBe(skipped);
  });

  it('reports the first items one by one and counts the rest', () => {
    const skipped = Array.from({ length: MAX_REPORTED_SKIPS + 5 }, (_, i) => ({ reason: 'bad latitude', line: i + 2 }));
    const capped = capSkipped(skipped);
    expect(capped).toHaveLength(MAX_REPORTED_SKIPS + 1);
    expect(capped[MAX_REPORTED_SKIPS - 1]).toEqual({ reason: 'bad latitude', line: MAX_REPORTED_SKIPS + 1 });
    expect(capped.at(-1)).toEqual({ reason: 'and 5 more items skipped' });
  });
});
