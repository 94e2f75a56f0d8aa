// The file type by its first bytes: never by name or Content-Type, so an SVG, TIFF or GIF that
// calls itself .jpg/.png is refused before any decoder sees it. Only JPEG, PNG and GIF are ever
// decoded; the other kinds are recognised to say what a refused file is.

export type MediaFormat = 'jpeg' | 'png' | 'gif';

/** What a refused file looks like, for the message. */
export type OtherFormat = 'webp' | 'tiff' | 'heic' | 'avif' | 'bmp' | 'svg' | 'pdf' | 'zip';

export const FORMAT_NAMES: Record<MediaFormat | OtherFormat, string> = {
  jpeg: 'a JPEG image',
  png: 'a PNG image',
  gif: 'a GIF image',
  webp: 'a WebP image',
  tiff: 'a TIFF image',
  heic: 'a HEIC/HEIF image',
  avif: 'an AVIF image',
  bmp: 'a BMP image',
  svg: 'an SVG image',
  pdf: 'a PDF document',
  zip: 'a zip archive',
};

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

const startsWith = (bytes: Uint8Array, prefix: readonly number[], at = 0): boolean =>
  bytes.length >= at + prefix.length && prefix.every((byte, i) => bytes[at + i] === byte);

const ascii = (bytes: Uint8Array, start: number, end: number): string => String.fromCharCode(...bytes.subarray(start, end));

export function sniffFormat(bytes: Uint8Array): MediaFormat | undefined {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(bytes, PNG_SIGNATURE)) return 'png';
  // GIF87a / GIF89a
  if (startsWith(bytes, [0x47, 0x49, 0x46, 0x38]) && (bytes[4] === 0x37 || bytes[4] === 0x39) && bytes[5] === 0x61) {
    return 'gif';
  }
  return undefined;
}

/** Width and height a PNG's header (IHDR, the first chunk) declares; undefined when it has none. */
export function pngSize(bytes: Uint8Array): { width: number; height: number } | undefined {
  if (!startsWith(bytes, PNG_SIGNATURE) || bytes.length < 24 || ascii(bytes, 12, 16) !== 'IHDR') return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

/**
 * The frame count an animated PNG (APNG) declares in its acTL chunk, which must come before the
 * first IDAT; undefined for a still PNG. libvips reads only the default image of an APNG and
 * reports no pages, so animation is told here. Walks the chunk headers only (one step per chunk).
 */
export function apngFrames(bytes: Uint8Array): number | undefined {
  if (!startsWith(bytes, PNG_SIGNATURE)) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = PNG_SIGNATURE.length;
  while (at + 8 <= bytes.length) {
    const length = view.getUint32(at);
    const type = ascii(bytes, at + 4, at + 8);
    if (type === 'IDAT' || type === 'IEND') return undefined;
    if (type === 'acTL') return at + 12 <= bytes.length ? view.getUint32(at + 8) : undefined;
    // length + type + data + CRC
    at += 12 + length;
  }
  return undefined;
}

/** The kind of a file that is not JPEG, PNG or GIF, when it is a common one; undefined otherwise. */
export function sniffOther(bytes: Uint8Array): OtherFormat | undefined {
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP') return 'webp';
  if (startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a])) return 'tiff';
  if (ascii(bytes, 4, 8) === 'ftyp') {
    const brand = ascii(bytes, 8, 12);
    if (brand === 'avif' || brand === 'avis') return 'avif';
    if (['heic', 'heix', 'hevc', 'heim', 'heis', 'mif1', 'msf1'].includes(brand)) return 'heic';
  }
  if (ascii(bytes, 0, 2) === 'BM') return 'bmp';
  if (ascii(bytes, 0, 5) === '%PDF-') return 'pdf';
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) return 'zip';
  const head = new TextDecoder('utf-8', { fatal: false }).decode(bytes.subarray(0, 1024)).replace(/^\uFEFF/, '').trimStart();
  if (head.startsWith('<') && /<svg[\s>]/i.test(head)) return 'svg';
  return undefined;
}

/** What the file looks like, for a message: "a TIFF image", or "not an image type the service recognises". */
export function describeFile(bytes: Uint8Array): string {
  const format = sniffFormat(bytes) ?? sniffOther(bytes);
  return format ? FORMAT_NAMES[format] : 'not an image type the service recognises';
}
