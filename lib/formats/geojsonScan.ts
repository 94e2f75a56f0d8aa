// Finds the pieces of a GeoJSON FeatureCollection in its bytes without parsing them: the text
// of each top-level member and of each feature, and each feature's "id". The GeoJSON import then
// parses one feature at a time (JSON.parse on its text), so a 15 MB file never becomes one
// object tree. Only structure is looked at here (strings, brackets, separators); JSON.parse
// checks everything inside the pieces. A FeatureCollection is one object, so the structure
// between the pieces is all there is to check.
//
// Why not a streaming JSON library: the ones on npm tokenise every value in JavaScript, several
// times slower than JSON.parse; cutting at the structure and leaving the values to JSON.parse
// keeps the engine's speed.

/** The file is not JSON, or not in the shape this scanner takes (then the caller parses it whole). */
export class ScanFailure extends Error {
  override name = 'ScanFailure';
}

export interface ScannedCollection {
  /** Top-level members other than the features list: key → [start, end) of the value text. */
  members: Map<string, [number, number]>;
  /** The object has a "features" member that is a list (its features are below). */
  featuresList: boolean;
  /** [start, end) of each feature's text, flattened: start of feature i at 2i, end at 2i + 1. */
  featureSpans: number[];
  /** Each feature's "id" value as in the file (undefined: none, or the feature is no object). */
  featureIds: unknown[];
}

const SPACE = 0x20;
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_LIST = 0x5b;
const CLOSE_LIST = 0x5d;
const LETTER_I = 0x69;
const LETTER_D = 0x64;

class Cursor {
  at: number;
  constructor(
    private readonly bytes: Buffer,
    start: number,
  ) {
    this.at = start;
  }

  peek(): number {
    if (this.at >= this.bytes.length) throw new ScanFailure('the file ends too early');
    return this.bytes[this.at] as number;
  }

  get done(): boolean {
    return this.at >= this.bytes.length;
  }

  space(): void {
    const bytes = this.bytes;
    let at = this.at;
    for (let c = bytes[at]; c === SPACE || c === LF || c === CR || c === TAB; c = bytes[++at]);
    this.at = at;
  }

  expect(byte: number): void {
    if (this.peek() !== byte) throw new ScanFailure(`expected ${String.fromCharCode(byte)}`);
    this.at++;
  }

  /** Moves past a string (the cursor is on its opening quote). */
  string(): void {
    const bytes = this.bytes;
    let at = this.at + 1;
    for (;;) {
      const quote = bytes.indexOf(QUOTE, at);
      if (quote === -1) throw new ScanFailure('unterminated string');
      // The quote is escaped when an odd number of backslashes stands before it.
      let slashes = 0;
      while (bytes[quote - 1 - slashes] === BACKSLASH) slashes++;
      at = quote + 1;
      if (slashes % 2 === 0) break;
    }
    this.at = at;
  }

  /** Moves past any one value. */
  value(): void {
    const bytes = this.bytes;
    const first = this.peek();
    if (first === QUOTE) return this.string();
    if (first === OPEN_OBJECT || first === OPEN_LIST) {
      let depth = 0;
      for (;;) {
        const c = this.peek();
        if (c === QUOTE) {
          this.string();
          continue;
        }
        this.at++;
        if (c === OPEN_OBJECT || c === OPEN_LIST) depth++;
        else if ((c === CLOSE_OBJECT || c === CLOSE_LIST) && --depth === 0) return;
      }
    }
    // A number, true, false or null: up to the next separator.
    const start = this.at;
    let at = start;
    for (let c = bytes[at]; c !== undefined && c !== COMMA && c !== CLOSE_OBJECT && c !== CLOSE_LIST && c !== SPACE && c !== LF && c !== CR && c !== TAB; c = bytes[++at]);
    if (at === start) throw new ScanFailure('expected a value');
    this.at = at;
  }

  /**
   * Walks the members of the object the cursor is on: for each, `member` gets where its key's
   * text starts and ends and must move past the value (the cursor is on it).
   */
  members(member: (keyStart: number, keyEnd: number) => void): void {
    this.expect(OPEN_OBJECT);
    this.space();
    if (this.peek() === CLOSE_OBJECT) {
      this.at++;
      return;
    }
    for (;;) {
      if (this.peek() !== QUOTE) throw new ScanFailure('expected a key');
      const keyStart = this.at;
      this.string();
      const keyEnd = this.at;
      this.space();
      this.expect(COLON);
      this.space();
      member(keyStart, keyEnd);
      this.space();
      if (this.peek() === COMMA) {
        this.at++;
        this.space();
        continue;
      }
      this.expect(CLOSE_OBJECT);
      return;
    }
  }

  /** The key whose text (quotes included) runs from start to end. */
  keyText(start: number, end: number): string {
    return JSON.parse(this.bytes.toString('utf8', start, end)) as string;
  }

  /** Moves past one feature and returns the text of its "id" value, if it is an object that has one. */
  feature(): [number, number] | undefined {
    if (this.peek() !== OPEN_OBJECT) {
      this.value();
      return undefined;
    }
    let id: [number, number] | undefined;
    this.members((keyStart, keyEnd) => {
      const valueStart = this.at;
      this.value();
      // The last "id" counts, as in JSON.parse.
      if (this.isId(keyStart, keyEnd)) id = [valueStart, this.at];
    });
    return id;
  }

  /** Whether a key is "id": the bytes "id" exactly, or a key with escapes that reads "id". */
  private isId(start: number, end: number): boolean {
    const bytes = this.bytes;
    if (end - start === 4) return bytes[start + 1] === LETTER_I && bytes[start + 2] === LETTER_D;
    return bytes.subarray(start, end).includes(BACKSLASH) && this.keyText(start, end) === 'id';
  }
}

/**
 * Cuts a JSON object into its members, and its "features" list (when it is a list) into
 * features. Returns null when the text is not an object (the caller parses it whole for the
 * right message). Throws ScanFailure when the structure is broken.
 */
export function scanFeatureCollection(bytes: Buffer, start: number): ScannedCollection | null {
  const cursor = new Cursor(bytes, start);
  cursor.space();
  if (cursor.done || cursor.peek() !== OPEN_OBJECT) return null;
  const members = new Map<string, [number, number]>();
  let featureSpans: number[] = [];
  let featureIds: unknown[] = [];
  let featuresList = false;
  cursor.members((keyStart, keyEnd) => {
    const key = cursor.keyText(keyStart, keyEnd);
    const valueStart = cursor.at;
    if (key === 'features' && cursor.peek() === OPEN_LIST) {
      ({ featureSpans, featureIds } = scanFeatures(cursor, bytes));
      featuresList = true;
      members.delete(key);
    } else {
      cursor.value();
      members.set(key, [valueStart, cursor.at]);
      // A later "features" that is no list wins, as in JSON.parse.
      if (key === 'features') featuresList = false;
    }
  });
  cursor.space();
  if (!cursor.done) throw new ScanFailure('more text after the object');
  return { members, featuresList, featureSpans, featureIds };
}

function scanFeatures(cursor: Cursor, bytes: Buffer): { featureSpans: number[]; featureIds: unknown[] } {
  const featureSpans: number[] = [];
  const featureIds: unknown[] = [];
  cursor.at++;
  cursor.space();
  if (cursor.peek() === CLOSE_LIST) {
    cursor.at++;
    return { featureSpans, featureIds };
  }
  for (;;) {
    const start = cursor.at;
    const id = cursor.feature();
    featureSpans.push(start, cursor.at);
    featureIds.push(id === undefined ? undefined : parseIdText(bytes, id));
    cursor.space();
    if (cursor.peek() === COMMA) {
      cursor.at++;
      cursor.space();
      continue;
    }
    cursor.expect(CLOSE_LIST);
    return { featureSpans, featureIds };
  }
}

function parseIdText(bytes: Buffer, [start, end]: [number, number]): unknown {
  try {
    return JSON.parse(bytes.toString('utf8', start, end));
  } catch {
    throw new ScanFailure('an id is not JSON');
  }
}
