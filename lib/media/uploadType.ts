// The file type of an upload that names none (the web editor's image and icon uploads: people
// pick a file, they do not name a format), told by its first bytes as the processing itself
// tells it (./sniff.ts): a JPEG or PNG photo, a PNG icon; anything else is refused here with a
// message that says what the file looks like, before any job is started.
import type { MediaFileType, MediaKind } from '../jobContracts.js';
import { mediaError } from './errors.js';
import { describeFile, sniffFormat } from './sniff.js';

/** How many of a file's first bytes tell its type (an SVG's `<svg` may come after a prologue). */
export const TYPE_BYTES = 1024;

const TAKEN: Record<MediaKind, Partial<Record<'jpeg' | 'png' | 'gif', MediaFileType>>> = {
  image: { jpeg: 'jpg', png: 'png' },
  marker: { png: 'png' },
};

const WANTED: Record<MediaKind, string> = {
  image: 'a photo must be a JPEG or PNG image',
  marker: 'a custom icon must be a PNG image (a transparent background is best)',
};

/** The file_type of an upload of this kind from its first bytes (at most TYPE_BYTES); unsupported_file_type otherwise. */
export function mediaFileTypeOf(head: Uint8Array, kind: MediaKind): MediaFileType {
  const format = sniffFormat(head);
  const fileType = format === undefined ? undefined : TAKEN[kind][format];
  if (fileType === undefined) throw mediaError('unsupported_file_type', `The file is ${describeFile(head)}; ${WANTED[kind]}.`);
  return fileType;
}
