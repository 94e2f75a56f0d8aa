// Reading an untrusted upload: the type by magic bytes, then the header (size limits), then one
// decode into 8-bit sRGB pixels no larger than the biggest derivative, turned upright by its
// EXIF orientation. Every later step (colours, derivatives) works on those pixels.
import type { RawPixels } from './colors.js';
import { PIPELINE_TIMEOUT_SECONDS } from './derivatives.js';
import { fromSharpError, mediaError } from './errors.js';
import { sharp, type SharpOptions } from './sharp.js';
import { apngFrames, describeFile, FORMAT_NAMES, pngSize, sniffFormat, type MediaFormat } from './sniff.js';

export interface DecodeRules {
  accepted: readonly MediaFormat[];
  /**
   * The type the client named (file_type): a file of another accepted type is refused with a
   * message naming both. Undefined: any accepted type (icons found in a KMZ).
   */
  declared?: MediaFormat;
  /** Animated or multi-page files are refused (uploads); otherwise their first frame is taken (KMZ icons). */
  stillOnly?: boolean;
  /** Width × height of the original above which it is refused (image_too_large). */
  maxPixels: number;
  /** The decoded pixels fit in a box × box square. */
  box: number;
}

export interface Decoded {
  format: MediaFormat;
  /** The original's size, upright (EXIF orientations 5–8 swap width and height). */
  width: number;
  height: number;
  exif: Buffer | undefined;
  pixels: RawPixels;
  /** Some pixel is not fully opaque. */
  transparent: boolean;
}

/**
 * The longest side decoded (JPEG's own maximum). The resize's memory grows with the width: a
 * 12 kB PNG of 10,000,000×10 pixels, within the pixel limit, took 5 GB to decode.
 */
const MAX_SIDE = 65_535;

const tooLong = (width: number, height: number) =>
  mediaError('image_too_large', `The image is ${width}×${height} pixels; a side may be at most ${MAX_SIDE} pixels.`);

const label: Record<MediaFormat, string> = { jpeg: 'JPEG', png: 'PNG', gif: 'GIF' };
const fileTypeOf: Record<MediaFormat, string> = { jpeg: 'jpg', png: 'png', gif: 'gif' };

function checkType(bytes: Uint8Array, rules: DecodeRules): MediaFormat {
  const format = sniffFormat(bytes);
  const names = rules.accepted.map((f) => label[f]).join(' or ');
  if (!format || !rules.accepted.includes(format)) {
    throw mediaError('unsupported_file_type', `The file is ${describeFile(bytes)}; only ${names} images are accepted here.`);
  }
  if (rules.declared !== undefined && format !== rules.declared) {
    throw mediaError(
      'unsupported_file_type',
      `The file is ${FORMAT_NAMES[format]}, but file_type says "${fileTypeOf[rules.declared]}"; send file_type "${fileTypeOf[format]}" for it.`,
    );
  }
  return format;
}

function hasTransparency(pixels: RawPixels): boolean {
  if (pixels.channels !== 4) return false;
  const { data } = pixels;
  for (let i = 3; i < data.length; i += 4) if (data[i]! < 255) return true;
  return false;
}

export async function decodeUpload(bytes: Uint8Array, rules: DecodeRules): Promise<Decoded> {
  const format = checkType(bytes, rules);
  const input = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const options: SharpOptions = {
    // 'warning' (sharp's strictest and default): truncated files and corrupt pixel data fail
    // instead of being stored half grey.
    failOn: 'warning',
    limitInputPixels: rules.maxPixels,
    autoOrient: true,
    // Multi-frame input (an animated GIF icon, an APNG's extra frames): the first frame only.
    pages: 1,
    sequentialRead: true,
  };
  // A PNG header may declare sides libvips will not even read (over 10,000,000): told here.
  const declared = format === 'png' ? pngSize(bytes) : undefined;
  if (declared && Math.max(declared.width, declared.height) > MAX_SIDE) throw tooLong(declared.width, declared.height);
  try {
    // The header alone, without the pixel limit, so an oversized image is refused below with its
    // size named; the decode further down keeps the limit.
    const meta = await sharp(input, { ...options, limitInputPixels: false }).metadata();
    // The decoder libvips picked must be the one the magic bytes promised.
    if (meta.format !== format) {
      throw mediaError('unsupported_file_type', `The file starts like ${FORMAT_NAMES[format]} but is not one.`);
    }
    // libvips reports no pages for an APNG (it reads the default image only): its acTL tells.
    const frames = Math.max(meta.pages ?? 1, format === 'png' ? (apngFrames(bytes) ?? 1) : 1);
    if (rules.stillOnly && frames > 1) {
      throw mediaError('unsupported_file_type', `The ${label[format]} file is animated or has ${frames} frames; upload a still image.`);
    }
    if (meta.width * meta.height > rules.maxPixels) {
      throw mediaError(
        'image_too_large',
        `The image is ${meta.width}×${meta.height} pixels; at most ${Math.round(rules.maxPixels / 1_000_000)} megapixels are processed.`,
      );
    }
    // Both sides: EXIF orientation can turn a tall image into a wide one.
    if (Math.max(meta.width, meta.height) > MAX_SIDE) throw tooLong(meta.width, meta.height);
    const { data, info } = await sharp(input, options)
      .resize(rules.box, rules.box, { fit: 'inside', withoutEnlargement: true })
      .toColourspace('srgb')
      .raw()
      .timeout({ seconds: PIPELINE_TIMEOUT_SECONDS })
      .toBuffer({ resolveWithObject: true });
    const pixels = { data, width: info.width, height: info.height, channels: info.channels };
    return {
      format,
      width: meta.autoOrient.width,
      height: meta.autoOrient.height,
      exif: meta.exif,
      pixels,
      transparent: hasTransparency(pixels),
    };
  } catch (error) {
    throw fromSharpError(error);
  }
}
