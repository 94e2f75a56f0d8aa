// Many short strings kept as UTF-8 bytes in one buffer, with the end of each string in a typed
// array: XLSX shared string tables (hundreds of thousands of strings) and GPX track times (one
// per point). As separate JS strings each costs about 40 bytes of heap besides its text (and a
// string sliced from a piece of a file keeps that whole piece alive); here it costs its bytes and
// four more. A string is decoded when it is asked for.
import { withoutLoneSurrogates } from '../geojson/json-data.js';

/** Most bytes and strings reserved ahead on a caller's word; beyond them the table grows as it fills. */
const MOST_RESERVED_BYTES = 32 * 1024 * 1024;
const MOST_RESERVED_STRINGS = 1024 * 1024;

export class TextTable {
  private bytes: Buffer;
  private used = 0;
  private ends = new Uint32Array(16);
  private count = 0;

  /**
   * `expectedBytes`: how many bytes the strings will take at most, when the caller knows (an XLSX
   * shared strings part is never shorter than its text: markup and references only shrink when
   * decoded). The buffer is made that size at once (up to 32 MB): pages never written take no
   * memory, and the table is not copied as it grows.
   */
  constructor(expectedBytes = 64 * 1024) {
    this.bytes = Buffer.allocUnsafe(Math.min(Math.max(expectedBytes, 64), MOST_RESERVED_BYTES));
  }

  get length(): number {
    return this.count;
  }

  /** Room for this many strings at once (a count the file declares), within reason. */
  expect(count: number): void {
    const room = Math.min(count, MOST_RESERVED_STRINGS);
    if (!Number.isInteger(count) || room <= this.ends.length) return;
    const longer = new Uint32Array(room);
    longer.set(this.ends.subarray(0, this.count));
    this.ends = longer;
  }

  add(text: string): void {
    this.reserve(text.length * 3);
    // Plain ASCII (most table text) is copied here; anything else goes through Buffer.write.
    const bytes = this.bytes;
    let at = this.used;
    let index = 0;
    for (; index < text.length; index++) {
      const code = text.charCodeAt(index);
      if (code >= 0x80) break;
      bytes[at++] = code;
    }
    if (index < text.length) {
      // UTF-8 has no lone surrogates; they are dropped, as the importers drop them from any text.
      at += bytes.write(withoutLoneSurrogates(text.slice(index)), at, 'utf8');
    }
    this.used = at;
    if (this.count === this.ends.length) {
      const longer = new Uint32Array(this.ends.length * 2);
      longer.set(this.ends);
      this.ends = longer;
    }
    this.ends[this.count++] = this.used;
  }

  /** Room for `more` bytes after the ones used. */
  private reserve(more: number): void {
    if (this.used + more <= this.bytes.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.used + more));
    this.bytes.copy(bigger, 0, 0, this.used);
    this.bytes = bigger;
  }

  /** The string at this index, or undefined when there is none. */
  get(index: number): string | undefined {
    if (!Number.isInteger(index) || index < 0 || index >= this.count) return undefined;
    const start = index === 0 ? 0 : (this.ends[index - 1] as number);
    return this.bytes.toString('utf8', start, this.ends[index]);
  }

  /** Keeps the first `count` strings only. */
  truncate(count: number): void {
    if (count >= this.count) return;
    this.count = Math.max(0, count);
    this.used = this.count === 0 ? 0 : (this.ends[this.count - 1] as number);
  }
}
