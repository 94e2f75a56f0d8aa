import { describe, expect, it } from 'vitest';
import { SHORT_NAME_MAX, shortNameBase } from '../../lib/shortName.js';

describe('shortNameBase', () => {
  it.each([
    ['My Trip!', 'my-trip'],
    ['  Café  Zürich  ', 'cafe-zurich'],
    ['a---b', 'a-b'],
    ['UPPER lower 123', 'upper-lower-123'],
    ['../../etc/passwd', 'etcpasswd'],
  ])('slugifies %j to %j', (input, expected) => {
    expect(shortNameBase(input)).toBe(expected);
  });

  it('falls back to the title, then to "map"', () => {
    expect(shortNameBase(undefined, 'Summer Walks')).toBe('summer-walks');
    expect(shortNameBase('!!!', 'Summer Walks')).toBe('summer-walks');
    expect(shortNameBase('', '')).toBe('map');
    expect(shortNameBase('日本')).toBe('map');
  });

  it('caps the length without a trailing hyphen', () => {
    const slug = shortNameBase(`${'a'.repeat(SHORT_NAME_MAX - 1)} bcd`);
    expect(slug.length).toBeLessThanOrEqual(SHORT_NAME_MAX);
    expect(slug.endsWith('-')).toBe(false);
  });
});
