// Strict JSON read straight from UTF-8 bytes, for the parts of a large GeoJSON file that are
// read without JSON.parse (a large geometry's coordinates): white space, numbers, and skipping
// any value with the full grammar checked. Containers are skipped with an explicit stack, so
// deep nesting cannot overflow the call stack.

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
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;

const NONE: ReadonlySet<string> = new Set();

/** The bytes are not JSON; the message says where (bytes from the start of the file). */
export class JsonSyntaxError extends Error {
  override name = 'JsonSyntaxError';
}

const isDigit = (byte: number | undefined): boolean => byte !== undefined && byte >= ZERO && byte <= NINE;

/** 10^0 … 10^22: every one exact in a double. */
const POWERS_OF_TEN = Array.from({ length: 23 }, (_, n) => 10 ** n);

export class JsonBytes {
  /** Values members() went past by their brackets only, not yet read and checked by a reader. */
  private readonly unchecked = new Set<number>();

  constructor(
    readonly bytes: Uint8Array,
    /** Where bytes[0] is in the file, for messages. */
    private readonly base: number,
  ) {}

  fail(at: number, expected: string): never {
    if (at >= this.bytes.length) throw new JsonSyntaxError(`the text ends where ${expected} should be`);
    const byte = this.bytes[at]!;
    const shown = byte >= 0x20 && byte < 0x7f ? `"${String.fromCharCode(byte)}"` : `byte 0x${byte.toString(16).padStart(2, '0')}`;
    throw new JsonSyntaxError(`unexpected ${shown} where ${expected} should be, at byte ${this.base + at}`);
  }

  space(at: number): number {
    const bytes = this.bytes;
    for (let c = bytes[at]; c === SPACE || c === LF || c === CR || c === TAB; c = bytes[++at]);
    return at;
  }

  at(at: number): number | undefined {
    return this.bytes[at];
  }

  /** The end of the number starting at `at`, checked against JSON's grammar. */
  numberEnd(at: number): number {
    const bytes = this.bytes;
    let i = at;
    if (bytes[i] === MINUS) i++;
    if (bytes[i] === ZERO) i++;
    else if (isDigit(bytes[i])) while (isDigit(bytes[i])) i++;
    else this.fail(i, 'a digit');
    if (bytes[i] === DOT) {
      i++;
      if (!isDigit(bytes[i])) this.fail(i, 'a digit');
      while (isDigit(bytes[i])) i++;
    }
    if (bytes[i] === 0x65 || bytes[i] === 0x45) {
      i++;
      if (bytes[i] === PLUS || bytes[i] === MINUS) i++;
      if (!isDigit(bytes[i])) this.fail(i, 'a digit');
      while (isDigit(bytes[i])) i++;
    }
    return i;
  }

  /**
   * The value of the number [start, end) (checked by numberEnd): what JSON.parse makes of it,
   * Infinity past the range of doubles. Up to 15 significant digits and no exponent (almost
   * every coordinate) it is the digits as an integer divided by a power of ten: both exact in
   * a double, so the one division rounds correctly (Clinger's fast path); else Number().
   */
  numberValue(start: number, end: number): number {
    const bytes = this.bytes;
    let i = start;
    const negative = bytes[i] === MINUS;
    if (negative) i++;
    let mantissa = 0;
    let digits = 0;
    let scale = 0;
    let fraction = false;
    for (; i < end; i++) {
      const c = bytes[i]!;
      if (c === DOT) {
        fraction = true;
        continue;
      }
      if (c < ZERO || c > NINE) return this.slowNumber(start, end); // an exponent
      if (digits > 0 || c !== ZERO) digits++;
      if (fraction) scale++;
      // Past 15 significant digits the integer is not exact; past 10^22 the power is not.
      if (digits > 15 || scale > 22) return this.slowNumber(start, end);
      mantissa = mantissa * 10 + (c - ZERO);
    }
    const value = scale === 0 ? mantissa : mantissa / POWERS_OF_TEN[scale]!;
    return negative ? -value : value;
  }

  private slowNumber(start: number, end: number): number {
    return Number(Buffer.from(this.bytes.buffer, this.bytes.byteOffset + start, end - start).toString('latin1'));
  }

  stringEnd(at: number): number {
    const bytes = this.bytes;
    let i = at + 1;
    for (;;) {
      const c = bytes[i];
      if (c === undefined) this.fail(i, 'the end of a string');
      if (c === QUOTE) return i + 1;
      if (c < 0x20) this.fail(i, 'a character of a string');
      if (c === BACKSLASH) {
        const e = bytes[i + 1];
        if (e === 0x75 /* u */) {
          for (let h = 2; h < 6; h++) {
            const x = bytes[i + h];
            const hex = x !== undefined && ((x >= ZERO && x <= NINE) || (x >= 0x41 && x <= 0x46) || (x >= 0x61 && x <= 0x66));
            if (!hex) this.fail(i + h, 'a hex digit');
          }
          i += 6;
          continue;
        }
        if (e === undefined || !'"\\/bfnrt'.includes(String.fromCharCode(e))) this.fail(i + 1, 'an escape');
        i += 2;
        continue;
      }
      i++;
    }
  }

  private literalEnd(at: number): number {
    for (const word of ['true', 'false', 'null']) {
      let ok = true;
      for (let k = 0; k < word.length && ok; k++) ok = this.bytes[at + k] === word.charCodeAt(k);
      if (ok) return at + word.length;
    }
    this.fail(at, 'a value');
  }

  /** The kind of value at `at` (after white space): for messages and dispatch. */
  kind(at: number): 'list' | 'object' | 'string' | 'number' | 'literal' | 'none' {
    const c = this.bytes[at];
    if (c === OPEN_LIST) return 'list';
    if (c === OPEN_OBJECT) return 'object';
    if (c === QUOTE) return 'string';
    if (c === MINUS || isDigit(c)) return 'number';
    if (c === 0x74 || c === 0x66 || c === 0x6e) return 'literal';
    return 'none';
  }

  /** The end of the value starting at `at`, the whole of it checked. */
  valueEnd(at: number): number {
    const bytes = this.bytes;
    const stack: number[] = []; // the closing byte of each open container
    let i = at;
    for (;;) {
      // A value.
      const c = bytes[i];
      if (c === OPEN_LIST || c === OPEN_OBJECT) {
        const close = c === OPEN_LIST ? CLOSE_LIST : CLOSE_OBJECT;
        i = this.space(i + 1);
        if (bytes[i] === close) {
          i++;
        } else {
          stack.push(close);
          if (close === CLOSE_OBJECT) i = this.memberName(i);
          continue;
        }
      } else if (c === QUOTE) i = this.stringEnd(i);
      else if (c === MINUS || isDigit(c)) i = this.numberEnd(i);
      else i = this.literalEnd(i);
      // After a value: the next item of the container, or its end.
      for (;;) {
        if (stack.length === 0) return i;
        i = this.space(i);
        const close = stack[stack.length - 1]!;
        if (bytes[i] === COMMA) {
          i = this.space(i + 1);
          if (close === CLOSE_OBJECT) i = this.memberName(i);
          break;
        }
        if (bytes[i] !== close) this.fail(i, close === CLOSE_LIST ? '"," or "]"' : '"," or "}"');
        stack.pop();
        i++;
      }
    }
  }

  /** Past a member's name and colon, at its value. */
  private memberName(at: number): number {
    if (this.bytes[at] !== QUOTE) this.fail(at, 'a member name');
    let i = this.space(this.stringEnd(at));
    if (this.bytes[i] !== COLON) this.fail(i, '":"');
    i = this.space(i + 1);
    return i;
  }

  /** The text of the value at `at` (the whole value, checked). */
  valueText(at: number): string {
    return Buffer.from(this.bytes.buffer, this.bytes.byteOffset + at, this.valueEnd(at) - at).toString('utf8');
  }

  /**
   * The end of the value at `at`, found by its brackets and strings only: for a value whose
   * reader checks it afterwards (a geometry, its coordinates), so it is not checked twice.
   */
  skip(at: number): number {
    const bytes = this.bytes;
    const first = bytes[at];
    if (first !== OPEN_LIST && first !== OPEN_OBJECT) return this.valueEnd(at);
    let depth = 0;
    for (let i = at; i < bytes.length; i++) {
      const c = bytes[i]!;
      if (c === QUOTE) i = this.stringEnd(i) - 1;
      else if (c === OPEN_LIST || c === OPEN_OBJECT) depth++;
      else if ((c === CLOSE_LIST || c === CLOSE_OBJECT) && --depth === 0) return i + 1;
    }
    this.fail(bytes.length, 'the end of a list or object');
  }

  /**
   * The members of the object at `at`: name → where its value starts (the last of a repeated
   * name counts, as in JSON.parse). Every value is checked here but those named in `checkedLater`,
   * which a reader reads (`read`) or checkUnread checks.
   */
  members(at: number, checkedLater: ReadonlySet<string> = NONE): Map<string, number> {
    const members = new Map<string, number>();
    let i = this.space(at + 1);
    if (this.bytes[i] === CLOSE_OBJECT) return members;
    for (;;) {
      const nameStart = i;
      const valueStart = this.memberName(i);
      const nameEnd = this.stringEnd(nameStart);
      const name = JSON.parse(Buffer.from(this.bytes.buffer, this.bytes.byteOffset + nameStart, nameEnd - nameStart).toString('utf8')) as string;
      members.set(name, valueStart);
      if (checkedLater.has(name)) {
        this.unchecked.add(valueStart);
        i = this.space(this.skip(valueStart));
      } else i = this.space(this.valueEnd(valueStart));
      if (this.bytes[i] === COMMA) {
        i = this.space(i + 1);
        continue;
      }
      if (this.bytes[i] !== CLOSE_OBJECT) this.fail(i, '"," or "}"');
      return members;
    }
  }

  /** A reader has read the value at `at` whole, its grammar included. */
  read(at: number): void {
    this.unchecked.delete(at);
  }

  /**
   * Checks the grammar of every value members() went past that no reader read (a repeated
   * name's earlier value, a member no reader wants): JSON.parse would have refused the text.
   */
  checkUnread(): void {
    for (const at of this.unchecked) this.valueEnd(at);
    this.unchecked.clear();
  }

  /**
   * Walks the items of the list at `at` (after white space): `item` gets where each starts and
   * returns where it ends. Returns the end of the list.
   */
  items(at: number, item: (start: number, index: number) => number): number {
    let i = this.space(at + 1);
    if (this.bytes[i] === CLOSE_LIST) return i + 1;
    for (let index = 0; ; index++) {
      i = this.space(item(i, index));
      if (this.bytes[i] === COMMA) {
        i = this.space(i + 1);
        if (this.bytes[i] === CLOSE_LIST) this.fail(i, 'a value');
        continue;
      }
      if (this.bytes[i] !== CLOSE_LIST) this.fail(i, '"," or "]"');
      return i + 1;
    }
  }
}
