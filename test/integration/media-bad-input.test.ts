// image/upload and marker/upload against hostile and broken files, all made here (sharp, Buffer
// edits, hand-built bytes): decompression bombs, animations, truncated and corrupt files, other
// formats under a jpg/png file_type, polyglots, bad bodies. Every refusal answers a code and a
// plain message and stores nothing; an accepted polyglot keeps neither its payload nor its EXIF;
// memory stays bounded while the bombs are refused.
import fs from 'node:fs';
import path from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeZip } from '../support/zipWriter.js';
import { startTestService, type TestService } from './harness.js';

let service: TestService;
let key: string;
let userId: number;
beforeAll(async () => {
  service = await startTestService();
  ({ key, userId } = await service.newUser());
});
afterAll(() => service.stop());

// ---- Files made by hand ----

/** One PNG chunk: length, type, data, CRC (a wrong CRC on request). */
function pngChunk(type: string, data: Uint8Array = Buffer.alloc(0), { badCrc = false } = {}): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE((crc32(Buffer.concat([head.subarray(4), data])) ^ (badCrc ? 0xffffffff : 0)) >>> 0);
  return Buffer.concat([head, data, crc]);
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function ihdr(width: number, height: number, bitDepth: number, colourType: number): Buffer {
  const data = Buffer.alloc(13);
  data.writeUInt32BE(width, 0);
  data.writeUInt32BE(height, 4);
  data[8] = bitDepth;
  data[9] = colourType;
  return pngChunk('IHDR', data);
}

const u32 = (...values: number[]) => {
  const bytes = Buffer.alloc(values.length * 4);
  values.forEach((value, i) => bytes.writeUInt32BE(value, i * 4));
  return bytes;
};

/**
 * A width × height PNG of one colour: 1 bit per pixel over a one-entry palette, so 20000×20000
 * pixels (1.2 GB as RGB) are 50 MB of zero rows that deflate to about 50 kB.
 */
function paletteBomb(width: number, height = width): Buffer {
  const rows = Buffer.alloc((1 + Math.ceil(width / 8)) * height);
  return Buffer.concat([
    PNG_SIGNATURE,
    ihdr(width, height, 1, 3),
    pngChunk('PLTE', Buffer.from([0x33, 0x66, 0xcc])),
    pngChunk('IDAT', deflateSync(rows, { level: 9 })),
    pngChunk('IEND'),
  ]);
}

/** An APNG of `frames` 64×64 RGB frames (acTL, fcTL + IDAT, then fcTL + fdAT per frame); sharp cannot write one. */
function apng(frames: number): Buffer {
  const size = 64;
  const frameData = (frame: number) => {
    const row = Buffer.alloc(1 + size * 3);
    for (let x = 0; x < size; x++) row.set([frame * 80, 255 - frame * 80, 0], 1 + x * 3);
    return deflateSync(Buffer.concat(Array.from({ length: size }, () => row)));
  };
  // sequence, width, height, x, y; delay 1/10 s; dispose none, blend source
  const fcTL = (sequence: number) => pngChunk('fcTL', Buffer.concat([u32(sequence, size, size, 0, 0), Buffer.from([0, 1, 0, 10, 0, 0])]));
  const parts = [PNG_SIGNATURE, ihdr(size, size, 8, 2), pngChunk('acTL', u32(frames, 0)), fcTL(0), pngChunk('IDAT', frameData(0))];
  let sequence = 1;
  for (let frame = 1; frame < frames; frame++) {
    parts.push(fcTL(sequence++));
    parts.push(pngChunk('fdAT', Buffer.concat([u32(sequence++), frameData(frame)])));
  }
  parts.push(pngChunk('IEND'));
  return Buffer.concat(parts);
}

/** A 2×2 24-bit BMP. */
function bmp(): Buffer {
  const pixels = Buffer.alloc(16, 0x80); // two rows of 6 bytes, each padded to 8
  const header = Buffer.alloc(54);
  header.write('BM', 0, 'latin1');
  header.writeUInt32LE(54 + pixels.length, 2);
  header.writeUInt32LE(54, 10);
  header.writeUInt32LE(40, 14);
  header.writeInt32LE(2, 18);
  header.writeInt32LE(2, 22);
  header.writeUInt16LE(1, 26);
  header.writeUInt16LE(24, 28);
  header.writeUInt32LE(pixels.length, 34);
  return Buffer.concat([header, pixels]);
}

/** The start of a HEIC file: an ftyp box of brand heic, then a meta box that goes nowhere. */
const heic = () =>
  Buffer.concat([u32(24), Buffer.from('ftypheic', 'latin1'), u32(0), Buffer.from('mif1heic', 'latin1'), u32(16), Buffer.from('meta', 'latin1'), Buffer.alloc(8)]);

const pdf = () =>
  Buffer.from(
    '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\n' +
      'trailer << /Root 1 0 R >>\n%%EOF\n',
    'latin1',
  );

/** The nested-<use> bomb ("billion laughs" in SVG): ten levels of ten uses, 10^10 rectangles. */
function svgUseBomb(): string {
  const levels = ['<g id="l0"><rect width="10" height="10" fill="red"/></g>'];
  for (let level = 1; level <= 10; level++) {
    levels.push(`<g id="l${level}">${Array.from({ length: 10 }, () => `<use xlink:href="#l${level - 1}"/>`).join('')}</g>`);
  }
  return (
    '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="20000" height="20000">' +
    `<defs>${levels.join('')}</defs><use xlink:href="#l10"/></svg>`
  );
}

/** The classic entity bomb as an SVG, with an XML declaration and a byte order mark in front. */
const svgEntityBomb = () =>
  '\uFEFF<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">' +
  '<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">]>\n' +
  '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><text>&d;&d;&d;&d;</text></svg>';

// ---- Files made by sharp ----

/** An 800×600 JPEG with detail everywhere, so its scan data is large and every byte of it matters. */
const detailedPixels = () => {
  const width = 800;
  const height = 600;
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 7919 + (i >> 5) * 31) & 255;
  return sharp(pixels, { raw: { width, height, channels: 3 } });
};
const detailedJpeg = (progressive = false) => detailedPixels().jpeg({ quality: 90, progressive }).toBuffer();
const detailedPng = () => detailedPixels().png().toBuffer();

const still = (format: 'gif' | 'webp' | 'tiff' | 'avif') => {
  const image = sharp({ create: { width: 64, height: 48, channels: 3, background: '#3366cc' } });
  return (format === 'avif' ? image.avif() : format === 'gif' ? image.gif() : format === 'webp' ? image.webp() : image.tiff()).toBuffer();
};

/** A GIF of three 32×32 frames, looping. */
async function animatedGif(): Promise<Buffer> {
  const frames = await Promise.all(
    ['#ff0000', '#00ff00', '#0000ff'].map((colour) => sharp({ create: { width: 32, height: 32, channels: 3, background: colour } }).png().toBuffer()),
  );
  return sharp(frames, { join: { animated: true } }).gif({ loop: 0, delay: [100, 100, 100] }).toBuffer();
}

// ---- What is stored ----

/** This test's user's rows (other test files store media in the same database at the same time). */
const rowCount = async (table: 'images' | 'markers') => Number((await service.db(table).where({ owner_id: userId }).count('* as n').first())!.n);

/** Every file under the blob store's images/ and markers/ prefixes (finished or partial). */
function mediaFiles(): string[] {
  return ['images', 'markers'].flatMap((prefix) => {
    const dir = path.join(service.blobDir, prefix);
    return fs.existsSync(dir) ? fs.readdirSync(dir).map((name) => `${prefix}/${name}`) : [];
  });
}

const requestFiles = () => {
  const dir = path.join(service.blobDir, 'uploads');
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
};

/** A message for a person: a sentence, and nothing of a library, a stack or a path. */
function expectPlainMessage(message: unknown): void {
  expect(typeof message).toBe('string');
  expect((message as string).length).toBeGreaterThan(25);
  expect(message).toMatch(/\.$/);
  expect(message).not.toMatch(/vips|sharp|spng|libpng|libjpeg|VipsForeign|Error:|\bat \S+:\d+|\/tmp\/|\/work\//i);
}

type Op = 'image/upload' | 'marker/upload';

/** Sends the file and checks the refusal: the code, a plain message (matching `message`), and nothing stored. */
async function expectRefused(op: Op, fileType: 'jpg' | 'png', file: Uint8Array, code: string, message?: RegExp): Promise<string> {
  const before = { images: await rowCount('images'), markers: await rowCount('markers'), files: mediaFiles() };
  const answer = await service.send(op, key, { file_type: fileType }, file);
  expect(Object.keys(answer).sort(), `${op} ${fileType}: ${JSON.stringify(answer)}`).toEqual(['error', 'error_code']);
  expect(answer.error_code, answer.error).toBe(code);
  expectPlainMessage(answer.error);
  if (message) expect(answer.error).toMatch(message);
  expect({ images: await rowCount('images'), markers: await rowCount('markers'), files: mediaFiles() }).toEqual(before);
  return answer.error as string;
}

const MB = 1024 * 1024;
const rss = () => process.memoryUsage().rss;

describe('decompression bombs, with memory bounded', () => {
  let bomb: Buffer;
  let strip: Buffer;
  let markerStrip: Buffer;
  let idle: number;
  let peak: number;
  let sampler: ReturnType<typeof setInterval>;
  beforeAll(() => {
    // Made before the measure starts (the 20000×20000 one deflates 50 MB of rows here).
    bomb = paletteBomb(20_000);
    strip = paletteBomb(10_000_000, 10);
    markerStrip = paletteBomb(5_000_000, 5);
    idle = rss();
    peak = idle;
    sampler = setInterval(() => (peak = Math.max(peak, rss())), 20);
  });
  afterAll(() => clearInterval(sampler));

  it('refuses a 20000×20000 one-colour PNG of 50 kB as an image and as a marker, naming its size', async () => {
    expect(bomb.length).toBeLessThan(400_000);
    await expectRefused('image/upload', 'png', bomb, 'image_too_large', /20000×20000.*100 megapixels/);
    await expectRefused('marker/upload', 'png', bomb, 'image_too_large', /20000×20000.*25 megapixels/);
  });

  it('refuses a 12 kB PNG strip of 10000000×10 pixels (100 megapixels, 5 GB to resize) as an image, and a 5000000×5 marker', async () => {
    expect(strip.length).toBeLessThan(20_000);
    await expectRefused('image/upload', 'png', strip, 'image_too_large', /10000000×10.*65535/);
    // The marker's aspect rule came after decoding, which took 2 GB.
    await expectRefused('marker/upload', 'png', markerStrip, 'image_too_large', /5000000×5.*65535/);
    // A header declaring sides libvips does not read at all (over 10,000,000) gets the same answer.
    const endless = Buffer.from(bomb);
    endless.writeUInt32BE(100_000_000, 16);
    endless.writeUInt32BE(1, 20);
    await expectRefused('image/upload', 'png', endless, 'image_too_large', /100000000×1.*65535/);
  });

  it('refuses a small JPEG whose header claims 60000×60000 before decoding it', async () => {
    const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#3366cc' } }).jpeg().toBuffer();
    const sof = jpeg.indexOf(Buffer.from([0xff, 0xc0]));
    expect(sof).toBeGreaterThan(0);
    jpeg.writeUInt16BE(60_000, sof + 5);
    jpeg.writeUInt16BE(60_000, sof + 7);
    await expectRefused('image/upload', 'jpg', jpeg, 'image_too_large', /60000×60000/);
  });

  it('takes a one-colour PNG of exactly 100 megapixels, the largest accepted', async () => {
    const answer = await service.send('image/upload', key, { file_type: 'png' }, paletteBomb(10_000));
    expect(answer).toMatchObject({ width: 10_000, height: 10_000, avg_color: '#3366cc' });
  });

  it('keeps the resident memory of the process (API and worker) within 400 MB of where it was', async () => {
    await new Promise((resolve) => setTimeout(resolve, 100));
    clearInterval(sampler);
    const growth = { peak: (peak - idle) / MB, after: (rss() - idle) / MB };
    console.log(`media-bad-input: RSS ${Math.round(idle / MB)} MB before the bombs; peak +${growth.peak.toFixed(0)} MB, after +${growth.after.toFixed(0)} MB`);
    expect(growth.peak).toBeLessThan(400);
    expect(growth.after).toBeLessThan(400);
  });
});

describe('animated files', () => {
  it('refuses an APNG of three frames as an image and as a marker', async () => {
    // libvips reads the default image of an APNG and reports no frames at all: the acTL tells.
    const animated = apng(3);
    await expectRefused('image/upload', 'png', animated, 'unsupported_file_type', /animated|3 frames/);
    await expectRefused('marker/upload', 'png', animated, 'unsupported_file_type', /animated|3 frames/);
  });

  it('takes a one-frame APNG (acTL of 1) as the still image it is', async () => {
    const answer = await service.send('marker/upload', key, { file_type: 'png' }, apng(1));
    expect(Object.keys(answer)).toEqual(['marker_id']);
  });

  it('refuses an animated GIF sent as png, naming GIF', async () => {
    const gif = await animatedGif();
    expect((await sharp(gif).metadata()).pages).toBe(3);
    await expectRefused('image/upload', 'png', gif, 'unsupported_file_type', /GIF/);
    await expectRefused('image/upload', 'jpg', gif, 'unsupported_file_type', /GIF/);
    await expectRefused('marker/upload', 'png', gif, 'unsupported_file_type', /GIF/);
  });
});

describe('truncated and corrupt files', () => {
  it('refuses a JPEG cut in half (baseline and progressive) with invalid_image', async () => {
    for (const progressive of [false, true]) {
      const jpeg = await detailedJpeg(progressive);
      await expectRefused('image/upload', 'jpg', jpeg.subarray(0, jpeg.length >> 1), 'invalid_image', /damaged|incomplete/);
    }
  });

  it('refuses a JPEG whose scan data is overwritten in the middle with invalid_image', async () => {
    const jpeg = await detailedJpeg();
    const middle = jpeg.length >> 1;
    // 64 bytes of 0xFF, as erased flash reads: markers where there may be none.
    await expectRefused('image/upload', 'jpg', Buffer.from(jpeg).fill(0xff, middle, middle + 64), 'invalid_image', /damaged|incomplete/);
    // An end-of-image marker halfway through the scan.
    const cut = Buffer.from(jpeg);
    cut.set([0xff, 0xd9], middle);
    await expectRefused('image/upload', 'jpg', cut, 'invalid_image');
  });

  it('refuses a PNG with a bad CRC (in IHDR, in IDAT) or cut in half with invalid_image, as image and marker', async () => {
    /** A copy with the byte at `at` XORed with `mask`. */
    const flip = (file: Buffer, at: number, mask: number) => {
      const copy = Buffer.from(file);
      copy.writeUInt8(copy.readUInt8(at) ^ mask, at);
      return copy;
    };
    const IHDR_CRC = 8 + 8 + 13; // signature, IHDR length and type, IHDR data
    const png = await detailedPng();
    const idat = png.indexOf('IDAT');
    const badIhdr = flip(png, IHDR_CRC, 0xff);
    const badIdat = flip(png, idat + 4 + png.readUInt32BE(idat - 4), 0xff); // the first IDAT's CRC
    const flipped = flip(png, idat + 100, 0x01); // one bit of compressed data: the CRC no longer matches
    for (const file of [badIhdr, badIdat, flipped, png.subarray(0, png.length >> 1)]) {
      await expectRefused('image/upload', 'png', file, 'invalid_image', /damaged|incomplete/);
    }
    const icon = await sharp({ create: { width: 64, height: 64, channels: 4, background: '#3366cc80' } }).png().toBuffer();
    const badIcon = flip(icon, IHDR_CRC, 0xff);
    await expectRefused('marker/upload', 'png', badIcon, 'invalid_image');
  });
});

describe('other formats under file_type jpg or png', () => {
  const others: [string, () => Promise<Uint8Array> | Uint8Array, RegExp][] = [
    ['SVG <use> bomb', () => Buffer.from(svgUseBomb()), /SVG/],
    ['SVG entity bomb with XML declaration and BOM', () => Buffer.from(svgEntityBomb()), /SVG/],
    ['TIFF', () => still('tiff'), /TIFF/],
    ['HEIC', heic, /HEIC/],
    ['AVIF', () => still('avif'), /AVIF/],
    ['WebP', () => still('webp'), /WebP/],
    ['GIF', () => still('gif'), /GIF/],
    ['BMP', bmp, /BMP/],
    ['PDF', pdf, /PDF/],
  ];

  for (const [name, make, names] of others) {
    it(`refuses ${name} with unsupported_file_type, saying what it is`, async () => {
      const file = await make();
      for (const fileType of ['jpg', 'png'] as const) {
        const message = await expectRefused('image/upload', fileType, file, 'unsupported_file_type', names);
        expect(message).toMatch(/JPEG or PNG/);
      }
      expect(await expectRefused('marker/upload', 'png', file, 'unsupported_file_type', names)).toMatch(/only PNG/);
    });
  }

  it('refuses bytes that are no image at all, saying so', async () => {
    const message = await expectRefused('image/upload', 'jpg', Buffer.from('hello, this is not a picture\n'.repeat(10)), 'unsupported_file_type');
    expect(message).toMatch(/not an image type/);
  });
});

describe('polyglots', () => {
  const MARK = 'POLYGLOT-PAYLOAD-4c1f9e';
  const html = `<html><body><script>alert("${MARK}")</script></body></html>`;

  const photoWithExif = () =>
    sharp({ create: { width: 900, height: 600, channels: 3, background: '#996633' } })
      .jpeg({ quality: 90 })
      .withExif({
        IFD0: { ImageDescription: html, Artist: MARK },
        IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 30/1', GPSLongitudeRef: 'E', GPSLongitude: '2/1 17/1 40/1' },
      })
      .toBuffer();

  /** Every stored file of the image, read from the blob store and fetched from /images. */
  async function storedFiles(imageId: string): Promise<{ name: string; bytes: Buffer }[]> {
    const row = await service.db('images').where({ id: imageId }).first();
    const files: { name: string; bytes: Buffer }[] = [];
    for (const d of row.derivatives as { name: string; key: string; contentType: string }[]) {
      files.push({ name: d.key, bytes: fs.readFileSync(path.join(service.blobDir, d.key)) });
      const extension = d.contentType === 'image/png' ? 'png' : 'jpg';
      const response = await fetch(`${service.url}/images/${imageId}/${d.name}.${extension}`, { headers: { authorization: `Token ${key}` } });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe(d.contentType);
      files.push({ name: `/images/${imageId}/${d.name}.${extension}`, bytes: Buffer.from(await response.arrayBuffer()) });
    }
    expect(files.length).toBeGreaterThanOrEqual(2);
    return files;
  }

  const payloads: [string, (photo: Buffer) => Buffer][] = [
    ['a ZIP archive', (photo) => Buffer.concat([photo, Buffer.from(makeZip([{ name: `${MARK}.html`, data: html, store: true }]))])],
    ['an HTML page', (photo) => Buffer.concat([photo, Buffer.from(html)])],
  ];

  for (const [name, append] of payloads) {
    it(`takes a JPEG with ${name} appended, and stores neither the payload nor the EXIF`, async () => {
      const photo = await photoWithExif();
      expect((await sharp(photo).metadata()).exif).toBeDefined();
      const polyglot = append(photo);
      expect(polyglot.includes(MARK)).toBe(true);
      const answer = await service.send('image/upload', key, { file_type: 'jpg' }, polyglot);
      expect(answer.error, answer.error).toBeUndefined();
      expect(JSON.stringify(answer)).not.toContain(MARK);
      expect(answer).toMatchObject({ width: 900, height: 600, has_gps: true });
      for (const file of await storedFiles(answer.image_id)) {
        expect(file.bytes.includes(MARK), file.name).toBe(false);
        expect(file.bytes.includes('<script'), file.name).toBe(false);
        expect(file.bytes.includes(Buffer.from([0x50, 0x4b, 0x03, 0x04])), file.name).toBe(false);
        const meta = await sharp(file.bytes).metadata();
        expect(meta.format, file.name).toBe('jpeg');
        expect(meta.exif, file.name).toBeUndefined();
        expect(meta.xmp, file.name).toBeUndefined();
        expect(meta.comments, file.name).toBeUndefined();
      }
    });
  }
});

describe('bodies and arguments', () => {
  const jpegHead = Buffer.from([0xff, 0xd8, 0xff, 0xe0]);

  it('answers missing_file to an empty body', async () => {
    for (const op of ['image/upload', 'marker/upload'] as const) {
      await expectRefused(op, 'png', Buffer.alloc(0), 'missing_file', /empty/);
    }
  });

  it('answers invalid_arguments without a Service-API-Arg header, and to a file_type the operation does not take', async () => {
    for (const op of ['image/upload', 'marker/upload'] as const) {
      const answer = await service.send(op, key, undefined, await detailedJpeg());
      expect(answer.error_code).toBe('invalid_arguments');
      expectPlainMessage(answer.error);
      expect(answer.error).toMatch(/Service-API-Arg/);
    }
    const jpgMarker = await service.send('marker/upload', key, { file_type: 'jpg' }, await detailedJpeg());
    expect(jpgMarker.error_code).toBe('invalid_arguments');
    expectPlainMessage(jpgMarker.error);
    expect(jpgMarker.error).toMatch(/file_type/);
  });

  it('answers file_too_large to a body over 15 MB, and leaves no request file behind', async () => {
    const big = Buffer.concat([jpegHead, Buffer.alloc(15 * MB + 1 - jpegHead.length)]);
    for (const op of ['image/upload', 'marker/upload'] as const) {
      await expectRefused(op, op === 'image/upload' ? 'jpg' : 'png', big, 'file_too_large', /15 MB/);
    }
    await expect.poll(requestFiles).toEqual([]);
  });
});

describe('marker/upload', () => {
  it('refuses a JPEG, naming JPEG', async () => {
    await expectRefused('marker/upload', 'png', await detailedJpeg(), 'unsupported_file_type', /JPEG/);
  });

  it('refuses a 10000×10 PNG strip with invalid_image, naming its size', async () => {
    const strip = await sharp({ create: { width: 10_000, height: 10, channels: 4, background: '#000000' } }).png().toBuffer();
    await expectRefused('marker/upload', 'png', strip, 'invalid_image', /10000×10.*4 times/);
  });
});

describe('afterwards', () => {
  it('left no request file behind and logged no internal error', async () => {
    await expect.poll(requestFiles).toEqual([]);
    expect(service.internalErrors).toEqual([]);
  });
});
