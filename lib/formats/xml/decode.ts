// Turns the bytes of an uploaded XML file into text: byte order marks (UTF-8, UTF-16), UTF-16
// without a mark, and the encoding an XML declaration names (ISO-8859-1, windows-1252, …, through
// TextDecoder). Broken text and NUL characters are refused, never repaired.
import { fixWindows1252 } from '../windows1252.js';
import { AppError } from '../../errors.js';
import { asInput, byteOrderMark, PIECE_BYTES, type ParserInput } from '../input.js';

/** Labels that mean UTF-16 (a declaration saying so without a BOM is usually a converted UTF-8 file). */
const UTF16_LABELS = new Set(['utf-16', 'utf-16le', 'utf-16be', 'ucs-2', 'iso-10646-ucs-2', 'unicode']);
const UTF8_LABELS = new Set(['utf-8', 'utf8', 'unicode-1-1-utf-8']);

/** Line (1-based) of a character offset, for messages. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let at = text.indexOf('\n'); at !== -1 && at < offset; at = text.indexOf('\n', at + 1)) line++;
  return line;
}

/** The encoding label an XML declaration at the start of ASCII-compatible bytes names, lower case. */
function declaredEncoding(bytes: Uint8Array): string | undefined {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 256)).toString('latin1');
  const match = /^<\?xml\s[^>]*?\bencoding\s*=\s*(["'])([A-Za-z][A-Za-z0-9._:-]*)\1/.exec(head);
  return match?.[2]?.toLowerCase();
}

function detectEncoding(bytes: Uint8Array): string {
  const [b0, b1, b2, b3] = bytes;
  if ((b0 === 0xff && b1 === 0xfe && b2 === 0 && b3 === 0) || (b0 === 0 && b1 === 0 && b2 === 0xfe && b3 === 0xff)) {
    throw new AppError('invalid_file', 'the file is UTF-32 text, which is not supported; save it as UTF-8');
  }
  const marked = byteOrderMark(bytes);
  if (marked !== undefined) return marked;
  // UTF-16 without a byte order mark: "<?" as two 16-bit units.
  if (b0 === 0x3c && b1 === 0 && b2 === 0x3f && b3 === 0) return 'utf-16le';
  if (b0 === 0 && b1 === 0x3c && b2 === 0 && b3 === 0x3f) return 'utf-16be';
  const declared = declaredEncoding(bytes);
  if (declared === undefined || UTF8_LABELS.has(declared) || UTF16_LABELS.has(declared)) return 'utf-8';
  return declared;
}

/**
 * Decodes an XML file's bytes piece by piece (the byte order mark is dropped). Throws
 * AppError('invalid_file') for an empty file, an unknown encoding, bytes that are not valid in
 * the encoding, or NUL characters. `what` names the format in messages ("KML file").
 */
export function* decodeXmlChunks(file: ParserInput, what: string, pieceBytes = PIECE_BYTES): Generator<string> {
  const input = asInput(file);
  if (input.size === 0) throw new AppError('invalid_file', `the ${what} is empty`);
  const encoding = detectEncoding(input.head);
  let decoder: InstanceType<typeof TextDecoder>;
  try {
    decoder = new TextDecoder(encoding, { fatal: true });
  } catch {
    throw new AppError(
      'invalid_file',
      `the ${what} declares the encoding ${JSON.stringify(encoding.slice(0, 40))}, which is not supported; save it as UTF-8`,
    );
  }
  let linesBefore = 0;
  let blank = true;
  const pieces = input.pieces(pieceBytes)[Symbol.iterator]();
  for (let done = false; !done; ) {
    const next = pieces.next();
    done = next.done === true;
    let text: string;
    try {
      // The last call (no bytes) ends the stream: a sequence cut off at the end is an error.
      text = done ? decoder.decode() : decoder.decode(next.value, { stream: true });
    } catch {
      const name = decoder.encoding === 'utf-8' ? 'UTF-8' : decoder.encoding;
      throw new AppError(
        'invalid_file',
        decoder.encoding === 'utf-8'
          ? `the ${what} is not valid UTF-8 text; save it as UTF-8 or name its encoding in the XML declaration`
          : `the ${what} is not valid ${name} text`,
      );
    }
    if (decoder.encoding === 'windows-1252') text = fixWindows1252(text);
    const nul = text.indexOf('\u0000');
    if (nul !== -1) {
      throw new AppError('invalid_file', `the ${what} contains a NUL character (line ${linesBefore + lineAt(text, nul)}); it is not a text file`);
    }
    if (blank && /\S/.test(text)) blank = false;
    for (let line = text.indexOf('\n'); line !== -1; line = text.indexOf('\n', line + 1)) linesBefore++;
    if (text !== '') yield text;
  }
  if (blank) throw new AppError('invalid_file', `the ${what} is empty`);
}
