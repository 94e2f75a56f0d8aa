// KML GroundOverlays → image overlay items (issue 27, item 2), with KMZ archives built here.
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseKml } from '../../lib/formats/kml.js';
import { kmlColorOpacity, latLonBoxCorners } from '../../lib/formats/xml/kmlGroundOverlay.js';
import type { ParsedFile } from '../../lib/formats/types.js';
import { parseMapDocument } from '../../lib/geojson/model.js';
import { bytesOf } from '../support/parsing.js';
import { makeZip } from '../support/zipWriter.js';

const options = { publicUrl: 'http://localhost:3000' };
const kml = (body: string) => `<?xml version="1.0" encoding="UTF-8"?>
<kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2"><Document>${body}</Document></kml>`;
const point = '<Placemark><name>Pin</name><Point><coordinates>25,60.15</coordinates></Point></Placemark>';
const boxOverlay = (href: string, extra = '') => `<GroundOverlay><name>Old plan</name><color>80ffffff</color>${extra}
  <Icon><href>${href}</href></Icon>
  <LatLonBox><north>60.2</north><south>60.1</south><east>25.0</east><west>24.9</west></LatLonBox></GroundOverlay>`;

async function parse(bytes: Uint8Array): Promise<ParsedFile> {
  const result = await parseKml(bytes, options);
  const plain = JSON.parse(JSON.stringify(result.document));
  expect(parseMapDocument(plain)).toEqual(plain); // valid as a document, overlays included
  return result;
}

let png: Buffer;
beforeAll(async () => {
  png = await sharp({ create: { width: 20, height: 10, channels: 3, background: '#3366cc' } }).png().toBuffer();
});

describe('GroundOverlay import', () => {
  it('imports a LatLonBox overlay of a KMZ with its image stored as an image and its colour\'s alpha as opacity', async () => {
    const zip = makeZip([
      { name: 'doc.kml', data: kml(`<Folder><name>Plans</name>${boxOverlay('files/plan.png')}</Folder>${point}`) },
      { name: 'files/plan.png', data: png },
    ]);
    const result = await parse(zip);
    expect(result.skipped).toEqual([]);
    expect(result.media).toHaveLength(1);
    expect(result.media[0]).toMatchObject({ kind: 'image', name: 'files/plan.png' });
    expect(Buffer.from(result.media[0]!.bytes).equals(png)).toBe(true);
    const overlay = result.document.features[0]!;
    expect(overlay.properties).toEqual({ title: 'Old plan', overlay: true, image: { id: 'media:0' }, opacity: 0.502, group: 1 });
    expect(overlay.geometry).toEqual({
      type: 'Polygon',
      coordinates: [[[24.9, 60.1], [25.0, 60.1], [25.0, 60.2], [24.9, 60.2], [24.9, 60.1]]],
    });
    expect(result.document.features[1]!.properties.title).toBe('Pin');
  });

  it('turns a LatLonBox by its rotation around the centre, keeping its shape on the ground', () => {
    const [lowerLeft, lowerRight, upperRight, upperLeft] = latLonBoxCorners(1, -1, 1, -1, 90);
    // A quarter turn counter-clockwise: the lower-left corner goes to the lower right.
    expect(lowerLeft[0]).toBeCloseTo(1, 6);
    expect(lowerLeft[1]).toBeCloseTo(-1, 6);
    expect(lowerRight[0]).toBeCloseTo(1, 6);
    expect(lowerRight[1]).toBeCloseTo(1, 6);
    expect(upperRight[0]).toBeCloseTo(-1, 6);
    expect(upperLeft[1]).toBeCloseTo(-1, 6);
    // At 60° north a degree of longitude is half a degree of latitude on the ground.
    const turned = latLonBoxCorners(60.1, 59.9, 25.2, 24.8, 90);
    // (Turned on plain degrees, the lower-left corner would land at 25.1, 59.8.)
    expect(turned[0][0]).toBeCloseTo(25.2, 6);
    expect(turned[0][1]).toBeCloseTo(59.9, 6);
    expect(turned[1][0]).toBeCloseTo(25.2, 6);
    expect(turned[1][1]).toBeCloseTo(60.1, 6);
  });

  it('imports a rotated box and a gx:LatLonQuad as their corners', async () => {
    const quad = `<GroundOverlay><name>Quad</name><Icon><href>plan.png</href></Icon>
      <gx:LatLonQuad><coordinates>24.9,60.1,0 25.0,60.11 25.01,60.2 24.91,60.19</coordinates></gx:LatLonQuad></GroundOverlay>`;
    const rotated = boxOverlay('plan.png', '').replace('</west>', '</west><rotation>30</rotation>');
    const result = await parse(makeZip([{ name: 'doc.kml', data: kml(quad + rotated) }, { name: 'plan.png', data: png }]));
    expect(result.skipped).toEqual([]);
    expect(result.media).toHaveLength(1); // the same file once
    const [fromQuad, fromBox] = result.document.features;
    expect(fromQuad!.geometry.type === 'Polygon' && fromQuad!.geometry.coordinates[0]).toEqual([[24.9, 60.1], [25.0, 60.11], [25.01, 60.2], [24.91, 60.19], [24.9, 60.1]]);
    expect(fromQuad!.properties.opacity).toBe(1);
    expect(fromBox!.geometry.type === 'Polygon' && fromBox!.geometry.coordinates[0]).toEqual([...latLonBoxCorners(60.2, 60.1, 25.0, 24.9, 30), latLonBoxCorners(60.2, 60.1, 25.0, 24.9, 30)[0]]);
  });

  it('never fetches an image at an address: the overlay is skipped with a note', async () => {
    const result = await parse(makeZip([{ name: 'doc.kml', data: kml(boxOverlay('https://example.com/plan.png') + point) }]));
    expect(result.media).toEqual([]);
    expect(result.document.features.map((feature) => feature.properties.title)).toEqual(['Pin']);
    expect(result.skipped).toEqual([
      { line: 2, reason: 'ground overlay "Old plan": its image is at an address ("https://example.com/plan.png"), which is never fetched; put the image inside a KMZ; it was skipped' },
    ]);
  });

  it('skips, with notes, an overlay of a plain KML, one whose image is not in the KMZ and one without a place', async () => {
    const plain = await parse(bytesOf(kml(boxOverlay('plan.png') + point)));
    expect(plain.skipped[0]!.reason).toMatch(/its image "plan.png" is a separate file; import the KMZ that holds it; it was skipped/);
    const missing = await parse(makeZip([{ name: 'doc.kml', data: kml(boxOverlay('nope.png') + '<GroundOverlay><Icon><href>plan.png</href></Icon></GroundOverlay>' + point) }, { name: 'plan.png', data: png }]));
    expect(missing.skipped.map((item) => item.reason)).toEqual([
      'ground overlay "Old plan": the KMZ holds no PNG, JPEG or GIF image "nope.png"; it was skipped',
      'ground overlay: it has no LatLonBox with north, south, east and west, nor a gx:LatLonQuad; it was skipped',
    ]);
    expect(missing.media).toEqual([]);
  });

  it('says why a file of only unusable overlays imports nothing', async () => {
    await expect((async () => parseKml(bytesOf(kml(boxOverlay('http://example.com/a.png'))), options))()).rejects.toMatchObject({
      code: 'no_features',
      message: expect.stringMatching(/nothing in the KML file could be imported \(line 2: ground overlay "Old plan": its image is at an address/),
    });
  });

  it('reads the opacity from a KML colour\'s alpha', () => {
    expect([kmlColorOpacity('ffffffff'), kmlColorOpacity('00ffffff'), kmlColorOpacity('7fffffff'), kmlColorOpacity('fff')]).toEqual([1, 0, 0.498, undefined]);
  });
});
