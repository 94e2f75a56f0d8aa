// The imports' zip reader (lib/formats/zip.ts) on its own: the cases that the KMZ and spreadsheet
// tests do not reach (ZIP64, spanned archives, other encryption marks, the declared-size slack,
// names, the caller's codes and labels).
import { describe, expect, it } from 'vitest';
import { AppError } from '../../lib/errors.js';
import { DECLARED_SIZE_SLACK, ZipArchive, type ZipOptions } from '../../lib/formats/zip.js';
import { errorOf } from '../support/parsing.js';
import { makeZip, zeroBomb } from '../support/zipWriter.js';

const OPTIONS: ZipOptions = {
  label: 'TEST',
  invalidCode: 'invalid_archive',
  encryptedCode: 'encrypted_spreadsheet',
  maxEntries: 10,
  maxInflatedBytes: 1024 * 1024,
};

const open = (bytes: Uint8Array, options: Partial<ZipOptions> = {}) => new ZipArchive(bytes, { ...OPTIONS, ...options });
/** An entry's content as UTF-8 text (a byte order mark dropped). */
const readText = (zip: ZipArchive, name: string) => new TextDecoder('utf-8').decode(zip.read(name));
const openFailure = (bytes: Uint8Array, options: Partial<ZipOptions> = {}) => errorOf(() => open(bytes, options));
const readFailure = (bytes: Uint8Array, name: string, options: Partial<ZipOptions> = {}) =>
  errorOf(() => open(bytes, options).read(name));

/** The archive with its end record edited. */
function editEnd(zip: Uint8Array, edit: (end: Buffer) => void): Uint8Array {
  const bytes = Buffer.from(zip);
  edit(bytes.subarray(bytes.length - 22));
  return bytes;
}

describe('zip reader', () => {
  it('lists safe file entries in order, reads them, and keeps the first of a name', () => {
    const zip = open(
      makeZip([
        { name: 'folder/', data: '', store: true },
        { name: 'folder\\a.txt', data: 'a' },
        { name: 'b.txt', data: '\uFEFFbee', store: true },
        { name: 'folder/a.txt', data: 'second a' },
        { name: '../up.txt', data: 'x' },
        { name: '/abs.txt', data: 'x' },
        { name: 'C:/drive.txt', data: 'x' },
        { name: 'nul\u0000.txt', data: 'x' },
        { name: '__proto__', data: 'proto' },
      ]),
    );
    expect(zip.names()).toEqual(['folder/a.txt', 'b.txt', '__proto__']);
    expect(readText(zip, 'folder/a.txt')).toBe('a');
    expect(readText(zip, 'b.txt')).toBe('bee');
    expect(readText(zip, '__proto__')).toBe('proto');
    expect(zip.has('toString')).toBe(false);
    expect(zip.read('constructor')).toBeUndefined();
    expect(zip.entry('hasOwnProperty')).toBeUndefined();
    expect(zip.has('../up.txt')).toBe(false);
  });

  it('returns stored entries as copies, not views of the archive', () => {
    const bytes = makeZip([{ name: 'a', data: 'abc', store: true }]);
    const content = open(bytes).read('a') as Uint8Array;
    expect(content.buffer).not.toBe(bytes.buffer);
    expect(content.byteLength).toBe(content.buffer.byteLength);
  });

  it('finds the end record behind a comment', () => {
    const zip = makeZip([{ name: 'a', data: 'abc' }]);
    const comment = Buffer.from('a comment PK\u0005\u0006 with a false end signature');
    const bytes = Buffer.concat([editEnd(zip, (end) => end.writeUInt16LE(comment.length, 20)), comment]);
    expect(readText(open(bytes), 'a')).toBe('abc');
  });

  it('refuses ZIP64 and spanned archives with the caller’s code and label', () => {
    const zip = makeZip([{ name: 'a', data: 'abc' }]);
    const cases = [
      editEnd(zip, (end) => end.writeUInt16LE(0xffff, 10)),
      editEnd(zip, (end) => end.writeUInt32LE(0xffffffff, 16)),
      makeZip([{ name: 'a', data: 'abc', size: 0xffffffff }]),
    ];
    const locator = Buffer.alloc(20);
    locator.writeUInt32LE(0x07064b50, 0);
    cases.push(Buffer.concat([zip.subarray(0, zip.length - 22), locator, zip.subarray(zip.length - 22)]));
    for (const bytes of cases) {
      const error = openFailure(bytes);
      expect(error.code).toBe('invalid_archive');
      expect(error.message).toBe('the TEST file is a ZIP64 archive, which is not supported');
    }
    const spanned = openFailure(editEnd(zip, (end) => end.writeUInt16LE(1, 4)), { invalidCode: 'invalid_spreadsheet' });
    expect(spanned.code).toBe('invalid_spreadsheet');
    expect(spanned.message).toMatch(/^the TEST file is a multi-part \(spanned\) zip archive/);
  });

  it('refuses every mark of encryption when the directory is read, even on entries never read', () => {
    for (const entry of [{ flags: 0x0801 }, { flags: 0x0840 }, { method: 99 }]) {
      const bytes = makeZip([{ name: 'plain', data: 'x' }, { name: 'secret', data: 'x', ...entry }]);
      const error = openFailure(bytes);
      expect(error.code).toBe('encrypted_spreadsheet');
      expect(error.message).toMatch(/encrypted entry \("secret"\)/);
      expect(openFailure(bytes, { encryptedCode: undefined }).code).toBe('invalid_archive');
    }
  });

  it('counts every entry of the directory against the cap, folders and unsafe names too', () => {
    const entries = Array.from({ length: 11 }, (_, index) => ({ name: index % 2 === 0 ? `../x${index}` : `d${index}/`, data: '' }));
    const error = openFailure(makeZip(entries));
    expect(error.code).toBe('archive_too_large');
    expect(error.message).toBe('the TEST archive has 11 entries; at most 10 are allowed');
    expect(open(makeZip(entries.slice(0, 10))).names()).toEqual([]);
  });

  it('refuses a stored entry whose sizes disagree, and unknown methods only when read', () => {
    const stored = readFailure(makeZip([{ name: 'a', data: 'abc', store: true, size: 2 }]), 'a');
    expect(stored.code).toBe('invalid_archive');
    expect(stored.message).toMatch(/^the TEST file is not a readable zip archive: the stored entry "a" has inconsistent sizes/);
    const bytes = makeZip([{ name: 'ok', data: 'fine' }, { name: 'lzma', data: 'x', method: 14 }]);
    expect(readText(open(bytes), 'ok')).toBe('fine');
    expect(readFailure(bytes, 'lzma').message).toMatch(/compression method 14; only stored and deflated/);
  });

  it('reports an entry a little longer than declared as damaged, a much longer one as a zip bomb', () => {
    const text = 'x'.repeat(1000); // within the slack
    expect(text.length).toBeLessThan(10 + DECLARED_SIZE_SLACK);
    const longer = readFailure(makeZip([{ name: 'a', data: text, size: 10 }]), 'a');
    expect(longer.code).toBe('invalid_archive');
    expect(longer.message).toMatch(/is not the size the archive declares/);
    const shorter = readFailure(makeZip([{ name: 'a', data: text, size: 2000 }]), 'a');
    expect(shorter.code).toBe('invalid_archive');
    // 1 MB of zeros, far past 10 bytes + the slack.
    const bomb = readFailure(makeZip([{ name: 'a', deflated: zeroBomb(1), size: 10, crc: 0 }]), 'a');
    expect(bomb.code).toBe('archive_too_large');
    expect(bomb.message).toMatch(/inflates to more than the size it declares/);
  });

  it('shares one budget between reads, and names small budgets in bytes', () => {
    const bytes = makeZip([
      { name: 'a', data: 'a'.repeat(600) },
      { name: 'b', aliasOf: 'a' },
    ]);
    const zip = open(bytes, { maxInflatedBytes: 1000 });
    expect(zip.read('a')).toHaveLength(600);
    const error = errorOf(() => zip.read('b'));
    expect(error.code).toBe('archive_too_large');
    expect(error.message).toBe('the TEST archive inflates to more than 1000 bytes');
    // The declared size fits, the data does not: zlib stops at the budget.
    const lying = readFailure(makeZip([{ name: 'a', data: 'a'.repeat(5000), size: 900 }]), 'a', { maxInflatedBytes: 1000 });
    expect(lying.code).toBe('archive_too_large');
    expect(lying.message).toBe('the TEST archive inflates to more than 1000 bytes');
  });

  it('applies a ratio cap only when the caller sets one', () => {
    const bytes = makeZip([{ name: 'a', data: Buffer.alloc(512 * 1024) }]);
    expect(open(bytes).read('a')).toHaveLength(512 * 1024);
    const capped = readFailure(bytes, 'a', { maxRatio: 100, ratioAllowance: 64 * 1024 });
    expect(capped.code).toBe('archive_too_large');
    expect(capped.message).toMatch(/"a" inflates to more than 100 times its compressed size/);
    expect(open(bytes, { maxRatio: 100, ratioAllowance: 1024 * 1024 }).read('a')).toHaveLength(512 * 1024);
  });

  it('refuses entries whose local header is not where the directory says', () => {
    const bytes = Buffer.from(makeZip([{ name: 'a', data: 'abc' }]));
    bytes.writeUInt32LE(0, 0);
    const error = readFailure(bytes, 'a');
    expect(error.code).toBe('invalid_archive');
    expect(error.message).toMatch(/the entry "a" is missing or damaged/);
  });

  it('reads an entry in pieces with the same content and the same refusals as whole', async () => {
    const whole = (bytes: Uint8Array, options: Partial<ZipOptions>) => {
      try {
        return Buffer.from(open(bytes, options).read('a')!).toString('latin1');
      } catch (error) {
        return { code: (error as AppError).code, message: (error as AppError).message };
      }
    };
    const inPieces = async (bytes: Uint8Array, options: Partial<ZipOptions>) => {
      try {
        const zip = open(bytes, options);
        const parts: Buffer[] = [];
        for await (const piece of zip.readPieces(zip.entry('a')!, 1000)) parts.push(Buffer.from(piece));
        return Buffer.concat(parts).toString('latin1');
      } catch (error) {
        return { code: (error as AppError).code, message: (error as AppError).message };
      }
    };
    const varied = Array.from({ length: 20_000 }, (_, index) => String.fromCharCode(32 + ((index * 7919) % 90))).join('');
    const cases: [Uint8Array, Partial<ZipOptions>][] = [
      [makeZip([{ name: 'a', data: varied }]), {}],
      [makeZip([{ name: 'a', data: varied, store: true }]), {}],
      [makeZip([{ name: 'a', data: 'x'.repeat(1000), size: 10 }]), {}],
      [makeZip([{ name: 'a', data: 'x'.repeat(1000), size: 2000 }]), {}],
      [makeZip([{ name: 'a', deflated: zeroBomb(1), size: 10, crc: 0 }]), {}],
      [makeZip([{ name: 'a', data: varied, crc: 1 }]), {}],
      [makeZip([{ name: 'a', data: 'a'.repeat(5000), size: 900 }]), { maxInflatedBytes: 1000 }],
      [makeZip([{ name: 'a', data: Buffer.alloc(512 * 1024) }]), { maxRatio: 100, ratioAllowance: 64 * 1024 }],
      [makeZip([{ name: 'a', data: 'x', method: 14 }]), {}],
    ];
    const outcomes = [];
    for (const [bytes, options] of cases) {
      const expected = whole(bytes, options);
      expect(await inPieces(bytes, options)).toEqual(expected);
      outcomes.push(typeof expected === 'string' ? expected.length : expected.code);
    }
    expect(outcomes).toEqual([
      20_000,
      20_000,
      'invalid_archive',
      'invalid_archive',
      'archive_too_large',
      'invalid_archive',
      'archive_too_large',
      'archive_too_large',
      'invalid_archive',
    ]);
    // Damaged deflate data: both ways say it cannot be inflated.
    const damaged = await inPieces(makeZip([{ name: 'a', deflated: new Uint8Array([0xff, 0xff, 0xff, 0xff]), size: 10, crc: 0 }]), {});
    expect(damaged).toMatchObject({ code: 'invalid_archive', message: expect.stringMatching(/the entry "a" cannot be inflated/) });
  });

  it('charges what a piecewise read inflated to the budget, also when the reader stops early', async () => {
    const bytes = makeZip([
      { name: 'a', data: 'a'.repeat(600_000) },
      { name: 'b', data: 'b'.repeat(600_000) },
    ]);
    // a's first piece (zlib hands out 256 kB at a time) and all of b do not fit in 800 kB.
    const zip = open(bytes, { maxInflatedBytes: 800_000 });
    for await (const piece of zip.readPieces(zip.entry('a')!, 64 * 1024)) {
      expect(piece.length).toBeGreaterThan(0);
      break;
    }
    const error = await (async () => {
      try {
        for await (const _piece of zip.readPieces(zip.entry('b')!)) {
          // read on
        }
      } catch (caught) {
        return caught as AppError;
      }
      throw new Error('expected the budget to run out');
    })();
    expect(error.code).toBe('archive_too_large');
  });
});
