// Image overlays (issue 27, item 2) through the API: map/update and map/get carry them, their
// image is one of the map's images, and a bad overlay is refused with its reason.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, featureCollection, type TestService } from './harness.js';
import { makeZip } from '../support/zipWriter.js';
import { unzipSync } from '../support/unzip.js';

let service: TestService;
let key: string;
beforeAll(async () => {
  service = await startTestService();
  ({ key } = await service.newUser());
});
afterAll(() => service.stop());

const corners = [
  [24.9, 60.1],
  [25.0, 60.1],
  [25.0, 60.2],
  [24.9, 60.2],
  [24.9, 60.1],
];
const overlayFeature = (image: unknown, opacity: unknown = 0.6, ring: unknown = corners) => ({
  type: 'Feature',
  geometry: { type: 'Polygon', coordinates: [ring] },
  properties: { title: 'Old town plan', overlay: true, image, opacity },
});

describe('image overlays through the API', () => {
  it('map/update stores an overlay; map/get gives it back with its image filled in and listed', async () => {
    const upload = await service.send('map/upload', key, { file_type: 'geojson', visibility: 'public', title: 'Overlays' }, JSON.stringify(featureCollection(1)));
    expect(upload.error).toBeUndefined();
    const id = upload.id as number;
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#cc3300' } }).png().toBuffer();
    const image = (await service.send('image/upload', key, { file_type: 'png' }, png)).image_id as string;
    const geojson = { type: 'FeatureCollection', features: [overlayFeature({ id: image })] };
    expect((await service.call('map/update', key, { map_id: id, geojson })).error).toBeUndefined();
    const map = await service.call('map/get', key, { map_id: id });
    expect(map.images).toEqual([image]);
    const feature = map.geojson.features[0];
    expect(feature.geometry).toEqual({ type: 'Polygon', coordinates: [corners] });
    expect(feature.properties).toEqual({
      title: 'Old town plan',
      overlay: true,
      opacity: 0.6,
      image: { id: image, w: 40, h: 30, tip_color: '#cc3300', avg_color: '#cc3300' },
    });

    const refusals: [unknown, RegExp][] = [
      [overlayFeature({ id: image }, 2), /feature index 0: an overlay's "opacity" must be a number from 0 to 1, not 2/],
      [overlayFeature({ id: image }, 0.5, [...corners.slice(0, 3), corners[0]]), /ring has 3 corners; it must have 4/],
      [overlayFeature(undefined), /an overlay needs an "image"/],
    ];
    for (const [feature, message] of refusals) {
      const body = await service.call('map/update', key, { map_id: id, geojson: { type: 'FeatureCollection', features: [feature] } });
      expect(body.error_code).toBe('invalid_geojson');
      expect(body.error).toMatch(message);
    }
    // An image the user did not upload cannot be placed either.
    const stranger = await service.newUser();
    const theirs = (await service.send('image/upload', stranger.key, { file_type: 'png' }, png)).image_id as string;
    const foreign = await service.call('map/update', key, { map_id: id, geojson: { type: 'FeatureCollection', features: [overlayFeature({ id: theirs })] } });
    expect(foreign.error_code).toBeDefined();
    expect((await service.call('map/get', key, { map_id: id })).images).toEqual([image]);
  });

  it('imports a KMZ ground overlay with its image stored, and skips one whose image is an address with a note', async () => {
    const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#22aa44' } }).png().toBuffer();
    const overlayKml = (name: string, href: string) =>
      `<GroundOverlay><name>${name}</name><color>b3ffffff</color><Icon><href>${href}</href></Icon><LatLonBox><north>60.2</north><south>60.1</south><east>25.0</east><west>24.9</west><rotation>10</rotation></LatLonBox></GroundOverlay>`;
    const doc = `<kml xmlns="http://www.opengis.net/kml/2.2"><Document>${overlayKml('Floor plan', 'images/plan.png')}\n${overlayKml('Remote', 'http://127.0.0.1:9/plan.png')}</Document></kml>`;
    const answer = await service.send('map/upload', key, { file_type: 'kml', visibility: 'public' }, makeZip([{ name: 'doc.kml', data: doc }, { name: 'images/plan.png', data: png }]));
    expect(answer.error).toBeUndefined();
    expect(answer.import.features).toBe(1);
    expect(answer.import.skipped).toEqual([
      { line: 2, reason: 'ground overlay "Remote": its image is at an address ("http://127.0.0.1:9/plan.png"), which is never fetched; put the image inside a KMZ; it was skipped' },
    ]);
    const map = await service.call('map/get', key, { map_id: answer.id });
    const [overlay] = map.geojson.features;
    expect(overlay.properties).toMatchObject({ title: 'Floor plan', overlay: true, opacity: 0.702, image: { w: 64, h: 48, avg_color: '#22aa44' } });
    expect(map.images).toEqual([overlay.properties.image.id]);
    expect(overlay.geometry.coordinates[0]).toHaveLength(5);
  });

  it('draws the overlay\'s image into the map\'s static image (the render activity reads it)', async () => {
    const png = await sharp({ create: { width: 50, height: 50, channels: 3, background: '#ff00ff' } }).png().toBuffer();
    const image = (await service.send('image/upload', key, { file_type: 'png' }, png)).image_id as string;
    const geojson = { type: 'FeatureCollection', features: [overlayFeature({ id: image }, 1)] };
    const answer = await service.send('map/upload', key, { file_type: 'geojson', visibility: 'public', title: 'Static overlay' }, JSON.stringify(geojson));
    expect(answer.error).toBeUndefined();
    await expect
      .poll(async () => (await service.db('maps').where({ id: answer.id }).first('image_files')).image_files, { timeout: 60_000, interval: 100 })
      .not.toBeNull();
    const path = new URL(answer.url as string).pathname;
    const drawn = await sharp(Buffer.from(await (await fetch(`${service.url}${path}/static.png`)).arrayBuffer())).raw().toBuffer({ resolveWithObject: true });
    let magenta = 0;
    for (let i = 0; i < drawn.data.length; i += drawn.info.channels) {
      if (drawn.data[i]! > 235 && drawn.data[i + 1]! < 20 && drawn.data[i + 2]! > 235) magenta++;
    }
    // The overlay fills the framed middle of the 1200 × 630 image (less the padding).
    expect(magenta).toBeGreaterThan(100_000);
  });

  it('exports overlays to KMZ as GroundOverlays with their images inside, and imports that KMZ back to the same overlays', async () => {
    const png = await sharp({ create: { width: 80, height: 40, channels: 3, background: '#884422' } }).png().toBuffer();
    const image = (await service.send('image/upload', key, { file_type: 'png' }, png)).image_id as string;
    const turned = [[25.1, 60.1], [25.2, 60.12], [25.18, 60.2], [25.08, 60.18], [25.1, 60.1]];
    const geojson = {
      type: 'FeatureCollection',
      groups: [{ id: 1, title: 'Plans' }],
      features: [
        { ...overlayFeature({ id: image }, 0.6), properties: { ...overlayFeature({ id: image }).properties, opacity: 0.6, group: 1, description: 'Surveyed <1900> & drawn' } },
        { ...overlayFeature({ id: image }, 0.2, turned), properties: { title: 'Turned', overlay: true, image: { id: image }, opacity: 0.2 } },
        { type: 'Feature', geometry: { type: 'Point', coordinates: [25, 60.15] }, properties: { title: 'Pin' } },
      ],
    };
    const source = await service.send('map/upload', key, { file_type: 'geojson', visibility: 'public', title: 'Export me' }, JSON.stringify(geojson));
    expect(source.error).toBeUndefined();
    const path = new URL(source.url as string).pathname;

    const kmz = await fetch(`${service.url}${path}/download.kmz`);
    expect(kmz.status).toBe(200);
    expect(kmz.headers.get('content-type')).toBe('application/vnd.google-earth.kmz');
    const bytes = new Uint8Array(await kmz.arrayBuffer());
    const entries = unzipSync(bytes);
    const kml = Buffer.from(entries['doc.kml']!).toString('utf8');
    // An opaque image's stored file is a JPEG.
    expect(kml).toContain(`<Icon><href>files/${image}.jpg</href></Icon><LatLonBox><north>60.2</north><south>60.1</south><east>25</east><west>24.9</west></LatLonBox>`);
    expect(kml).toContain('<color>99ffffff</color>');
    expect(kml).toContain('<gx:LatLonQuad><coordinates>25.1,60.1 25.2,60.12 25.18,60.2 25.08,60.18</coordinates></gx:LatLonQuad>');
    expect(Object.keys(entries).sort()).toEqual(['doc.kml', `files/${image}.jpg`]);

    const back = await service.send('map/upload', key, { file_type: 'kml', visibility: 'public' }, bytes);
    expect(back.error).toBeUndefined();
    expect(back.import).toEqual({ features: 3, skipped: [] });
    const map = await service.call('map/get', key, { map_id: back.id });
    const before = (await service.call('map/get', key, { map_id: source.id })).geojson.features;
    const after = map.geojson.features;
    expect(map.images).toHaveLength(1);
    expect(after).toHaveLength(before.length);
    for (const feature of before) {
      const again = after.find((each: { properties: { title: string } }) => each.properties.title === feature.properties.title);
      expect(again.geometry).toEqual(feature.geometry);
      const { image: imageBefore, ...rest } = feature.properties;
      const { image: imageAfter, ...restAfter } = again.properties;
      expect(restAfter).toEqual(rest);
      // The image comes back as a new upload of the KMZ's file (a JPEG of a JPEG: colours within a step).
      if (imageBefore) expect(imageAfter).toMatchObject({ id: map.images[0], w: imageBefore.w, h: imageBefore.h });
    }

    // The plain KML names the image by its address, which an import never fetches.
    const plain = await (await fetch(`${service.url}${path}/download.kml`)).text();
    expect(plain).toContain(`<href>${service.url}/images/${image}/s2048</href>`);
    expect(plain).toContain('xmlns:gx="http://www.google.com/kml/ext/2.2"');
    const image2048 = await fetch(`${service.url}/images/${image}/s2048`);
    expect(image2048.status).toBe(200);
    const plainBack = await service.send('map/upload', key, { file_type: 'kml', visibility: 'public' }, plain);
    expect(plainBack.import.features).toBe(1);
    expect(plainBack.import.skipped.map((item: { reason: string }) => item.reason)).toEqual([
      expect.stringMatching(/^ground overlay "Turned": its image is at an address/),
      expect.stringMatching(/^ground overlay "Old town plan": its image is at an address .* which is never fetched/),
    ]);
  });

  it('has not logged an internal error', () => {
    expect(service.internalErrors).toEqual([]);
  });
});
