// A map's static image and thumbnail on a service with a street archive (BASEMAP_TILES): the
// render activity reads the tiles the images' views need from the archive and its render thread
// draws them (lib/render/streetMap.ts) — buildings, roads — under the map's points, on whichever
// built-in basemap the map has. (The drawing itself: test/unit/render-streets.test.ts.)
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../lib/config.js';
import { STREET_PALETTES } from '../../lib/streetStyle/palettes.js';
import { streetFixture } from '../support/streetArchives.js';
import { startTestService, type TestService } from './harness.js';

let service: TestService;

beforeAll(async () => {
  const { basemapTiles } = loadConfig({ BASEMAP_TILES: streetFixture() });
  service = await startTestService({ config: { basemapTiles } });
}, 180_000);
afterAll(async () => service?.stop());

const cafes = JSON.stringify({
  type: 'FeatureCollection',
  features: Array.from({ length: 6 }, (_, i) => ({ type: 'Feature', geometry: { type: 'Point', coordinates: [24.945 + (i % 3) * 0.004, 60.17 + Math.floor(i / 3) * 0.002] }, properties: { title: `Café ${i + 1}` } })),
});

/** The share of the image's pixels in exactly this colour. */
async function share(png: Buffer, colour: string): Promise<number> {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(colour.slice(i, i + 2), 16));
  let n = 0;
  for (let i = 0; i < data.length; i += info.channels) if (Math.abs(data[i]! - r!) + Math.abs(data[i + 1]! - g!) + Math.abs(data[i + 2]! - b!) < 6) n++;
  return n / (info.width * info.height);
}

/** The map's images once they are rendered (after `after`, an earlier render's time). */
async function imagesOf(mapId: number, path: string, after = ''): Promise<{ static: Buffer; thumbnail: Buffer }> {
  const deadline = Date.now() + 60_000;
  const renderedAt = async () => {
    const files = (await service.db('maps').where({ id: mapId }).first('image_files')).image_files;
    return files === null ? '' : ((typeof files === 'string' ? JSON.parse(files) : files) as { renderedAt: string }).renderedAt;
  };
  while ((await renderedAt()) <= after) {
    if (Date.now() > deadline) throw new Error('the map got no new image');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const get = async (file: string) => Buffer.from(await (await fetch(`${service.url}${path}/${file}`)).arrayBuffer());
  return { static: await get('static.png'), thumbnail: await get('thumbnail.png') };
}

describe('a map image on a service with a street archive', () => {
  it("shows the streets under the map's points, on the map's basemap", async () => {
    const owner = await service.newUser();
    const answer = await service.send('map/upload', owner.key, { file_type: 'geojson', visibility: 'public' }, cafes);
    expect(answer.error).toBeUndefined();
    const [mapId, path] = [answer.id as number, new URL(answer.url as string).pathname];
    const classic = await imagesOf(mapId, path);
    for (const png of [classic.static, classic.thumbnail]) expect(await share(png, STREET_PALETTES.classic.building)).toBeGreaterThan(0.05);
    // On the dark basemap after a refresh: the dark palette's streets.
    const before = (await service.db('maps').where({ id: mapId }).first('image_files')).image_files;
    const firstRender = ((typeof before === 'string' ? JSON.parse(before) : before) as { renderedAt: string }).renderedAt;
    expect((await service.call('map/update', owner.key, { map_id: mapId, basemap: 'dark' })).error).toBeUndefined();
    expect((await service.call('map/refresh_image', owner.key, { map_id: mapId })).error).toBeUndefined();
    const dark = await imagesOf(mapId, path, firstRender);
    for (const png of [dark.static, dark.thumbnail]) {
      expect(await share(png, STREET_PALETTES.dark.building)).toBeGreaterThan(0.05);
      expect(await share(png, STREET_PALETTES.classic.building)).toBe(0);
    }
  });
});
