import { describe, expect, it } from 'vitest';
import { numberText, pointFeatureText } from '../../lib/formats/featureRows.js';
import { pseudoRandom } from '../../bench/generate/pseudoRandom.js';

describe('texts of table points', () => {
  it('takes a number from its text only when that is the text JavaScript writes for it', () => {
    for (const [text, written] of [
      ['48.8566', '48.8566'],
      ['-0.5', '-0.5'],
      ['0', '0'],
      ['-0', '0'],
      ['-0.0', '0'],
      ['48.85660', '48.8566'],
      ['048.5', '48.5'],
      ['+48.5', '48.5'],
      ['.5', '0.5'],
      ['48.', '48'],
      ['0.000001', '0.000001'],
      ['0.0000001', '1e-7'],
      ['1e2', '100'],
      ['179.123456789012', '179.123456789012'],
      ['179.1234567890123', '179.1234567890123'],
      ['0.1234567890123456789', '0.12345678901234568'],
    ] as const) {
      expect(numberText(text, Number(text) + 0), text).toBe(written);
    }
    expect(numberText(48.5, 48.5)).toBe('48.5');
  });

  it('agrees with String() on a million random coordinates of every precision', () => {
    const random = pseudoRandom(7);
    let fromText = 0;
    for (let i = 0; i < 1_000_000; i++) {
      const digits = Math.floor(random() * 18);
      const text = ((random() - 0.5) * 360 * 10 ** -Math.floor(random() * 9)).toFixed(digits);
      const value = Number(text) + 0;
      if (numberText(text, value) !== String(value)) expect(`${text} → ${numberText(text, value)}`).toBe(String(value));
      if (numberText(text, value) === text) fromText++;
    }
    expect(fromText).toBeGreaterThan(300_000); // most texts are taken as they are
  });

  it('writes the JSON.stringify text of a point feature', () => {
    const feature = { type: 'Feature' as const, id: 7, geometry: { type: 'Point' as const, coordinates: [2.5, -48.25] as [number, number] }, properties: { title: 'a "b"', n: 1 } };
    expect(pointFeatureText(feature, { lon: '2.5', lat: '-48.25' })).toBe(JSON.stringify(feature));
  });
});
