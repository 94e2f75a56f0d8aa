// Golden images for the static renderer's tests: a PNG compared with a committed one within a
// tolerance (mean difference and share of far-off pixels); `UPDATE_GOLDEN=1` rewrites the golden
// after a deliberate change, and a failing comparison leaves `<name>.actual.png` beside it to look at.
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';

export const GOLDEN_DIR = path.join(import.meta.dirname, '../fixtures/render');

export async function pixels(png: Buffer) {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels };
}

export type Pixels = Awaited<ReturnType<typeof pixels>>;

/** How the image differs from its golden one: whether both measures are within the tolerance. */
export async function compareWithGolden(name: string, png: Buffer): Promise<{ sameSize: boolean; meanDifference: boolean; pixelsFarOff: boolean }> {
  const file = path.join(GOLDEN_DIR, `${name}.png`);
  if (process.env.UPDATE_GOLDEN === '1') {
    fs.mkdirSync(GOLDEN_DIR, { recursive: true });
    fs.writeFileSync(file, await sharp(png).png({ palette: true, colours: 256, compressionLevel: 9 }).toBuffer());
  }
  if (!fs.existsSync(file)) throw new Error(`No golden image ${file}: run the test with UPDATE_GOLDEN=1 and look at it`);
  const [actual, expected] = [await pixels(png), await pixels(fs.readFileSync(file))];
  if (actual.width !== expected.width || actual.height !== expected.height) return { sameSize: false, meanDifference: false, pixelsFarOff: false };
  let total = 0;
  let far = 0;
  for (let i = 0; i < actual.data.length; i += actual.channels) {
    const diff = Math.abs(actual.data[i]! - expected.data[i]!) + Math.abs(actual.data[i + 1]! - expected.data[i + 1]!) + Math.abs(actual.data[i + 2]! - expected.data[i + 2]!);
    total += diff;
    if (diff > 90) far++;
  }
  const count = actual.width * actual.height;
  const result = { sameSize: true, meanDifference: total / count < 4, pixelsFarOff: far / count < 0.01 };
  if (!result.meanDifference || !result.pixelsFarOff) fs.writeFileSync(path.join(GOLDEN_DIR, `${name}.actual.png`), png);
  return result;
}
