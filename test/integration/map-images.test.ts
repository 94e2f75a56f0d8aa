// A map's static image and thumbnail at its address: who may fetch them, revalidation, the
// placeholder until a first image exists, and the stored files once the renderer wrote them.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalBlobStore } from '../../lib/blobs/localBlobStore.js';
import { startTestService, type TestService } from './harness.js';

let service: TestService;
let owner: { key: string; username: string; userId: number };
beforeAll(async () => {
  // No renderer: the images here are the placeholder and files the test writes itself.
  service = await startTestService({ renderWorker: false });
  owner = await service.newUser();
});
afterAll(() => service.stop());

const newMap = async (visibility: string, shortName: string) => {
  const answer = await service.send('map/upload', owner.key, { file_type: 'empty', visibility, short_name: shortName });
  return { id: answer.id as number, path: new URL(answer.url as string).pathname };
};
const get = (path: string, key?: string, init: RequestInit = {}) =>
  fetch(`${service.url}${path}`, { ...init, headers: { ...(key ? { authorization: `Token ${key}` } : {}), ...(init.headers ?? {}) } });

describe('map images', () => {
  it('serves a placeholder of each size until the first image exists, revalidated by ETag', async () => {
    const { path } = await newMap('public', 'placeholder');
    for (const [name, width, height] of [['static', 1200, 630], ['thumbnail', 400, 300]] as const) {
      const response = await get(`${path}/${name}.png`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/png');
      expect(response.headers.get('cache-control')).toBe('public, no-cache');
      const meta = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
      expect([meta.width, meta.height]).toEqual([width, height]);
      const etag = response.headers.get('etag')!;
      expect((await get(`${path}/${name}.png`, undefined, { headers: { 'if-none-match': etag } })).status).toBe(304);
      const head = await get(`${path}/${name}.png`, undefined, { method: 'HEAD' });
      expect([head.status, head.headers.get('content-length'), (await head.arrayBuffer()).byteLength]).toEqual([200, response.headers.get('content-length'), 0]);
    }
    // The owner's name in another case finds the same map.
    expect((await get(path.toUpperCase().replace('/PLACEHOLDER', '/placeholder') + '/static.png')).status).toBe(200);
  });

  it('serves the stored image once the renderer wrote it, under a new ETag', async () => {
    const { id, path } = await newMap('unlisted', 'rendered');
    const before = (await get(`${path}/static.png`)).headers.get('etag')!;
    const blobs = new LocalBlobStore(service.blobDir);
    const rendered = await sharp({ create: { width: 1200, height: 630, channels: 3, background: '#336699' } }).png().toBuffer();
    const thumb = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#336699' } }).png().toBuffer();
    const [big, small] = [await blobs.putBuffer('map-images', rendered), await blobs.putBuffer('map-images', thumb)];
    await service.db('maps').where({ id }).update({
      image_files: JSON.stringify({
        static: { key: big.key, size: big.size, width: 1200, height: 630 },
        thumbnail: { key: small.key, size: small.size, width: 400, height: 300 },
        renderedAt: new Date().toISOString(),
      }),
    });
    const response = await get(`${path}/static.png`, undefined, { headers: { 'if-none-match': before } });
    expect(response.status).toBe(200);
    expect(response.headers.get('etag')).not.toBe(before);
    expect(Buffer.from(await response.arrayBuffer()).equals(rendered)).toBe(true);
    expect(Buffer.from(await (await get(`${path}/thumbnail.png`)).arrayBuffer()).equals(thumb)).toBe(true);
  });

  it('answers 404 to whoever may not see the map, as for a map that does not exist', async () => {
    const stranger = await service.newUser();
    const viewer = await service.newUser();
    const { id, path } = await newMap('private', 'secret');
    for (const key of [undefined, stranger.key, 'nonsense']) {
      const response = await get(`${path}/static.png`, key);
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ error_code: 'map_not_found' });
    }
    const mine = await get(`${path}/static.png`, owner.key);
    expect([mine.status, mine.headers.get('cache-control'), mine.headers.get('vary')]).toEqual([200, 'private, no-cache', 'Authorization']);
    await service.db('map_members').insert({ map_id: id, user_id: viewer.userId, role: 'viewer' });
    await service.db('maps').where({ id }).update({ visibility: 'select' });
    expect((await get(`${path}/thumbnail.png`, viewer.key)).status).toBe(200);
    expect((await get(`${path}/thumbnail.png`, stranger.key)).status).toBe(404);
    expect((await get(`/${owner.username}/no-such-map/static.png`, owner.key)).status).toBe(404);
  });
});
