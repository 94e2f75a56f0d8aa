// Where processImage's time goes (lib/media/processImage.ts), in this process with the service's
// sharp settings (lib/media/sharp.ts): decodeUpload (its header read and its decode apart),
// encodeDerivatives (each box apart), the colours; then the same work with other settings, to
// see what a change would buy. Medians of 5 after one warm-up; then processImage as it is and a
// candidate (baseline JPEG, the four encodes at once, the colours computed while they run)
// alternately, 9 pairs.
//   npx tsx bench/imagePieces.ts [bench/out/images/photo-12mp.jpg]
// (the inputs are written by `npm run bench -- images`).
import fs from 'node:fs';
import { averageColor, tipColor } from '../lib/media/colors.js';
import { decodeUpload, type Decoded } from '../lib/media/decode.js';
import { boxesFor, boxName, encodeDerivatives, fitInBox } from '../lib/media/derivatives.js';
import { readExifFacts } from '../lib/media/exif.js';
import { IMAGE_BOXES, IMAGE_MAX_PIXELS, processImage } from '../lib/media/processImage.js';
import { sharp, type SharpOptions } from '../lib/media/sharp.js';
import { sniffFormat } from '../lib/media/sniff.js';
import { summarize } from './stats.js';

const RUNS = 5;

async function median(fn: () => Promise<unknown> | unknown): Promise<number> {
  await fn();
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const started = performance.now();
    await fn();
    samples.push(performance.now() - started);
  }
  return Math.round(summarize(samples).median);
}

const loadOptions: SharpOptions = { failOn: 'warning', limitInputPixels: IMAGE_MAX_PIXELS, autoOrient: true, pages: 1, sequentialRead: true };

type JpegOptions = { progressive: boolean; optimiseCoding?: boolean };

/** encodeDerivatives with other JPEG options, one after the other or all at once. */
async function derivativesWith(decoded: Decoded, jpeg: JpegOptions, together = false): Promise<number> {
  const { pixels } = decoded;
  const encode = (box: number) => {
    const size = fitInBox(decoded.width, decoded.height, box);
    return sharp(pixels.data, { raw: { width: pixels.width, height: pixels.height, channels: pixels.channels as 3 | 4 } })
      .resize(size.width, size.height, { fit: 'fill' })
      .jpeg({ quality: 82, ...jpeg })
      .toBuffer();
  };
  const boxes = boxesFor(Math.max(decoded.width, decoded.height), IMAGE_BOXES);
  if (together) return (await Promise.all(boxes.map(encode))).reduce((sum, b) => sum + b.length, 0);
  let bytes = 0;
  for (const box of boxes) bytes += (await encode(box)).length;
  return bytes;
}

/**
 * processImage with three changes: baseline JPEG (no progressive scans), the four derivatives
 * encoded at once on libuv's threads, and the colours (JavaScript, on this thread) computed
 * while they encode. Same sizes and colours as processImage.
 */
async function candidate(bytes: Buffer, declared: 'jpeg' | 'png') {
  const decoded = await decodeUpload(bytes, { accepted: ['jpeg', 'png'], declared, stillOnly: true, maxPixels: IMAGE_MAX_PIXELS, box: 2048 });
  const facts = readExifFacts(decoded.exif);
  const { pixels } = decoded;
  const encodes = Promise.all(
    boxesFor(Math.max(decoded.width, decoded.height), IMAGE_BOXES).map(async (box) => {
      const size = fitInBox(decoded.width, decoded.height, box);
      const { data, info } = await sharp(pixels.data, { raw: { width: pixels.width, height: pixels.height, channels: pixels.channels as 3 | 4 } })
        .resize(size.width, size.height, { fit: 'fill' })
        .jpeg({ quality: 82 })
        .toBuffer({ resolveWithObject: true });
      return { name: boxName(box), width: info.width, height: info.height, bytes: data };
    }),
  );
  const colours = { tipColor: tipColor(pixels), avgColor: averageColor(pixels) };
  return { ...colours, facts, derivatives: await encodes };
}

/** processImage and the candidate alternately: medians of each and of the paired differences. */
async function compare(bytes: Buffer, declared: 'jpeg' | 'png', pairs = 9) {
  await processImage(bytes, { declared });
  await candidate(bytes, declared);
  const now: number[] = [];
  const cand: number[] = [];
  for (let i = 0; i < pairs; i += 1) {
    let started = performance.now();
    await processImage(bytes, { declared });
    now.push(performance.now() - started);
    started = performance.now();
    await candidate(bytes, declared);
    cand.push(performance.now() - started);
  }
  const med = (xs: number[]) => Math.round(summarize(xs).median);
  return { now: med(now), candidate: med(cand), saved: med(now.map((ms, i) => ms - cand[i]!)) };
}

async function pieces(label: string, bytes: Buffer) {
  const declared = sniffFormat(bytes) as 'jpeg' | 'png';
  const rules = { accepted: ['jpeg', 'png'] as const, declared, stillOnly: true, maxPixels: IMAGE_MAX_PIXELS, box: 2048 };
  const decoded = await decodeUpload(bytes, { ...rules, accepted: [...rules.accepted] });
  const rows: Record<string, number | string> = {};
  rows['processImage (whole)'] = await median(() => processImage(bytes, { declared }));
  rows['decodeUpload'] = await median(() => decodeUpload(bytes, { ...rules, accepted: [...rules.accepted] }));
  rows['  metadata() (header)'] = await median(() => sharp(bytes, loadOptions).metadata());
  rows['  decode + resize to 2048 raw'] = await median(() =>
    sharp(bytes, loadOptions).resize(2048, 2048, { fit: 'inside', withoutEnlargement: true }).toColourspace('srgb').raw().toBuffer(),
  );
  rows['  decode only (full size raw)'] = await median(() => sharp(bytes, loadOptions).raw().toBuffer());
  rows['encodeDerivatives (progressive, as now)'] = await median(() =>
    encodeDerivatives(decoded.pixels, decoded, IMAGE_BOXES, 'image/jpeg'),
  );
  for (const box of IMAGE_BOXES) {
    rows[`  s${box}`] = await median(() => encodeDerivatives(decoded.pixels, decoded, [box], 'image/jpeg'));
  }
  rows['tipColor + averageColor'] = await median(() => [tipColor(decoded.pixels), averageColor(decoded.pixels)]);
  rows['derivatives, baseline (vipsthumbnail default)'] = await median(() => derivativesWith(decoded, { progressive: false }));
  rows['derivatives, baseline, no optimised Huffman'] = await median(() => derivativesWith(decoded, { progressive: false, optimiseCoding: false }));
  rows['derivatives, progressive, all 4 at once'] = await median(() => derivativesWith(decoded, { progressive: true }, true));
  rows['derivatives, baseline, all 4 at once'] = await median(() => derivativesWith(decoded, { progressive: false }, true));
  const before = sharp.concurrency();
  sharp.concurrency(2);
  rows[`processImage, sharp.concurrency(${sharp.concurrency()}) (now ${before})`] = await median(() => processImage(bytes, { declared }));
  rows[`  decodeUpload, concurrency ${sharp.concurrency()}`] = await median(() => decodeUpload(bytes, { ...rules, accepted: [...rules.accepted] }));
  rows[`  derivatives progressive, concurrency ${sharp.concurrency()}`] = await median(() =>
    encodeDerivatives(decoded.pixels, decoded, IMAGE_BOXES, 'image/jpeg'),
  );
  rows[`  derivatives baseline, concurrency ${sharp.concurrency()}`] = await median(() => derivativesWith(decoded, { progressive: false }));
  sharp.concurrency(before);
  const progressiveBytes = (await encodeDerivatives(decoded.pixels, decoded, IMAGE_BOXES, 'image/jpeg')).reduce((sum, d) => sum + d.bytes.length, 0);
  const baselineBytes = await derivativesWith(decoded, { progressive: false });
  rows['bytes of the 4 derivatives, progressive / baseline'] = `${progressiveBytes} / ${baselineBytes}`;
  const same = await candidate(bytes, declared);
  const ours = await processImage(bytes, { declared });
  if (same.tipColor !== ours.tipColor || same.avgColor !== ours.avgColor || same.derivatives.some((d, i) => d.width !== ours.derivatives[i]?.width)) {
    throw new Error('the candidate differs from processImage');
  }
  const paired = await compare(bytes, declared);
  rows['processImage now (paired)'] = paired.now;
  rows['candidate (paired)'] = paired.candidate;
  rows['saved (median of paired differences)'] = paired.saved;
  sharp.concurrency(2);
  const paired2 = await compare(bytes, declared);
  sharp.concurrency(before);
  rows['processImage now, concurrency 2 (paired)'] = paired2.now;
  rows['candidate, concurrency 2 (paired)'] = paired2.candidate;
  rows['saved, concurrency 2'] = paired2.saved;
  console.log(`\n${label} (${(bytes.length / 1024 / 1024).toFixed(1)} MB), milliseconds, median of ${RUNS}:`);
  console.table(rows);
  return rows;
}

const files = process.argv.slice(2);
const results: Record<string, unknown> = {};
for (const file of files.length > 0 ? files : ['bench/out/images/photo-12mp.jpg', 'bench/out/images/photo-12mp.png']) {
  results[file] = await pieces(file, fs.readFileSync(file));
}
fs.writeFileSync('bench/out/image-pieces.json', JSON.stringify({ date: new Date().toISOString(), results }, null, 2));
