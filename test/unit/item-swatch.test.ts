// The side list shows each item as the map draws it (issue 26, defect 3): its kind's shape in its
// own colour, a point's Maki icon on that colour or its custom marker — on the page's list (drawn
// on the server from the stored items) as in the editor's.
import { describe, expect, it } from 'vitest';
import { swatchOf, swatchShapes } from '../../lib/itemSwatch.js';
import { itemTree } from '../../lib/mapItems.js';

const feature = (id: number, type: string, properties: Record<string, unknown>) => ({ id, text: JSON.stringify({ type: 'Feature', id, geometry: { type, coordinates: type === 'Point' ? [0, 0] : [[0, 0], [1, 1]] }, properties }) });

describe('item swatches', () => {
  it('take the item’s colour (#rgb too), the default blue without one, and a point’s icon', () => {
    expect(swatchOf('point', { color: '#B03A2E' })).toEqual({ kind: 'point', color: '#b03a2e' });
    expect(swatchOf('line', { color: '#0a0' })).toEqual({ kind: 'line', color: '#00aa00' });
    expect(swatchOf('area', { color: 'red' })).toEqual({ kind: 'area', color: '#2f6fd6' });
    expect(swatchOf('point', { 'marker-symbol': 'cafe-15' })).toEqual({ kind: 'point', color: '#2f6fd6', icon: '/assets/maki/cafe.svg' });
    expect(swatchOf('point', { 'marker-symbol': 'cafe', marker_id: 'abcDEF12' }).icon).toBe('/markers/abcDEF12/s64.png');
    // Only icon names of the right form make an address; a line has no icon.
    expect(swatchOf('point', { 'marker-symbol': '../../etc' }).icon).toBeUndefined();
    expect(swatchOf('point', { marker_id: 'a/b' }).icon).toBeUndefined();
    expect(swatchOf('line', { 'marker-symbol': 'cafe' }).icon).toBeUndefined();
  });

  it('are drawn by SVG attributes: the colour as fill, a Maki icon over it, a marker alone', () => {
    expect(swatchShapes(swatchOf('point', { color: '#b03a2e' }))).toEqual({ shape: { tag: 'circle', attributes: { cx: '7', cy: '7', r: '7', fill: '#b03a2e' } } });
    const maki = swatchShapes(swatchOf('point', { color: '#b03a2e', 'marker-symbol': 'cafe' }));
    expect([maki.shape.attributes.fill, maki.image?.href]).toEqual(['#b03a2e', '/assets/maki/cafe.svg']);
    const marker = swatchShapes(swatchOf('point', { marker_id: 'abcDEF12' }));
    expect([marker.shape.attributes.fill, marker.image?.width]).toEqual(['none', '14']);
    expect(swatchShapes(swatchOf('area', { color: '#00aa00' })).shape.attributes).toMatchObject({ fill: '#00aa00', stroke: '#00aa00' });
  });

  it('show an image overlay\'s image (its smallest file), and only an uploaded image\'s', () => {
    const overlay = swatchOf('area', { overlay: true, image: { id: 'abcDEF12' } });
    expect(overlay.icon).toBe('/images/abcDEF12/s256');
    expect(swatchShapes(overlay).image).toMatchObject({ href: '/images/abcDEF12/s256', width: '14', height: '14' });
    expect(swatchOf('area', { overlay: true, image: { id: '../x' } }).icon).toBeUndefined();
    expect(swatchOf('area', { image: { id: 'abcDEF12' } }).icon).toBeUndefined();
  });

  it('come with every item of the page’s list', () => {
    const tree = itemTree('{}', [feature(1, 'Point', { title: 'Café', color: '#b03a2e', 'marker-symbol': 'cafe' }), feature(2, 'LineString', { title: 'Walk', color: '#00aa00' })], [{ groupId: null, count: 2 }], 2);
    expect(tree.root.items.map((item) => item.swatch)).toEqual([
      { kind: 'point', color: '#b03a2e', icon: '/assets/maki/cafe.svg' },
      { kind: 'line', color: '#00aa00' },
    ]);
  });
});
