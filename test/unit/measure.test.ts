import { describe, expect, it } from 'vitest';
import { areaText, lengthText, measureOf } from '../../web/app/measure.js';

describe('measures', () => {
  it('says lengths in m/km or ft/mi', () => {
    expect([lengthText(850, 'metric'), lengthText(12_345, 'metric'), lengthText(250_000, 'metric')]).toEqual(['850 m', '12.35 km', '250 km']);
    expect([lengthText(100, 'imperial'), lengthText(1609.344 * 2.5, 'imperial')]).toEqual(['328 ft', '2.5 mi']);
  });

  it('says areas in m²/ha/km² or ft²/acres/mi²', () => {
    expect([areaText(850, 'metric'), areaText(123_400, 'metric'), areaText(5_000_000, 'metric')]).toEqual(['850 m²', '12.34 ha', '5 km²']);
    expect([areaText(100, 'imperial'), areaText(4046.8564224 * 3, 'imperial'), areaText(2_589_988.11 * 2, 'imperial')]).toEqual(['1,076 ft²', '3 acres', '2 mi²']);
  });

  it('measures a line along the earth and an area on it; nothing for a point', () => {
    // A tenth of a degree of longitude along the equator: about 11.12 km (6.91 mi).
    expect(measureOf({ type: 'LineString', coordinates: [[0, 0], [0.1, 0]] }, 'metric')).toBe('Length: 11.12 km');
    expect(measureOf({ type: 'LineString', coordinates: [[0, 0], [0.1, 0]] }, 'imperial')).toBe('Length: 6.91 mi');
    // A square of 0.01° at the equator: about 1.24 km².
    expect(measureOf({ type: 'Polygon', coordinates: [[[0, 0], [0.01, 0], [0.01, 0.01], [0, 0.01], [0, 0]]] }, 'metric')).toBe('Area: 1.24 km²');
    expect(measureOf({ type: 'Point', coordinates: [0, 0] }, 'metric')).toBeUndefined();
  });
});
