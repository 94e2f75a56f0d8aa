import zlib from 'node:zlib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../lib/errors.js';
import { boxesFor, pickDerivative } from '../../lib/media/derivatives.js';
import { readExifFacts } from '../../lib/media/exif.js';
import { isMediaId, newImageId, newMarkerId } from '../../lib/media/ids.js';
import { processImage } from '../../lib/media/processImage.js';
import { processMarker } from '../../lib/media/processMarker.js';

// Every test image is made here with sharp, with colours chosen so the expected values are known.

type Rgba = [number, number, number, number];

/** Raw RGBA pixels from a function of (x, y). */
function rawImage(width: number, height: number, color: (x: number, y: number) => Rgba) {
  const data = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) data.set(color(x, y), (y * width + x) * 4);
  }
  return sharp(data, { raw: { width, height, channels: 4 } });
}

const solid = (width: number, height: number, background: string) =>
  sharp({ create: { width, height, channels: 3, background } });

async function expectAppError(promise: Promise<unknown>, code: string): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe(code);
  return error as AppError;
}

/** #rrggbb → [r, g, b]; colours from lossy JPEG are compared with a tolerance. */
const rgb = (hex: string): number[] => [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
function expectColorNear(actual: string, expected: string, tolerance = 3): void {
  expect(actual).toMatch(/^#[0-9a-f]{6}$/);
  const [a, e] = [rgb(actual), rgb(expected)];
  for (let i = 0; i < 3; i += 1) expect(Math.abs((a[i] ?? 0) - (e[i] ?? 0)), `${actual} vs ${expected}`).toBeLessThanOrEqual(tolerance);
}

/** A PNG chunk: length, type, data, CRC. */
function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A valid single-colour 1-bit greyscale PNG of any size, built by hand (sharp would refuse to make it). */
function hugeFlatPng(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([1, 0, 0, 0, 0], 8); // bit depth 1, greyscale, deflate, no filter, no interlace
  // Every row is a filter byte 0 and black pixels: all zero bytes, which deflate to almost nothing.
  const rows = Buffer.alloc(height * (1 + Math.ceil(width / 8)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', zlib.deflateSync(rows, { level: 9 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Applies fn to the data of the first IDAT chunk of a PNG (without fixing its CRC). */
function changeFirstIdat(png: Buffer, fn: (data: Buffer) => void): Buffer {
  const copy = Buffer.from(png);
  for (let offset = 8; offset < copy.length; ) {
    const length = copy.readUInt32BE(offset);
    if (copy.toString('ascii', offset + 4, offset + 8) === 'IDAT') {
      fn(copy.subarray(offset + 8, offset + 8 + length + 4));
      return copy;
    }
    offset += 12 + length;
  }
  throw new Error('no IDAT');
}

describe('processImage', () => {
  it('turns a JPEG upright by EXIF orientation 6, reads GPS and date, and strips all metadata', async () => {
    // Stored 300×200: left half red, right half blue. Orientation 6 shows it turned 90° clockwise,
    // so upright it is 200×300 with red on top and blue below.
    const stored = rawImage(300, 200, (x) => (x < 150 ? [255, 0, 0, 255] : [0, 0, 255, 255]));
    const jpeg = await stored
      .jpeg({ quality: 95 })
      .withExif({
        IFD0: { Make: 'TestCam' },
        IFD2: { DateTimeOriginal: '2024:06:01 14:03:27', OffsetTimeOriginal: '+02:00' },
        IFD3: { GPSLatitudeRef: 'S', GPSLatitude: '33/1 51/1 3600/100', GPSLongitudeRef: 'E', GPSLongitude: '151/1 12/1 3000/100' },
      })
      .withMetadata({ orientation: 6 })
      .toBuffer();
    expect((await sharp(jpeg).metadata()).orientation).toBe(6);

    const image = await processImage(jpeg);
    expect([image.width, image.height]).toEqual([200, 300]);
    expect(image.hasGps).toBe(true);
    expect(image.geometry).toEqual({ type: 'Point', coordinates: [151.2083333, -33.86] });
    expect(image.dateStr).toBe('2024-06-01 14:03');
    expect(image.dateIso).toBe('2024-06-01T14:03:27+02:00');
    expectColorNear(image.tipColor, '#0000ff', 6);

    expect(image.derivatives.map((d) => [d.name, d.width, d.height, d.contentType])).toEqual([
      ['s512', 200, 300, 'image/jpeg'],
      ['s256', 171, 256, 'image/jpeg'],
    ]);
    for (const d of image.derivatives) {
      const meta = await sharp(d.bytes).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', d.width, d.height]);
      expect(meta.exif).toBeUndefined();
      expect(meta.orientation).toBeUndefined();
      expect(d.bytes.includes('TestCam')).toBe(false);
      // Upright pixels: red at the top, blue at the bottom.
      const { data, info } = await sharp(d.bytes).raw().toBuffer({ resolveWithObject: true });
      const at = (x: number, y: number) => [...data.subarray((y * info.width + x) * 3, (y * info.width + x) * 3 + 3)];
      const top = at(Math.floor(d.width / 2), 5);
      const bottom = at(Math.floor(d.width / 2), d.height - 5);
      expect(top[0]).toBeGreaterThan(200);
      expect(top[2]).toBeLessThan(60);
      expect(bottom[2]).toBeGreaterThan(200);
      expect(bottom[0]).toBeLessThan(60);
    }
  });

  it('computes the average colour and the bottom-centre tip colour', async () => {
    // 200×100: the top 80 rows green, the bottom 20 blue → average 80 % green + 20 % blue.
    const png = await rawImage(200, 100, (_x, y) => (y < 80 ? [0, 255, 0, 255] : [0, 0, 255, 255]))
      .png()
      .toBuffer();
    const image = await processImage(png);
    expect([image.width, image.height]).toEqual([200, 100]);
    expect(image.avgColor).toBe('#00cc33');
    expect(image.tipColor).toBe('#0000ff');
    expect(image.hasGps).toBe(false);
    expect(image.geometry).toBeNull();
    expect(image.dateStr).toBeNull();
    expect(image.dateIso).toBeNull();
    // Opaque: stored as JPEG, like a photo (PNG is kept for transparency).
    expect(image.derivatives.map((d) => [d.name, d.width, d.height, d.contentType])).toEqual([['s256', 200, 100, 'image/jpeg']]);
  });

  it('takes the tip from the bottom centre, not the bottom corners', async () => {
    // White image, a black stripe along the bottom middle, red bottom corners.
    const png = await rawImage(100, 100, (x, y) =>
      y >= 90 && x >= 40 && x < 60 ? [0, 0, 0, 255] : y >= 90 ? [255, 0, 0, 255] : [255, 255, 255, 255],
    )
      .png()
      .toBuffer();
    const image = await processImage(png);
    expect(image.tipColor).toBe('#000000');
  });

  it('keeps transparency in PNG derivatives; colours count transparent pixels as white', async () => {
    // 400×300, transparent, with an opaque red square in the middle.
    const png = await rawImage(400, 300, (x, y) =>
      x >= 150 && x < 250 && y >= 100 && y < 200 ? [255, 0, 0, 255] : [0, 0, 0, 0],
    )
      .png()
      .toBuffer();
    const image = await processImage(png);
    expect(image.tipColor).toBe('#ffffff');
    // 10,000 red pixels of 120,000: g and b are 255 × 110/120.
    expectColorNear(image.avgColor, '#ffeaea', 1);
    expect(image.derivatives.map((d) => d.name)).toEqual(['s512', 's256']);
    const largest = image.derivatives[0]!;
    const meta = await sharp(largest.bytes).metadata();
    expect([meta.format, meta.width, meta.height, meta.hasAlpha]).toEqual(['png', 400, 300, true]);
    const { data } = await sharp(largest.bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    expect(data[3]).toBe(0); // top-left corner stays transparent
    expect([...data.subarray((150 * 400 + 200) * 4, (150 * 400 + 200) * 4 + 4)]).toEqual([255, 0, 0, 255]);
  });

  it('makes every box below the original plus the one that holds it, never enlarging', async () => {
    const wide = await processImage(await solid(5000, 100, '#336699').jpeg().toBuffer());
    expect(wide.derivatives.map((d) => [d.name, d.width, d.height])).toEqual([
      ['s2048', 2048, 41],
      ['s1024', 1024, 20],
      ['s512', 512, 10],
      ['s256', 256, 5],
    ]);
    expectColorNear(wide.avgColor, '#336699');
    const tiny = await processImage(await solid(3, 2, '#336699').png().toBuffer());
    expect(tiny.derivatives.map((d) => [d.name, d.width, d.height])).toEqual([['s256', 3, 2]]);
    expect(tiny.avgColor).toBe('#336699');
  });

  it('refuses a 20000×20000 PNG quickly and without decoding it', async () => {
    const png = hugeFlatPng(20_000, 20_000);
    expect(png.length).toBeLessThan(2_000_000);
    const rssBefore = process.memoryUsage().rss;
    const started = Date.now();
    const error = await expectAppError(processImage(png), 'image_too_large');
    expect(error.message).not.toMatch(/vips|sharp/i);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(100 * 1024 * 1024);
  });

  it('refuses truncated and corrupt data as invalid_image', async () => {
    const noise = rawImage(300, 200, (x, y) => [(x * 7) % 256, (y * 13) % 256, (x * y) % 256, 255]);
    const jpeg = await noise.clone().jpeg().toBuffer();
    const png = await noise.clone().png().toBuffer();

    await expectAppError(processImage(jpeg.subarray(0, Math.floor(jpeg.length * 0.6))), 'invalid_image');
    await expectAppError(processImage(jpeg.subarray(0, 100)), 'invalid_image');
    // A stray restart marker in the scan data: libjpeg warns "corrupt JPEG data".
    const middle = Math.floor(jpeg.length / 2);
    const corruptScan = Buffer.concat([jpeg.subarray(0, middle), Buffer.from([0xff, 0xd3]), jpeg.subarray(middle)]);
    await expectAppError(processImage(corruptScan), 'invalid_image');

    await expectAppError(processImage(png.subarray(0, Math.floor(png.length * 0.6))), 'invalid_image');
    const badCrc = changeFirstIdat(png, (chunk) => {
      chunk[chunk.length - 1] = (chunk[chunk.length - 1] ?? 0) ^ 0xff;
    });
    await expectAppError(processImage(badCrc), 'invalid_image');
    // Only the PNG signature: no header at all.
    await expectAppError(processImage(png.subarray(0, 8)), 'invalid_image');
  });

  it('refuses other formats by their bytes, whatever they are called', async () => {
    const gif = await solid(20, 20, '#ff0000').gif().toBuffer();
    const tiff = await solid(20, 20, '#ff0000').tiff().toBuffer();
    const webp = await solid(20, 20, '#ff0000').webp().toBuffer();
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10">' +
        '<image xlink:href="file:///etc/passwd"/></svg>',
    );
    const svgWithXmlDecl = Buffer.concat([Buffer.from('<?xml version="1.0"?>'), svg]);
    for (const bytes of [gif, tiff, webp, svg, svgWithXmlDecl, Buffer.alloc(0), Buffer.from('not an image')]) {
      await expectAppError(processImage(bytes), 'unsupported_file_type');
    }
    // JPEG magic in front of TIFF data: the decoder must still be the JPEG one.
    await expectAppError(processImage(Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), tiff])), 'invalid_image');
  });

  it('stores a JPEG with an appended payload only as re-encoded pixels', async () => {
    const jpeg = await solid(64, 48, '#20a040').jpeg().toBuffer();
    const polyglot = Buffer.concat([jpeg, Buffer.from('PK\u0003\u0004payload<html><script>alert(1)</script>')]);
    const image = await processImage(polyglot);
    expect([image.width, image.height]).toEqual([64, 48]);
    for (const d of image.derivatives) {
      expect(d.bytes.includes('payload')).toBe(false);
      expect(d.bytes.includes('<script>')).toBe(false);
    }
  });
});

describe('readExifFacts', () => {
  const exifOf = async (exif: Record<string, Record<string, string>>) =>
    (await sharp(await solid(8, 8, '#000000').jpeg().withExif(exif).toBuffer()).metadata()).exif;

  it('treats placeholders and receivers without a fix as absent', async () => {
    const facts = readExifFacts(
      await exifOf({
        IFD2: { DateTimeOriginal: '0000:00:00 00:00:00' },
        IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '0/1 0/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '0/1 0/1 0/1' },
      }),
    );
    expect(facts).toEqual({ geometry: null, dateStr: null, dateIso: null });
    const noFix = readExifFacts(
      await exifOf({ IFD3: { GPSStatus: 'V', GPSLatitudeRef: 'N', GPSLatitude: '10/1 0/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '10/1 0/1 0/1' } }),
    );
    expect(noFix.geometry).toBeNull();
  });

  it('reads a date without a zone as local time, and western longitudes as negative', async () => {
    const facts = readExifFacts(
      await exifOf({
        IFD2: { DateTimeOriginal: '2019:12:31 23:59:58' },
        IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '40/1 30/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '73/1 59/1 2400/100' },
      }),
    );
    expect(facts).toEqual({
      geometry: { type: 'Point', coordinates: [-73.99, 40.5] },
      dateStr: '2019-12-31 23:59',
      dateIso: '2019-12-31T23:59:58',
    });
  });

  it('ignores missing and malformed EXIF', () => {
    expect(readExifFacts(undefined)).toEqual({ geometry: null, dateStr: null, dateIso: null });
    expect(readExifFacts(Buffer.from('Exif\0\0garbage'))).toEqual({ geometry: null, dateStr: null, dateIso: null });
  });
});

describe('processMarker', () => {
  it('resizes a PNG icon to fit 128 and 64, keeping aspect and transparency', async () => {
    const png = await rawImage(300, 150, (x) => (x < 150 ? [0, 0, 255, 255] : [0, 0, 0, 0]))
      .png()
      .toBuffer();
    const marker = await processMarker(png, { accepted: ['png'] });
    expect([marker.width, marker.height]).toEqual([300, 150]);
    expect(marker.derivatives.map((d) => [d.name, d.width, d.height, d.contentType])).toEqual([
      ['s128', 128, 64, 'image/png'],
      ['s64', 64, 32, 'image/png'],
    ]);
    for (const d of marker.derivatives) {
      const meta = await sharp(d.bytes).metadata();
      expect([meta.format, meta.hasAlpha]).toEqual(['png', true]);
    }
  });

  it('keeps a small icon at its own size', async () => {
    const png = await solid(32, 32, '#ff8800').png().toBuffer();
    const marker = await processMarker(png);
    expect(marker.derivatives.map((d) => [d.name, d.width, d.height])).toEqual([['s64', 32, 32]]);
  });

  it('takes the first frame of an animated GIF and makes a PNG of it', async () => {
    const red = await solid(40, 40, '#ff0000').png().toBuffer();
    const blue = await solid(40, 40, '#0000ff').png().toBuffer();
    const gif = await sharp([red, blue], { join: { animated: true } }).gif().toBuffer();
    expect((await sharp(gif).metadata()).pages).toBe(2);
    const marker = await processMarker(gif);
    expect([marker.width, marker.height]).toEqual([40, 40]);
    const first = marker.derivatives[0]!;
    expect([first.width, first.height, first.contentType]).toEqual([40, 40, 'image/png']);
    const { data } = await sharp(first.bytes).raw().toBuffer({ resolveWithObject: true });
    expect(data[0]).toBeGreaterThan(200);
    expect(data[2]).toBeLessThan(50);
  });

  it('accepts JPEG icons (KMZ) and refuses what the caller does not accept', async () => {
    const jpeg = await solid(100, 50, '#00ff00').jpeg().toBuffer();
    const marker = await processMarker(jpeg);
    expect(marker.derivatives.map((d) => [d.name, d.width, d.height, d.contentType])).toEqual([
      ['s128', 100, 50, 'image/png'],
      ['s64', 64, 32, 'image/png'],
    ]);
    await expectAppError(processMarker(jpeg, { accepted: ['png'] }), 'unsupported_file_type');
    await expectAppError(processMarker(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')), 'unsupported_file_type');
    await expectAppError(processMarker(hugeFlatPng(6000, 6000)), 'image_too_large');
  });
});

describe('derivative boxes and media ids', () => {
  it('chooses boxes and picks the derivative to serve', () => {
    expect(boxesFor(5000, [2048, 1024, 512, 256])).toEqual([2048, 1024, 512, 256]);
    expect(boxesFor(2048, [2048, 1024, 512, 256])).toEqual([2048, 1024, 512, 256]);
    expect(boxesFor(800, [2048, 1024, 512, 256])).toEqual([1024, 512, 256]);
    expect(boxesFor(256, [2048, 1024, 512, 256])).toEqual([256]);
    expect(boxesFor(1, [128, 64])).toEqual([64]);
    const list = [{ name: 's1024' }, { name: 's512' }, { name: 's256' }];
    expect(pickDerivative(list, 300)?.name).toBe('s512');
    expect(pickDerivative(list, 512)?.name).toBe('s512');
    expect(pickDerivative(list, 2048)?.name).toBe('s1024');
    expect(pickDerivative([], 2048)).toBeUndefined();
  });

  it('makes random 16-character base62 ids', () => {
    const ids = new Set(Array.from({ length: 2000 }, (_, i) => (i % 2 ? newImageId() : newMarkerId())));
    expect(ids.size).toBe(2000);
    for (const id of ids) expect(isMediaId(id)).toBe(true);
    expect(isMediaId('short')).toBe(false);
    expect(isMediaId('abc/def-ghi_jklm')).toBe(false);
  });
});
