// image/upload and marker/upload through the API, with images the tests make (sharp writes
// them, with EXIF orientation, GPS and dates): every answer field, the stored sizes, the
// refusal of a file whose type is not its file_type, Idempotency-Key retries.
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './harness.js';

let service: TestService;
let key: string;
let userId: number;
beforeAll(async () => {
  service = await startTestService();
  ({ key, userId } = await service.newUser());
});
afterAll(() => service.stop());

/** A photo 1200 wide and 800 high as stored (landscape); orientation 6 shows it 800×1200. */
const photo = (orientation?: number) =>
  sharp({ create: { width: 1200, height: 800, channels: 3, background: '#3366cc' } })
    .jpeg({ quality: 95 })
    .withMetadata(orientation ? { orientation } : {})
    .withExif({
      IFD2: { DateTimeOriginal: '2023:08:15 09:30:00', OffsetTimeOriginal: '+02:00' },
      IFD3: { GPSLatitudeRef: 'S', GPSLatitude: '33/1 51/1 36/1', GPSLongitudeRef: 'E', GPSLongitude: '151/1 12/1 36/1' },
    })
    .toBuffer();

/** A 400×300 PNG, blue, with a red band along its bottom edge (the popup's tip colour). */
const bandedPng = (alpha = 255) => {
  const pixels = Buffer.alloc(400 * 300 * 4);
  for (let y = 0; y < 300; y++) {
    for (let x = 0; x < 400; x++) pixels.set(y >= 270 ? [255, 0, 0, alpha] : [0, 0, 255, alpha], (y * 400 + x) * 4);
  }
  return sharp(pixels, { raw: { width: 400, height: 300, channels: 4 } }).png().toBuffer();
};

const stored = (table: 'images' | 'markers', id: string) => service.db(table).where({ id }).first();

describe('image/upload', () => {
  it('answers exactly the spec fields of a photo: upright size, colours, GPS and date', async () => {
    const answer = await service.send('image/upload', key, { file_type: 'jpg' }, await photo(6));
    expect(Object.keys(answer).sort()).toEqual(['avg_color', 'date_iso', 'date_str', 'geometry', 'has_gps', 'height', 'image_id', 'tip_color', 'width']);
    expect(answer).toMatchObject({
      width: 800,
      height: 1200,
      has_gps: true,
      geometry: { type: 'Point', coordinates: [151.21, -33.86] },
      date_str: '2023-08-15 09:30',
      date_iso: '2023-08-15T09:30:00+02:00',
    });
    expect(answer.image_id).toMatch(/^[0-9A-Za-z]{16}$/);
    expect(answer.avg_color).toMatch(/^#[0-9a-f]{6}$/);
    const row = await stored('images', answer.image_id);
    expect(row.derivatives.map((d: { name: string; width: number; height: number }) => [d.name, d.width, d.height])).toEqual([
      ['s2048', 800, 1200],
      ['s1024', 683, 1024],
      ['s512', 341, 512],
      ['s256', 171, 256],
    ]);
  });

  it('takes the tip colour from the bottom centre and the average from the whole; an opaque PNG is stored as JPEG', async () => {
    const answer = await service.send('image/upload', key, { file_type: 'png' }, await bandedPng());
    expect(answer).toMatchObject({ width: 400, height: 300, tip_color: '#ff0000', has_gps: false, geometry: null, date_str: null, date_iso: null });
    // 10% red, 90% blue.
    expect(answer.avg_color).toBe('#1a00e6');
    const row = await stored('images', answer.image_id);
    expect(row.derivatives.map((d: { name: string; contentType: string }) => [d.name, d.contentType])).toEqual([
      ['s512', 'image/jpeg'],
      ['s256', 'image/jpeg'],
    ]);
  });

  it('keeps a PNG with transparency as PNG, its colours seen over white', async () => {
    const answer = await service.send('image/upload', key, { file_type: 'png' }, await bandedPng(128));
    expect(answer.tip_color).toBe('#ff7f7f');
    const row = await stored('images', answer.image_id);
    expect(new Set(row.derivatives.map((d: { contentType: string }) => d.contentType))).toEqual(new Set(['image/png']));
  });

  it('refuses a file whose type is not its file_type, naming both, and stores nothing', async () => {
    // This account's images only: other test files upload images at the same time.
    const count = async () => (await service.db('images').where({ owner_id: userId }).count('* as n').first())!.n;
    const before = await count();
    const jpegAsPng = await service.send('image/upload', key, { file_type: 'png' }, await photo());
    expect(jpegAsPng).toMatchObject({ error_code: 'unsupported_file_type' });
    expect(jpegAsPng.error).toMatch(/JPEG.*"png"/);
    const pngAsJpg = await service.send('image/upload', key, { file_type: 'jpg' }, await bandedPng());
    expect(pngAsJpg.error).toMatch(/PNG.*"jpg"/);
    expect((await service.send('image/upload', key, { file_type: 'gif' }, await bandedPng())).error_code).toBe('invalid_arguments');
    expect(await count()).toBe(before);
  });

  it('gives a retry under the same Idempotency-Key the same image, stored once', async () => {
    const file = await photo();
    const headers = { 'idempotency-key': `photo-${Date.now()}` };
    const first = await service.send('image/upload', key, { file_type: 'jpg' }, file, headers);
    const again = await service.send('image/upload', key, { file_type: 'jpg' }, file, headers);
    expect(again).toEqual(first);
    const other = await service.send('image/upload', key, { file_type: 'jpg' }, await bandedPng(), headers);
    expect(other.error_code).toBe('idempotency_key_reused');
  });

  it('leaves no request file behind', async () => {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const uploads = path.join(service.blobDir, 'uploads');
    expect(fs.existsSync(uploads) ? fs.readdirSync(uploads, { recursive: true }).filter((f) => !String(f).endsWith('/')) : []).toEqual([]);
  });
});

describe('marker/upload', () => {
  it('stores a PNG icon at 128 and 64, aspect ratio and transparency kept', async () => {
    const icon = await sharp({ create: { width: 300, height: 150, channels: 4, background: { r: 10, g: 120, b: 10, alpha: 0.5 } } }).png().toBuffer();
    const answer = await service.send('marker/upload', key, { file_type: 'png' }, icon);
    expect(Object.keys(answer)).toEqual(['marker_id']);
    const row = await stored('markers', answer.marker_id);
    expect(row.derivatives.map((d: { name: string; width: number; height: number; contentType: string }) => [d.name, d.width, d.height, d.contentType])).toEqual([
      ['s128', 128, 64, 'image/png'],
      ['s64', 64, 32, 'image/png'],
    ]);
  });

  it('refuses a JPEG and a 10000×10 strip', async () => {
    const jpeg = await service.send('marker/upload', key, { file_type: 'png' }, await photo());
    expect(jpeg).toMatchObject({ error_code: 'unsupported_file_type' });
    expect(jpeg.error).toMatch(/JPEG/);
    expect((await service.send('marker/upload', key, { file_type: 'jpg' }, await photo())).error_code).toBe('invalid_arguments');
    const strip = await sharp({ create: { width: 10000, height: 10, channels: 4, background: '#000000' } }).png().toBuffer();
    const answer = await service.send('marker/upload', key, { file_type: 'png' }, strip);
    expect(answer).toMatchObject({ error_code: 'invalid_image' });
    expect(answer.error).toMatch(/10000×10/);
  });
});
