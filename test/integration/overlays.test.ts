// Image overlays (issue 27, item 2) through the API: map/update and map/get carry them, their
// image is one of the map's images, and a bad overlay is refused with its reason.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, featureCollection, type TestService } from './harness.js';
import { makeZip } from '../support/zipWriter.js';

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

  it('has not logged an internal error', () => {
    expect(service.internalErrors).toEqual([]);
  });
});
