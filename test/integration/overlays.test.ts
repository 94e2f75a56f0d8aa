// Image overlays (issue 27, item 2) through the API: map/update and map/get carry them, their
// image is one of the map's images, and a bad overlay is refused with its reason.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, featureCollection, type TestService } from './harness.js';

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

  it('has not logged an internal error', () => {
    expect(service.internalErrors).toEqual([]);
  });
});
