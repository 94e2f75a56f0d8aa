import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { openDb, type Db } from '../../db/connection.js';
import { findImages, findMarkers } from '../../db/media.js';
import { migrateToLatest } from '../../db/migrate.js';
import { insertUser } from '../../db/users.js';
import { LocalBlobStore } from '../../lib/blobs/localBlobStore.js';
import { AppError } from '../../lib/errors.js';
import { featureImage, imageUploadAnswer, markerUploadAnswer } from '../../lib/media/fields.js';
import { newImageId, newMarkerId } from '../../lib/media/ids.js';
import { storeImage, storeMarker } from '../../activities/mediaStore.js';

// The real database (PostgreSQL from the global setup, or in-memory PGlite) and a blob
// directory of this file's own; no API or worker is needed to store media.
let db: Db;
let blobDir: string;
let blobs: LocalBlobStore;
let ownerId: number;
let otherOwnerId: number;

const newOwner = async () => {
  const username = `m${randomBytes(5).toString('hex')}`;
  const user = await insertUser(db, { username, email: `${username}@example.com`, passwordHash: 'x', emailVerified: true });
  if ('taken' in user) throw new Error(`${user.taken} taken`);
  return user.id;
};

beforeAll(async () => {
  const databaseUrl = inject('databaseUrl') ?? undefined;
  db = openDb({ databaseUrl, pgliteDir: undefined });
  await migrateToLatest(db); // applies nothing on the already migrated PostgreSQL database
  blobDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mps-media-'));
  blobs = new LocalBlobStore(blobDir);
  ownerId = await newOwner();
  otherOwnerId = await newOwner();
});

afterAll(async () => {
  await db?.destroy();
  if (blobDir) fs.rmSync(blobDir, { recursive: true, force: true });
});

const blobCount = (): number =>
  fs.readdirSync(blobDir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).length;

const photo = () =>
  sharp({ create: { width: 1200, height: 800, channels: 3, background: '#3366cc' } })
    .jpeg()
    .withExif({
      IFD2: { DateTimeOriginal: '2023:08:15 09:30:00' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '52/1 31/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '13/1 24/1 0/1' },
    })
    .toBuffer();

describe('storeImage', () => {
  it('stores the derivatives and a row the repository reads back', async () => {
    const image = await storeImage(db, blobs, ownerId, await photo());
    expect(image).toMatchObject({
      ownerId,
      width: 1200,
      height: 800,
      hasGps: true,
      geometry: { type: 'Point', coordinates: [13.4, 52.5166667] },
      dateStr: '2023-08-15 09:30',
      dateIso: '2023-08-15T09:30:00',
      blobPrefix: 'images',
    });
    expect(image.avgColor).toMatch(/^#[0-9a-f]{6}$/);
    expect(image.derivatives.map((d) => [d.name, d.width, d.height, d.contentType])).toEqual([
      ['s2048', 1200, 800, 'image/jpeg'],
      ['s1024', 1024, 683, 'image/jpeg'],
      ['s512', 512, 341, 'image/jpeg'],
      ['s256', 256, 171, 'image/jpeg'],
    ]);

    const [found] = await findImages(db, [image.id, 'no-such-image']);
    expect(found).toEqual(image);
    for (const d of found!.derivatives) {
      expect(d.key.startsWith('images/')).toBe(true);
      const bytes = await blobs.read(d.key);
      expect(bytes.length).toBe(d.size);
      const meta = await sharp(bytes).metadata();
      expect([meta.format, meta.width, meta.height, meta.exif]).toEqual(['jpeg', d.width, d.height, undefined]);
    }

    expect(featureImage(image)).toEqual({ id: image.id, w: 1200, h: 800, tip_color: image.tipColor, avg_color: image.avgColor });
    expect(imageUploadAnswer(image)).toEqual({
      image_id: image.id,
      width: 1200,
      height: 800,
      tip_color: image.tipColor,
      avg_color: image.avgColor,
      has_gps: true,
      geometry: { type: 'Point', coordinates: [13.4, 52.5166667] },
      date_str: '2023-08-15 09:30',
      date_iso: '2023-08-15T09:30:00',
    });
  });

  it('returns the first row again for a repeated id, writing nothing new', async () => {
    const id = newImageId();
    const bytes = await sharp({ create: { width: 300, height: 300, channels: 4, background: '#00000000' } })
      .png()
      .toBuffer();
    const first = await storeImage(db, blobs, ownerId, bytes, { id });
    expect(first.id).toBe(id);
    expect(first.hasGps).toBe(false);
    expect(first.geometry).toBeNull();
    expect(first.derivatives.map((d) => d.contentType)).toEqual(['image/png', 'image/png']);
    const blobsBefore = blobCount();
    const again = await storeImage(db, blobs, ownerId, bytes, { id });
    expect(again).toEqual(first);
    expect(blobCount()).toBe(blobsBefore);
    // Read lazily, the file is not read at all for media stored already (its upload may be gone).
    const gone = () => Promise.reject(new Error('the upload was removed'));
    expect(await storeImage(db, blobs, ownerId, gone, { id })).toEqual(first);
    await expect(storeImage(db, blobs, ownerId, gone, { id: newImageId() })).rejects.toThrow(/removed/);
    await expect(storeImage(db, blobs, otherOwnerId, bytes, { id })).rejects.toThrow(/another owner/);
  });

  it('finds several images in the order asked, each once', async () => {
    const bytes = await sharp({ create: { width: 20, height: 20, channels: 3, background: '#ffffff' } }).png().toBuffer();
    const a = await storeImage(db, blobs, ownerId, bytes);
    const b = await storeImage(db, blobs, ownerId, bytes);
    expect(a.id).not.toBe(b.id);
    const found = await findImages(db, [b.id, a.id, b.id]);
    expect(found.map((r) => r.id)).toEqual([b.id, a.id]);
    expect(await findImages(db, [])).toEqual([]);
  });

  it('stores nothing for a bad file', async () => {
    const blobsBefore = blobCount();
    const error = await storeImage(db, blobs, ownerId, Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('unsupported_file_type');
    const jpeg = await photo();
    const truncated = await storeImage(db, blobs, ownerId, jpeg.subarray(0, jpeg.length - 200)).catch((e: unknown) => e);
    expect((truncated as AppError).code).toBe('invalid_image');
    expect(blobCount()).toBe(blobsBefore);
  });
});

describe('storeMarker', () => {
  it('stores PNG icons and a row the repository reads back', async () => {
    const png = await sharp({ create: { width: 256, height: 128, channels: 4, background: { r: 255, g: 0, b: 0, alpha: 0.5 } } })
      .png()
      .toBuffer();
    const marker = await storeMarker(db, blobs, ownerId, png, { accepted: ['png'] });
    expect(marker).toMatchObject({ ownerId, width: 256, height: 128, blobPrefix: 'markers' });
    expect(marker.derivatives.map((d) => [d.name, d.width, d.height, d.contentType])).toEqual([
      ['s128', 128, 64, 'image/png'],
      ['s64', 64, 32, 'image/png'],
    ]);
    const [found] = await findMarkers(db, [marker.id]);
    expect(found).toEqual(marker);
    for (const d of marker.derivatives) {
      expect(d.key.startsWith('markers/')).toBe(true);
      const meta = await sharp(await blobs.read(d.key)).metadata();
      expect([meta.format, meta.width, meta.height, meta.hasAlpha]).toEqual(['png', d.width, d.height, true]);
    }
    expect(markerUploadAnswer(marker)).toEqual({ marker_id: marker.id });
  });

  it('stores a GIF icon from a KMZ as PNG, idempotently by id', async () => {
    const gif = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#00ff00' } }).gif().toBuffer();
    const id = newMarkerId();
    const marker = await storeMarker(db, blobs, ownerId, gif, { id });
    expect(marker.derivatives.map((d) => [d.name, d.width, d.height, d.contentType])).toEqual([['s64', 32, 32, 'image/png']]);
    expect(await storeMarker(db, blobs, ownerId, gif, { id })).toEqual(marker);
    expect((await findMarkers(db, [id])).map((m) => m.id)).toEqual([id]);
    await expect(storeMarker(db, blobs, ownerId, gif, { accepted: ['png'] })).rejects.toMatchObject({ code: 'unsupported_file_type' });
  });
});
