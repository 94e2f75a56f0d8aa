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
