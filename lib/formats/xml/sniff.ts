// What a file is, by its first bytes, when it is clearly not XML text: so that a PNG sent as
// "kml" gets "this is a PNG image" instead of an XML syntax error.
import { sniffFormat } from '../../media/sniff.js';

const startsWith = (bytes: Uint8Array, signature: readonly number[]): boolean =>
  bytes.length >= signature.length && signature.every((byte, index) => bytes[index] === byte);

/** The zip local-file-header signature `PK\x03\x04` (or an empty archive's `PK\x05\x06`). */
export function isZip(bytes: Uint8Array): boolean {
  return startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]) || startsWith(bytes, [0x50, 0x4b, 0x05, 0x06]);
}

/** A short description of a well-known binary format ("a PNG image"), or undefined. */
export function binaryKind(bytes: Uint8Array): string | undefined {
  if (isZip(bytes)) return 'a zip archive';
  const image = sniffFormat(bytes);
  if (image !== undefined) return `a ${image === 'jpeg' ? 'JPEG' : image.toUpperCase()} image`;
  if (startsWith(bytes, [0x25, 0x50, 0x44, 0x46, 0x2d])) return 'a PDF document';
  if (startsWith(bytes, [0x1f, 0x8b])) return 'a gzip-compressed file';
  if (startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return 'an old Office document (for example an XLS workbook)';
  if (startsWith(bytes, [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c])) return 'a 7-Zip archive';
  if (startsWith(bytes, [0x52, 0x61, 0x72, 0x21, 0x1a, 0x07])) return 'a RAR archive';
  return undefined;
}
