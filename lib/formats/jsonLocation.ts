// Where in a JSON file a syntax error is, as people read a file: line and column (issue 26, item 8:
// "at position 48213" says nothing to someone holding the file in an editor). The parsers report
// a byte offset ("at byte N": JsonBytes and the scan; the engine's "at position N", a character
// of the text they were given, is turned into one first); `placeInFile` writes it as
// "at line L, column C" — columns counting characters, lines counting \n — reading the file in
// pieces up to that byte, so a large file costs no more memory than a piece.
import type { FileInput } from './input.js';

const PIECE = 1024 * 1024;

/** Line and column (both from 1) of the character at `offset` bytes into the file. */
export function lineAndColumnAt(input: FileInput, offset: number): { line: number; column: number } {
  const end = Math.max(0, Math.min(offset, input.size));
  const piece = Buffer.allocUnsafe(Math.min(PIECE, Math.max(end, 1)));
  let line = 1;
  let column = 1;
  for (let at = 0; at < end; ) {
    const read = input.readAt(at, piece.subarray(0, Math.min(piece.length, end - at)));
    if (read <= 0) break;
    for (let i = 0; i < read; i++) {
      const byte = piece[i]!;
      if (byte === 0x0a) {
        line++;
        column = 1;
      } else if ((byte & 0xc0) !== 0x80) column++; // a character starts here (not a UTF-8 continuation byte)
    }
    at += read;
  }
  return { line, column };
}

const AT_BYTE = / at byte (\d+)/;

/** The message with its "at byte N" written as "at line L, column C" (a message without one, as it is). */
export function placeInFile(message: string, input: FileInput): string {
  const match = AT_BYTE.exec(message);
  if (!match) return message;
  const { line, column } = lineAndColumnAt(input, Number(match[1]));
  return message.replace(AT_BYTE, ` at line ${line}, column ${column}`);
}

/**
 * The engine's JSON.parse message with its place as "at byte N" of the file, given where in the
 * file the parsed text began (`base`) and the text: V8 says "… in JSON at position N" (a character
 * of the text) or, in newer versions, "… (line L column C)" of the text alone.
 */
export function engineMessageAtByte(message: string, text: string, base: number): string {
  const position = / in JSON at position (\d+)(?: \(line \d+ column \d+\))?/.exec(message) ?? / \(line \d+ column \d+\)/.exec(message);
  const at = /position (\d+)/.exec(position?.[0] ?? '')?.[1];
  if (!position || at === undefined) return message;
  return message.replace(position[0], ` at byte ${base + Buffer.byteLength(text.slice(0, Number(at)))}`);
}
