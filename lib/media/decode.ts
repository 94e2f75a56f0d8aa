// Reading an untrusted upload: the type by magic bytes, then the header (size limits), then one
// decode into 8-bit sRGB pixels no larger than the biggest derivative, turned upright by its
// EXIF orientation. Every later step (colours, derivatives) works on those pixels.
import type { RawPixels } from './colors.js';
import { PIPELINE_TIMEOUT_SECONDS } from './derivatives.js';
import { fromSharpError, mediaError } from './errors.js';
import { sharp, type SharpOptions } from './sharp.js';
import { sniffFormat, type MediaFormat } from './sniff.js';

export interface DecodeRules {
  accepted: readonly MediaFormat[];
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
}

const label: Record<MediaFormat, string> = { jpeg: 'JPEG', png: 'PNG', gif: 'GIF' };

export async function decodeUpload(bytes: Uint8Array, rules: DecodeRules): Promise<Decoded> {
  const format = sniffFormat(bytes);
  if (!format || !rules.accepted.includes(format)) {
    const names = rules.accepted.map((f) => label[f]).join(', ');
    throw mediaError('unsupported_file_type', `The file is not one of the accepted image types (${names}).`);
  }
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
  try {
    const meta = await sharp(input, options).metadata();
    // The decoder libvips picked must be the one the magic bytes promised.
    if (meta.format !== format) {
      throw mediaError('unsupported_file_type', 'The file content does not match its image type.');
    }
    if (meta.width * meta.height > rules.maxPixels) {
      throw mediaError('image_too_large', 'The image has more pixels than the service processes.');
    }
    const { data, info } = await sharp(input, options)
      .resize(rules.box, rules.box, { fit: 'inside', withoutEnlargement: true })
      .toColourspace('srgb')
      .raw()
      .timeout({ seconds: PIPELINE_TIMEOUT_SECONDS })
      .toBuffer({ resolveWithObject: true });
    return {
      format,
      width: meta.autoOrient.width,
      height: meta.autoOrient.height,
      exif: meta.exif,
      pixels: { data, width: info.width, height: info.height, channels: info.channels },
    };
  } catch (error) {
    throw fromSharpError(error);
  }
}
