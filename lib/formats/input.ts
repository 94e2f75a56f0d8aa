// An uploaded file as the parsers read it: its first bytes (to recognise the format and its
// encoding), its bytes piece by piece (text formats, so a large file never sits in memory
// whole), a stretch of it from any position (GeoJSON's window), or all of it at once (archives,
// which need random access, and a GeoJSON file that is no FeatureCollection).
import { isUtf8 } from 'node:buffer';
import fs from 'node:fs';

/**
 * Bytes handed out per piece: small enough that a piece's text is an ordinary young object,
 * freed by the next scavenge (1 MB pieces made strings in V8's large-object space, kept until a
 * full collection; measured on a 15 MB CSV: 55 → 22 MB above idle, and faster).
 */
export const PIECE_BYTES = 64 * 1024;
/** Bytes in `head`. */
const HEAD_BYTES = 64 * 1024;

export interface FileInput {
  readonly size: number;
  /** The first bytes (up to 64 kB; all of a smaller file). */
  readonly head: Uint8Array;
  /**
   * The bytes in order, in pieces of up to `pieceBytes`. A piece is valid until the next one is
   * asked for (the buffer may be reused): copy or decode it at once.
   */
  pieces(pieceBytes?: number): Iterable<Uint8Array>;
  /** All the bytes. */
  bytes(): Uint8Array;
  /** Copies the bytes from `position` on into `target`; returns how many (fewer at the end). */
  readAt(position: number, target: Uint8Array): number;
}

/** A file's bytes in memory (tests; media inside archives). */
export function bytesInput(bytes: Uint8Array): FileInput {
  return {
    size: bytes.length,
    head: bytes.subarray(0, HEAD_BYTES),
    *pieces(pieceBytes = PIECE_BYTES) {
      for (let at = 0; at < bytes.length; at += pieceBytes) yield bytes.subarray(at, at + pieceBytes);
    },
    bytes: () => bytes,
    readAt(position, target) {
      const part = bytes.subarray(position, position + target.length);
      target.set(part);
      return part.length;
    },
  };
}

/** A file on disk, read when asked (synchronously: parsers run in their own thread). */
export function fileInput(path: string): FileInput {
  const size = fs.statSync(path).size;
  const head = new Uint8Array(Math.min(size, HEAD_BYTES));
  withFile(path, (fd) => readFully(fd, head, 0));
  return {
    size,
    head,
    *pieces(pieceBytes = PIECE_BYTES) {
      const fd = fs.openSync(path, 'r');
      try {
        const buffer = new Uint8Array(Math.min(pieceBytes, Math.max(size, 1)));
        for (let at = 0; at < size; at += buffer.length) {
          const read = readFully(fd, buffer, at);
          if (read === 0) return;
          yield buffer.subarray(0, read);
        }
      } finally {
        fs.closeSync(fd);
      }
    },
    bytes: () => fs.readFileSync(path),
    readAt: (position, target) => withFile(path, (fd) => readFully(fd, target, position)),
  };
}

function withFile<T>(path: string, use: (fd: number) => T): T {
  const fd = fs.openSync(path, 'r');
  try {
    return use(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Fills target from the file at position (less at the end of the file); returns the bytes read. */
function readFully(fd: number, target: Uint8Array, position: number): number {
  let filled = 0;
  while (filled < target.length) {
    const read = fs.readSync(fd, target, filled, target.length - filled, position + filled);
    if (read === 0) break;
    filled += read;
  }
  return filled;
}

/** The encoding a byte order mark at the start names, if there is one. */
export function byteOrderMark(head: Uint8Array): 'utf-8' | 'utf-16le' | 'utf-16be' | undefined {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return 'utf-8';
  if (head[0] === 0xff && head[1] === 0xfe) return 'utf-16le';
  if (head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
  return undefined;
}

/** Parsers take a FileInput or plain bytes (tests, archives). */
export type ParserInput = FileInput | Uint8Array;

export const asInput = (input: ParserInput): FileInput => (input instanceof Uint8Array ? bytesInput(input) : input);

/** Whether the file is valid UTF-8, checked a piece at a time (a sequence cut by a piece's end is checked with the next). */
export function isUtf8File(input: FileInput): boolean {
  let carried = new Uint8Array(0);
  for (const piece of input.pieces()) {
    const bytes = carried.length === 0 ? piece : Buffer.concat([carried, piece]);
    const whole = completeSequences(bytes);
    if (!isUtf8(bytes.subarray(0, whole))) return false;
    carried = bytes.slice(whole); // a copy: the piece's buffer is reused
  }
  return carried.length === 0;
}

/** How many bytes from the start end on a UTF-8 sequence boundary (a cut-off last sequence left out). */
function completeSequences(bytes: Uint8Array): number {
  for (let index = bytes.length - 1; index >= Math.max(0, bytes.length - 3); index--) {
    const byte = bytes[index] as number;
    if (byte < 0x80) return bytes.length;
    if (byte >= 0xc0) {
      const needs = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2;
      return index + needs <= bytes.length ? bytes.length : index;
    }
  }
  return bytes.length;
}
