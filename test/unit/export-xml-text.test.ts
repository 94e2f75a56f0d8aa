import { describe, expect, it } from 'vitest';
import { propertyText, xmlText } from '../../lib/formats/export/xmlText.js';

describe('xmlText', () => {
  it('escapes markup and drops what XML 1.0 cannot hold, keeping tabs, line ends and emoji', () => {
    expect(xmlText(`a<b>&"c"'d'`)).toBe('a&lt;b&gt;&amp;&quot;c&quot;&apos;d&apos;');
    expect(xmlText('bell\u0007 nul\u0000 tab\t line\nend\r')).toBe('bell nul tab\t line\nend\r');
    expect(xmlText('lone \uD800 surrogate, pair \uD83D\uDE00')).toBe('lone  surrogate, pair \uD83D\uDE00');
    expect(xmlText('\uFFFE\uFFFF')).toBe('');
  });

  it('writes property values as text: numbers and yes/no as they are, lists and objects as JSON', () => {
    expect([propertyText('x'), propertyText(4.5), propertyText(false), propertyText([1, 'a']), propertyText({ a: 1 }), propertyText(null), propertyText(undefined)]).toEqual([
      'x',
      '4.5',
      'false',
      '[1,"a"]',
      '{"a":1}',
      undefined,
      undefined,
    ]);
  });
});

describe('kmlOfMap', () => {
  it('writes a large group in one pass (50,000 placemarks in one folder)', async () => {
    const { kmlOfMap } = await import('../../lib/formats/export/kml.js');
    const features = Array.from({ length: 50_000 }, (_, i) => ({ type: 'Feature' as const, id: i + 1, geometry: { type: 'Point' as const, coordinates: [i % 180, i % 80] as [number, number] }, properties: { title: `P${i}`, group: 1 } }));
    const kml = kmlOfMap({ title: 'Big', description: '' }, features, [{ id: 1, title: 'All' }]);
    expect(kml.match(/<Placemark>/g)).toHaveLength(50_000);
    expect(kml.indexOf('<Folder><name>All</name>')).toBeGreaterThan(0);
  });
});
