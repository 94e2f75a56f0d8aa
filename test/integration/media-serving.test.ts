// The stored sizes of images and markers served at /images/… and /markers/…, who may fetch them,
// and the rules that link maps to media: a map uses only media of its owner and editors, map/get
// lists what it uses, map/update completes an image named by id alone.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './harness.js';

let service: TestService;
let owner: { key: string; userId: number };
let stranger: { key: string; userId: number };
beforeAll(async () => {
  service = await startTestService();
  owner = await service.newUser();
  stranger = await service.newUser();
});
afterAll(() => service.stop());

const photo = () =>
  sharp({ create: { width: 640, height: 480, channels: 3, background: '#208040' } })
    .jpeg()
    .withExif({ IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '2/1 21/1 0/1' } })
    .toBuffer();
const icon = () => sharp({ create: { width: 90, height: 90, channels: 4, background: { r: 200, g: 0, b: 0, alpha: 0.6 } } }).png().toBuffer();

const uploadImage = async (key: string) => (await service.send('image/upload', key, { file_type: 'jpg' }, await photo())).image_id as string;
const uploadMarker = async (key: string) => (await service.send('marker/upload', key, { file_type: 'png' }, await icon())).marker_id as string;

const fetchFile = (urlPath: string, key?: string, init: RequestInit = {}) =>
  fetch(`${service.url}${urlPath}`, { ...init, headers: { ...(key ? { authorization: `Token ${key}` } : {}), ...(init.headers ?? {}) } });

const newMap = async (key: string, visibility = 'private') =>
  (await service.send('map/upload', key, { file_type: 'empty', visibility })).id as number;

/** How long a shared cache (a CDN, a proxy) may answer with its copy before asking the service again (RFC 9111). */
function sharedCacheSeconds(cacheControl: string | null): number {
  const directives = new Map((cacheControl ?? '').split(',').map((part) => part.trim().toLowerCase().split('=') as [string, string | undefined]));
  if (['private', 'no-store', 'no-cache'].some((name) => directives.has(name))) return 0;
  return Number(directives.get('s-maxage') ?? directives.get('max-age') ?? 0);
}

const pointWith = (properties: Record<string, unknown>) => ({
  type: 'FeatureCollection',
  features: [{ type: 'Feature', geometry: { type: 'Point', coordinates: [2.35, 48.85] }, properties }],
});

describe('serving', () => {
  it('serves every stored size to the uploader, cached as immutable, without metadata', async () => {
    const id = await uploadImage(owner.key);
    for (const [name, width, height] of [['s1024', 640, 480], ['s512', 512, 384], ['s256', 256, 192]] as const) {
      const response = await fetchFile(`/images/${id}/${name}.jpg`, owner.key);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/jpeg');
      expect(response.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
      expect(response.headers.get('etag')).toMatch(/^"[^"]+"$/);
      const bytes = Buffer.from(await response.arrayBuffer());
      expect(Number(response.headers.get('content-length'))).toBe(bytes.length);
      const meta = await sharp(bytes).metadata();
      expect([meta.width, meta.height, meta.exif, meta.xmp, meta.icc === undefined || meta.icc.length > 0]).toEqual([width, height, undefined, undefined, true]);
    }
    // A box larger than the original answers the largest stored size; no extension is fine too.
    expect((await sharp(Buffer.from(await (await fetchFile(`/images/${id}/s2048`, owner.key)).arrayBuffer())).metadata()).width).toBe(640);
  });

  it('answers 304 to a matching If-None-Match and HEAD with the headers alone', async () => {
    const id = await uploadImage(owner.key);
    const first = await fetchFile(`/images/${id}/s256.jpg`, owner.key);
    const etag = first.headers.get('etag')!;
    const again = await fetchFile(`/images/${id}/s256.jpg`, owner.key, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
    const head = await fetchFile(`/images/${id}/s256.jpg`, owner.key, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(first.headers.get('content-length'));
    expect(head.headers.get('content-type')).toBe('image/jpeg');
    expect((await head.arrayBuffer()).byteLength).toBe(0);
  });

  it('answers 404 to anyone else, as for an id that does not exist, a wrong size or extension', async () => {
    const id = await uploadImage(owner.key);
    const marker = await uploadMarker(owner.key);
    for (const [path, key] of [
      [`/images/${id}/s256.jpg`, undefined],
      [`/images/${id}/s256.jpg`, stranger.key],
      [`/images/${id}/s256.jpg`, 'Token nonsense'],
      [`/markers/${marker}/s64.png`, stranger.key],
      [`/images/AAAAAAAAAAAAAAAA/s256.jpg`, owner.key],
      [`/images/${id}/s256.png`, owner.key],
      [`/images/${id}/original.jpg`, owner.key],
      [`/images/${marker}/s64.png`, owner.key],
    ] as const) {
      const response = await fetchFile(path, key);
      expect(response.status, `${path} ${key}`).toBe(404);
      expect(await response.json()).toMatchObject({ error_code: 'media_not_found' });
    }
    expect((await fetchFile(`/markers/${marker}/s64.png`, owner.key)).status).toBe(200);
  });

  it('serves media to everyone who may see a map that uses it', async () => {
    const image = await uploadImage(owner.key);
    const marker = await uploadMarker(owner.key);
    const viewer = await service.newUser();
    const editor = await service.newUser();
    const mapId = await newMap(owner.key, 'private');
    expect((await service.call('map/update', owner.key, { map_id: mapId, geojson: pointWith({ image: { id: image }, marker_id: marker }) })).error).toBeUndefined();
    const status = async (key?: string) => [(await fetchFile(`/images/${image}/s256.jpg`, key)).status, (await fetchFile(`/markers/${marker}/s64.png`, key)).status];
    expect(await status()).toEqual([404, 404]);
    expect(await status(viewer.key)).toEqual([404, 404]);
    // A viewer of a map shared with selected people, an editor of a collaborative map.
    await service.db('map_members').insert([
      { map_id: mapId, user_id: viewer.userId, role: 'viewer' },
      { map_id: mapId, user_id: editor.userId, role: 'editor' },
    ]);
    await service.db('maps').where({ id: mapId }).update({ visibility: 'select', collaborate: true });
    expect(await status(viewer.key)).toEqual([200, 200]);
    expect(await status(editor.key)).toEqual([200, 200]);
    expect(await status(stranger.key)).toEqual([404, 404]);
    // Public (or unlisted): everyone, and shared caches may keep it (asking again each time: below).
    await service.call('map/update', owner.key, { map_id: mapId, visibility: 'unlisted' });
    expect(await status()).toEqual([200, 200]);
    expect((await fetchFile(`/images/${image}/s256.jpg`)).headers.get('cache-control')).toBe('public, max-age=31536000, s-maxage=0, immutable');
  });

  it("lets shared caches keep a public map's photo and marker only while they ask again, so making the map private takes effect at once", async () => {
    const image = await uploadImage(owner.key);
    const marker = await uploadMarker(owner.key);
    const mapId = await newMap(owner.key, 'public');
    expect((await service.call('map/update', owner.key, { map_id: mapId, geojson: pointWith({ image: { id: image }, marker_id: marker }) })).error).toBeUndefined();
    const etags = new Map<string, string>();
    for (const path of [`/images/${image}/s256.jpg`, `/markers/${marker}/s64.png`]) {
      const response = await fetchFile(path);
      expect(response.status).toBe(200);
      const cacheControl = response.headers.get('cache-control');
      expect(cacheControl).toMatch(/^public, /);
      expect(cacheControl).toContain('max-age=31536000'); // a browser keeps it for a year
      expect(sharedCacheSeconds(cacheControl), cacheControl!).toBe(0); // a CDN or proxy asks the service each time
      etags.set(path, response.headers.get('etag')!);
      // Asking again costs a 304 while the map is public.
      expect((await fetchFile(path, undefined, { headers: { 'if-none-match': etags.get(path)! } })).status).toBe(304);
    }
    await service.call('map/update', owner.key, { map_id: mapId, visibility: 'private' });
    for (const [path, etag] of etags) {
      // What a shared cache asking again hears: it is gone.
      expect((await fetchFile(path, undefined, { headers: { 'if-none-match': etag } })).status).toBe(404);
      const own = await fetchFile(path, owner.key);
      expect([own.status, own.headers.get('cache-control')]).toEqual([200, 'private, max-age=31536000, immutable']);
    }
  });
});

describe('linking', () => {
  it('fills an image named by its id alone from the stored image and lists the media in map/get', async () => {
    const answer = await service.send('image/upload', owner.key, { file_type: 'jpg' }, await photo());
    const marker = await uploadMarker(owner.key);
    const mapId = await newMap(owner.key);
    expect((await service.call('map/update', owner.key, { map_id: mapId, geojson: pointWith({ image: { id: answer.image_id }, marker_id: marker }) })).error).toBeUndefined();
    const map = await service.call('map/get', owner.key, { map_id: mapId });
    expect(map.geojson.features[0].properties.image).toEqual({ id: answer.image_id, w: 640, h: 480, tip_color: answer.tip_color, avg_color: answer.avg_color });
    expect([map.images, map.markers]).toEqual([[answer.image_id], [marker]]);
  });

  it('refuses media of someone who is neither the owner nor an editor, on every write, naming the id', async () => {
    const foreignImage = await uploadImage(stranger.key);
    const foreignMarker = await uploadMarker(stranger.key);
    const mapId = await newMap(owner.key);
    const full = { id: foreignImage, w: 640, h: 480, tip_color: '#208040', avg_color: '#208040' };
    const writes = [
      () => service.call('map/update', owner.key, { map_id: mapId, geojson: pointWith({ image: { id: foreignImage } }) }),
      () => service.call('map/update', owner.key, { map_id: mapId, geojson: pointWith({ image: full }) }),
      () => service.call('map/update', owner.key, { map_id: mapId, geojson: pointWith({ marker_id: foreignMarker }) }),
      () => service.call('map/update', owner.key, { map_id: mapId, geojson: pointWith({ marker_id: 'NoSuchMarker0000' }) }),
      () => service.send('map/upload', owner.key, { file_type: 'geojson', visibility: 'public' }, JSON.stringify(pointWith({ image: full }))),
      () => service.send('map/append', owner.key, { map_id: mapId, file_type: 'geojson' }, JSON.stringify(pointWith({ marker_id: foreignMarker }))),
    ];
    for (const write of writes) {
      const answer = await write();
      expect(answer.error_code).toBe('invalid_geojson');
      expect(answer.error).toMatch(new RegExp(`"(${foreignImage}|${foreignMarker}|NoSuchMarker0000)"`));
    }
    const map = await service.call('map/get', owner.key, { map_id: mapId });
    expect([map.geojson.features, map.images, map.markers]).toEqual([[], [], []]);
  });

  it('runs the sample client of the interface: four photos and a PNG icon, then a map that uses them', async () => {
    const photos = await Promise.all(
      [0, 1, 2, 3].map(async (i) => {
        const file = await sharp({ create: { width: 400 + i * 100, height: 300, channels: 3, background: { r: 40 * i, g: 90, b: 160 } } })
          .jpeg()
          .withExif({ IFD3: { GPSLatitudeRef: 'N', GPSLatitude: `48/1 ${50 + i}/1 0/1`, GPSLongitudeRef: 'E', GPSLongitude: '2/1 20/1 0/1' } })
          .toBuffer();
        return service.send('image/upload', owner.key, { file_type: 'jpg' }, file);
      }),
    );
    const { marker_id } = await service.send('marker/upload', owner.key, { file_type: 'png' }, await icon());
    const features = photos.map((photo) => ({
      type: 'Feature',
      geometry: photo.geometry,
      properties: { title: `Photo ${photo.image_id}`, marker_id, image: { id: photo.image_id, w: photo.width, h: photo.height, tip_color: photo.tip_color, avg_color: photo.avg_color } },
    }));
    const created = await service.send('map/upload', owner.key, { file_type: 'geojson', visibility: 'public', title: 'Photos' }, JSON.stringify({ type: 'FeatureCollection', features }));
    expect(created.error).toBeUndefined();
    const map = await service.call('map/get', owner.key, { map_id: created.id });
    expect(map.images).toEqual(photos.map((photo) => photo.image_id).sort());
    expect(map.markers).toEqual([marker_id]);
    expect(map.geojson.features.map((f: { geometry: { coordinates: number[] } }) => f.geometry.coordinates[1])).toEqual([48.8333333, 48.85, 48.8666667, 48.8833333]);
    // A public map: anyone may fetch what it shows.
    for (const photo of photos) expect((await fetchFile(`/images/${photo.image_id}/s256.jpg`)).status).toBe(200);
    expect((await fetchFile(`/markers/${marker_id}/s64.png`)).status).toBe(200);
  });

  it("lets an editor's media into the map", async () => {
    const editor = await service.newUser();
    const mapId = await newMap(owner.key);
    await service.db('map_members').insert({ map_id: mapId, user_id: editor.userId, role: 'editor' });
    await service.db('maps').where({ id: mapId }).update({ collaborate: true });
    const image = await uploadImage(editor.key);
    expect((await service.call('map/update', owner.key, { map_id: mapId, geojson: pointWith({ image: { id: image } }) })).error).toBeUndefined();
    const appended = await service.send('map/append', editor.key, { map_id: mapId, file_type: 'geojson' }, JSON.stringify(pointWith({ image: { id: image } })));
    expect(appended.error).toBeUndefined();
    const map = await service.call('map/get', owner.key, { map_id: mapId });
    expect(map.geojson.features.map((f: { properties: { image: { w: number } } }) => f.properties.image.w)).toEqual([640, 640]);
    expect((await fetchFile(`/images/${image}/s256.jpg`, owner.key)).status).toBe(200);
  });
});
