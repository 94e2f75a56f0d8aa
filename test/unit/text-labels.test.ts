// Text labels (lib/textLabels.ts) outside the renderers: how their properties read, their kind in
// the item list, and KML both ways (lib/formats/kmlTextLabels.ts): written as a placemark whose
// icon is hidden and whose name is coloured and sized, read back as the same label, also from a
// shared style and from Google Earth's own shape of it.
import { describe, expect, it } from 'vitest';
import { kmlOfMap } from '../../lib/formats/export/kml.js';
import { parseKml } from '../../lib/formats/kml.js';
import type { ParsedFile } from '../../lib/formats/types.js';
import type { MapFeature } from '../../lib/geojson/model.js';
import { itemTree } from '../../lib/mapItems.js';
import { hasTextLabel, isTextLabel, textHaloColor, textLabelColor, textOfLabel, textSize } from '../../lib/textLabels.js';

const point = (id: number, coordinates: number[], properties: Record<string, unknown>): MapFeature => ({ type: 'Feature', id, geometry: { type: 'Point', coordinates }, properties }) as MapFeature;
const parse = (text: string) => parseKml(new TextEncoder().encode(text), { publicUrl: 'http://localhost:3000' }) as ParsedFile;

describe('text label properties', () => {
  it('reads text_label, text_size and color as the editor writes them and as a table import gives them back', () => {
    expect([true, 'true', ' TRUE ', false, 'yes', 1, undefined].map((value) => hasTextLabel({ text_label: value }))).toEqual([true, true, true, false, false, false, false]);
    expect(isTextLabel({ geometry: { type: 'Point' }, properties: { text_label: true } })).toBe(true);
    expect(isTextLabel({ geometry: { type: 'LineString' }, properties: { text_label: true } })).toBe(false);
    expect(isTextLabel({ geometry: null, properties: { text_label: true } })).toBe(false);
    expect([undefined, 24, '30', 4, 100, 'big', '', 17.6].map((value) => textSize({ text_size: value }))).toEqual([16, 24, 30, 10, 48, 16, 16, 18]);
    expect([textLabelColor({}), textLabelColor({ color: '#B03A2E' }), textLabelColor({ color: 'red' })]).toEqual(['#1d232a', '#b03a2e', '#1d232a']);
    expect([textHaloColor('#1d232a'), textHaloColor('#b03a2e'), textHaloColor('#ffffff'), textHaloColor('#e6ab02')]).toEqual(['#ffffff', '#ffffff', '#1d232a', '#1d232a']);
    expect([textOfLabel({ title: '  Hi ' }), textOfLabel({}), textOfLabel({ title: 3 })]).toEqual(['Hi', '', '']);
  });

  it('lists a text label as kind text, "Untitled text" when it has no text', () => {
    const features = [
      { id: 1, text: JSON.stringify(point(1, [0, 0], { text_label: true, title: 'Harbour' })) },
      { id: 2, text: JSON.stringify(point(2, [0, 0], { text_label: true })) },
      { id: 3, text: JSON.stringify(point(3, [0, 0], { title: 'Pin' })) },
    ];
    const tree = itemTree('{}', features, [{ groupId: null, count: 3 }], 3);
    expect(tree.root.items.map((item) => [item.title, item.kind])).toEqual([
      ['Harbour', 'text'],
      ['Untitled text', 'text'],
      ['Pin', 'point'],
    ]);
  });
});

describe('text labels in KML', () => {
  const features = [
    point(1, [2.35, 48.85], { text_label: true, title: 'Paris', color: '#b03a2e', text_size: 24, note: 'kept' }),
    point(2, [2.4, 48.9], { text_label: true, title: 'Plain' }),
    point(3, [2.5, 48.8], { title: 'A pin', color: '#2f6fd6' }),
  ];

  it('writes a label as a placemark with a hidden icon and its name in its colour and size', () => {
    const kml = kmlOfMap({ title: 'Labels', description: '' }, features, []);
    const placemarks = kml.split('<Placemark>').slice(1);
    expect(placemarks[0]).toContain('<name>Paris</name>');
    expect(placemarks[0]).toContain('<Style><IconStyle><scale>0</scale></IconStyle><LabelStyle><color>ff2e3ab0</color><scale>1.5</scale></LabelStyle></Style>');
    expect(placemarks[0]).toContain('<Data name="note"><value>kept</value></Data>');
    expect(placemarks[0]).not.toContain('text_label');
    expect(placemarks[0]).not.toContain('text_size');
    expect(placemarks[1]).toContain('<LabelStyle><color>ff2a231d</color><scale>1</scale></LabelStyle>');
    expect(placemarks[2]).toContain('<Style><IconStyle><color>ffd66f2f</color></IconStyle></Style>');
  });

  it('reads the written file back to the same labels, and the pin as a pin', () => {
    const back = parse(kmlOfMap({ title: 'Labels', description: '' }, features, [])).document.features;
    expect(back.map((feature) => feature.properties)).toEqual([
      { title: 'Paris', text_label: true, color: '#b03a2e', text_size: 24, note: 'kept' },
      { title: 'Plain', text_label: true, color: '#1d232a' },
      { title: 'A pin', color: '#2f6fd6' },
    ]);
  });

  it('reads Google Earth’s label placemarks: a shared style, a StyleMap, a colour on the icon only', () => {
    const { features: read } = parse(`<?xml version="1.0" encoding="UTF-8"?>
<kml xmlns="http://www.opengis.net/kml/2.2"><Document>
  <Style id="text"><IconStyle><scale>0</scale><Icon><href>http://maps.google.com/mapfiles/kml/paddle/wht-blank.png</href></Icon></IconStyle><LabelStyle><color>ff00ffff</color><scale>0.8</scale></LabelStyle></Style>
  <StyleMap id="text-map"><Pair><key>normal</key><styleUrl>#text</styleUrl></Pair><Pair><key>highlight</key><styleUrl>#other</styleUrl></Pair></StyleMap>
  <Placemark><name>Shared</name><styleUrl>#text</styleUrl><Point><coordinates>1,2</coordinates></Point></Placemark>
  <Placemark><name>Mapped</name><styleUrl>#text-map</styleUrl><Point><coordinates>1,3</coordinates></Point></Placemark>
  <Placemark><name>Icon colour</name><Style><IconStyle><color>ff0000ff</color><scale>0</scale></IconStyle></Style><Point><coordinates>1,4</coordinates></Point></Placemark>
  <Placemark><name>Big icon</name><Style><IconStyle><scale>1.5</scale></IconStyle><LabelStyle><color>ff00ff00</color></LabelStyle></Style><Point><coordinates>1,5</coordinates></Point></Placemark>
  <Placemark><name>Line</name><Style><IconStyle><scale>0</scale></IconStyle></Style><LineString><coordinates>1,5 2,6</coordinates></LineString></Placemark>
</Document></kml>`).document;
    expect(read.map((feature) => feature.properties)).toEqual([
      { title: 'Shared', text_label: true, color: '#ffff00', text_size: 13 },
      { title: 'Mapped', text_label: true, color: '#ffff00', text_size: 13 },
      { title: 'Icon colour', text_label: true, color: '#ff0000' },
      { title: 'Big icon' },
      { title: 'Line' },
    ]);
  });
});
