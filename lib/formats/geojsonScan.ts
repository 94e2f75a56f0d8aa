// Finds the pieces of a GeoJSON FeatureCollection in its bytes without parsing them: where the
// text of each top-level member and of each feature is in the file, and each feature's "id".
// The GeoJSON import then parses one feature at a time (JSON.parse on its text), so a 15 MB file
// never becomes one object tree, and the file is read through a window of 64 kB (more for a
// feature longer than that), so it is never in memory whole either. Only structure is looked at
// here (strings, brackets, separators); JSON.parse checks everything inside the pieces. A
// FeatureCollection is one object, so the structure between the pieces is all there is to check.
//
// Why not a streaming JSON library: the ones on npm tokenise every value in JavaScript, several
// times slower than JSON.parse; cutting at the structure and leaving the values to JSON.parse
// keeps the engine's speed.

import type { FileInput } from './input.js';

/** The file is not JSON, or not in the shape this scanner takes (then the caller parses it whole). */
export class ScanFailure extends Error {
  override name = 'ScanFailure';
}

/** The window ends before the file does: the step is run again on a larger window. */
class WindowEnd extends Error {}

/** Bytes a window shows at least (tests use a few). */
export const WINDOW_BYTES = 64 * 1024;

/** Part of the file, [base, base + bytes.length), read into a buffer that is reused as it slides. */
export class FileWindow {
  private buffer: Buffer;
  base = 0;
  bytes: Buffer;

  constructor(
    private readonly input: FileInput,
    private readonly windowBytes = WINDOW_BYTES,
  ) {
    this.buffer = Buffer.allocUnsafe(Math.min(windowBytes, Math.max(input.size, 1)));
    this.bytes = this.buffer.subarray(0, 0);
  }

  /** Whether the window reaches the end of the file. */
  get atEnd(): boolean {
    return this.base + this.bytes.length >= this.input.size;
  }

  /** Shows the file from `start` on: at least `least` bytes of it, or all the rest. */
  show(start: number, least = this.windowBytes): void {
    const wanted = Math.min(Math.max(least, this.windowBytes), this.input.size - start);
    if (wanted > this.buffer.length) this.buffer = Buffer.allocUnsafe(wanted);
    this.base = start;
    const read = this.input.readAt(start, this.buffer.subarray(0, Math.max(wanted, 0)));
    // Fewer bytes than the file's size promised (it changed): give up, never wait for more.
    if (read < wanted) throw new ScanFailure('the file is shorter than it was');
    this.bytes = this.buffer.subarray(0, read);
  }

  /** Lets the buffer go (it may have grown to a feature's length). */
  release(): void {
    this.buffer = Buffer.alloc(0);
    this.bytes = this.buffer;
  }

  /** The text of the file's bytes [start, end), moving the window there when it is elsewhere. */
  text(start: number, end: number): string {
    const bytes = this.view(start, end);
    return bytes.toString('utf8');
  }

  /** The file's bytes [start, end), moving the window there when it is elsewhere (valid until the window moves). */
  view(start: number, end: number): Buffer {
    if (start < this.base || end > this.base + this.bytes.length) this.show(start, end - start);
    return this.bytes.subarray(start - this.base, end - this.base);
  }
}

export interface ScannedCollection {
  /** Top-level members other than the features list: key → [start, end) of the value text in the file. */
  members: Map<string, [number, number]>;
  /** The object has a "features" member that is a list (its features are below). */
  featuresList: boolean;
  /** [start, end) of each feature's text in the file, flattened: start of feature i at 2i, end at 2i + 1. */
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
  /** Where the cursor is in the window's bytes. */
  at = 0;

  constructor(private readonly window: FileWindow) {}

  private get bytes(): Buffer {
    return this.window.bytes;
  }

  /** Where the cursor is in the file. */
  get position(): number {
    return this.window.base + this.at;
  }

  /** Moves the window to start at `position` (at least `least` bytes) and the cursor there. */
  moveTo(position: number, least?: number): void {
    this.window.show(position, least);
    this.at = 0;
  }

  /** The end of the window: the end of the file (a failure) or of what is read so far (read more). */
  private windowEnd(problem: string): Error {
    return this.window.atEnd ? new ScanFailure(problem) : new WindowEnd();
  }

  peek(): number {
    if (this.at >= this.bytes.length) throw this.windowEnd('the file ends too early');
    return this.bytes[this.at] as number;
  }

  /** Whether the cursor is at the end of the file (or of the window, which is then made larger). */
  get done(): boolean {
    if (this.at < this.bytes.length) return false;
    if (!this.window.atEnd) throw new WindowEnd();
    return true;
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
      if (quote === -1) throw this.windowEnd('unterminated string');
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
    if (at === bytes.length && !this.window.atEnd) throw new WindowEnd(); // the value may go on
    if (at === start) throw new ScanFailure('expected a value');
    this.at = at;
  }

  /**
   * Walks the members of the object the cursor is on: for each, `member` gets where its key's
   * text starts and ends and must move past the value (the cursor is on it).
   */
  members(member: (keyStart: number, keyEnd: number) => void): void {
    for (let closed = this.opens(OPEN_OBJECT, CLOSE_OBJECT); !closed; ) {
      const [keyStart, keyEnd] = this.key();
      member(keyStart, keyEnd);
      closed = this.endOfItem(CLOSE_OBJECT);
    }
  }

  /** Moves past an opening bracket and the space after it; true when the object or list is empty (its end passed too). */
  opens(open: number, close: number): boolean {
    this.expect(open);
    this.space();
    if (this.peek() !== close) return false;
    this.at++;
    return true;
  }

  /** Moves past a key and its colon (and the space after it); returns where the key's text is. */
  key(): [number, number] {
    if (this.peek() !== QUOTE) throw new ScanFailure('expected a key');
    const keyStart = this.at;
    this.string();
    const keyEnd = this.at;
    this.space();
    this.expect(COLON);
    this.space();
    return [keyStart, keyEnd];
  }

  /** Moves past the separator after a member or element: false after a comma (more follow), true after `close`. */
  endOfItem(close: number): boolean {
    this.space();
    if (this.peek() === COMMA) {
      this.at++;
      this.space();
      return false;
    }
    this.expect(close);
    return true;
  }

  /** The key whose text (quotes included) runs from start to end of the window's bytes. */
  keyText(start: number, end: number): string {
    try {
      return JSON.parse(this.bytes.toString('utf8', start, end)) as string;
    } catch {
      throw new ScanFailure('a key is not a JSON string'); // a bad escape: the whole parse says where
    }
  }

  /** Moves past one feature and returns the value of its "id", if it is an object that has one. */
  feature(): unknown {
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
    return id === undefined ? undefined : this.idValue(id);
  }

  /** Whether a key is "id": the bytes "id" exactly, or a key with escapes that reads "id". */
  private isId(start: number, end: number): boolean {
    const bytes = this.bytes;
    if (end - start === 4) return bytes[start + 1] === LETTER_I && bytes[start + 2] === LETTER_D;
    return bytes.subarray(start, end).includes(BACKSLASH) && this.keyText(start, end) === 'id';
  }

  private idValue([start, end]: [number, number]): unknown {
    try {
      return JSON.parse(this.bytes.toString('utf8', start, end));
    } catch {
      throw new ScanFailure('an id is not JSON');
    }
  }
}

/**
 * Runs one step of the scan from where the cursor is; when the step reaches the end of the
 * window before the end of the file, shows twice as much of the file from the same place and
 * runs the step again (a step is one member or one feature, so nothing is read over and over).
 */
function step<T>(cursor: Cursor, window: FileWindow, run: () => T): T {
  const from = cursor.position;
  for (;;) {
    try {
      return run();
    } catch (error) {
      if (!(error instanceof WindowEnd)) throw error;
      cursor.moveTo(from, 2 * (window.base + window.bytes.length - from));
    }
  }
}

/**
 * Cuts a JSON object into its members, and its "features" list (when it is a list) into
 * features. Returns null when the text is not an object (the caller parses it whole for the
 * right message). Throws ScanFailure when the structure is broken.
 */
export function scanFeatureCollection(window: FileWindow, start: number): ScannedCollection | null {
  const cursor = new Cursor(window);
  cursor.moveTo(start);
  const isObject = step(cursor, window, () => {
    cursor.space();
    return !cursor.done && cursor.peek() === OPEN_OBJECT;
  });
  if (!isObject) return null;
  const members = new Map<string, [number, number]>();
  let featureSpans: number[] = [];
  let featureIds: unknown[] = [];
  let featuresList = false;
  for (let closed = step(cursor, window, () => cursor.opens(OPEN_OBJECT, CLOSE_OBJECT)); !closed; ) {
    const member = step(cursor, window, () => {
      cursor.space();
      const [keyStart, keyEnd] = cursor.key();
      const key = cursor.keyText(keyStart, keyEnd);
      if (key === 'features' && cursor.peek() === OPEN_LIST) return { key };
      const valueStart = cursor.position;
      cursor.value();
      return { key, span: [valueStart, cursor.position] as [number, number] };
    });
    if (member.span === undefined) {
      ({ featureSpans, featureIds } = scanFeatures(cursor, window));
      featuresList = true;
      members.delete(member.key);
    } else {
      members.set(member.key, member.span);
      // A later "features" that is no list wins, as in JSON.parse.
      if (member.key === 'features') featuresList = false;
    }
    closed = step(cursor, window, () => cursor.endOfItem(CLOSE_OBJECT));
  }
  step(cursor, window, () => {
    cursor.space();
    if (!cursor.done) throw new ScanFailure('more text after the object');
  });
  return { members, featuresList, featureSpans, featureIds };
}

function scanFeatures(cursor: Cursor, window: FileWindow): { featureSpans: number[]; featureIds: unknown[] } {
  const featureSpans: number[] = [];
  const featureIds: unknown[] = [];
  for (let closed = step(cursor, window, () => cursor.opens(OPEN_LIST, CLOSE_LIST)); !closed; ) {
    const feature = step(cursor, window, () => {
      cursor.space(); // what the last step could not see of the space after the comma
      const start = cursor.position;
      const id = cursor.feature();
      const end = cursor.position;
      return { start, end, id, closed: cursor.endOfItem(CLOSE_LIST) };
    });
    featureSpans.push(feature.start, feature.end);
    featureIds.push(feature.id);
    closed = feature.closed;
  }
  return { featureSpans, featureIds };
}
