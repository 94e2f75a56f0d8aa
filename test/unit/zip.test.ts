// The imports' zip reader (lib/formats/zip.ts, on yauzl) on its own: the cases that the KMZ and
// spreadsheet tests do not reach (ZIP64, spanned archives, other encryption marks, the
// declared-size slack, names, the caller's codes and labels).
import { crc32, deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../lib/errors.js';
import { DECLARED_SIZE_SLACK, ZipArchive, type ZipOptions } from '../../lib/formats/zip.js';
import { makeZip, zeroBomb } from '../support/zipWriter.js';

const OPTIONS: ZipOptions = {
  label: 'TEST',
  invalidCode: 'invalid_archive',
  encryptedCode: 'encrypted_spreadsheet',
  maxEntries: 10,
  maxInflatedBytes: 1024 * 1024,
};

const open = (bytes: Uint8Array, options: Partial<ZipOptions> = {}) => ZipArchive.open(bytes, { ...OPTIONS, ...options });
/** An entry's content as UTF-8 text (a byte order mark dropped). */
const readText = (zip: ZipArchive, name: string) => new TextDecoder('utf-8').decode(zip.read(name));

/** The AppError `run` fails with; fails the test when it fails otherwise or not at all. */
async function errorOf(run: () => unknown): Promise<AppError> {
  try {
    await run();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error('expected a failure');
}
const openFailure = (bytes: Uint8Array, options: Partial<ZipOptions> = {}) => errorOf(() => open(bytes, options));
const readFailure = (bytes: Uint8Array, name: string, options: Partial<ZipOptions> = {}) =>
  errorOf(async () => (await open(bytes, options)).read(name));

/** The archive with its end record edited. */
function editEnd(zip: Uint8Array, edit: (end: Buffer) => void): Uint8Array {
  const bytes = Buffer.from(zip);
  edit(bytes.subarray(bytes.length - 22));
  return bytes;
}

/**
 * A ZIP64 archive (what zip tools write past 4 GB or 65,535 entries): the sizes and offsets of
 * its entries in ZIP64 extra fields, its entry count and directory in the ZIP64 end records.
 */
function makeZip64(entries: { name: string; data: Buffer; store?: boolean; size?: number }[]): Uint8Array {
  const u64 = (value: number) => {
    const field = Buffer.alloc(8);
    field.writeBigUInt64LE(BigInt(value));
    return field;
  };
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const { name, data, store, size } of entries) {
    const body = store ? data : deflateRawSync(data);
    const fileName = Buffer.from(name, 'utf8');
    const fields = (header: Buffer, at: number, extraLength: number) => {
      header.writeUInt16LE(45, at); // version needed: ZIP64
      header.writeUInt16LE(0x0800, at + 2);
      header.writeUInt16LE(store ? 0 : 8, at + 4);
      header.writeUInt32LE(crc32(data), at + 10);
      header.writeUInt32LE(0xffffffff, at + 14);
      header.writeUInt32LE(0xffffffff, at + 18);
      header.writeUInt16LE(fileName.length, at + 22);
      header.writeUInt16LE(extraLength, at + 24);
    };
    const sizes = [u64(size ?? data.length), u64(body.length)];
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    fields(local, 4, 20);
    const localExtra = Buffer.concat([Buffer.from([1, 0, 16, 0]), ...sizes]);
    locals.push(local, fileName, localExtra, body);
    const record = Buffer.alloc(46);
    record.writeUInt32LE(0x02014b50, 0);
    record.writeUInt16LE(45, 4);
    fields(record, 6, 28);
    record.writeUInt32LE(0xffffffff, 42);
    central.push(record, fileName, Buffer.concat([Buffer.from([1, 0, 24, 0]), ...sizes, u64(offset)]));
    offset += local.length + fileName.length + localExtra.length + body.length;
  }
  const directory = Buffer.concat(central);
  const end64 = Buffer.alloc(56);
  end64.writeUInt32LE(0x06064b50, 0);
  end64.writeBigUInt64LE(44n, 4);
  end64.writeUInt16LE(45, 12);
  end64.writeUInt16LE(45, 14);
  end64.writeBigUInt64LE(BigInt(entries.length), 24);
  end64.writeBigUInt64LE(BigInt(entries.length), 32);
  end64.writeBigUInt64LE(BigInt(directory.length), 40);
  end64.writeBigUInt64LE(BigInt(offset), 48);
  const locator = Buffer.alloc(20);
  locator.writeUInt32LE(0x07064b50, 0);
  locator.writeBigUInt64LE(BigInt(offset + directory.length), 8);
  locator.writeUInt32LE(1, 16);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(0xffff, 8);
  end.writeUInt16LE(0xffff, 10);
  end.writeUInt32LE(0xffffffff, 12);
  end.writeUInt32LE(0xffffffff, 16);
  return Buffer.concat([...locals, directory, end64, locator, end]);
}

/** An entry read piece by piece, as latin1 text. */
async function readInPieces(zip: ZipArchive, name: string, pieceBytes?: number): Promise<string> {
  const parts: Buffer[] = [];
  for await (const piece of zip.readPieces(zip.entry(name)!, pieceBytes)) parts.push(Buffer.from(piece));
  return Buffer.concat(parts).toString('latin1');
}

describe('zip reader', () => {
  it('lists safe file entries in order, reads them, and keeps the first of a name', async () => {
    const zip = await open(
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

  it('returns stored entries as copies, not views of the archive', async () => {
    const bytes = makeZip([{ name: 'a', data: 'abc', store: true }]);
    const content = (await open(bytes)).read('a') as Uint8Array;
    expect(content.buffer).not.toBe(bytes.buffer);
    expect(content.byteLength).toBe(content.buffer.byteLength);
  });

  it('finds the end record behind a comment, and refuses one that does not end the file', async () => {
    const zip = makeZip([{ name: 'a', data: 'abc' }]);
    const comment = Buffer.from('a comment');
    const bytes = Buffer.concat([editEnd(zip, (end) => end.writeUInt16LE(comment.length, 20)), comment]);
    expect(readText(await open(bytes), 'a')).toBe('abc');
    // yauzl takes the last end signature in the file: a false one in the comment, or data after
    // the end record, makes the archive unreadable.
    const falseEnd = Buffer.from('a comment PK\u0005\u0006 with a false end signature');
    for (const damaged of [
      Buffer.concat([editEnd(zip, (end) => end.writeUInt16LE(falseEnd.length, 20)), falseEnd]),
      Buffer.concat([zip, Buffer.from('trailing bytes')]),
    ]) {
      const error = await openFailure(damaged);
      expect(error.code).toBe('invalid_archive');
      expect(error.message).toBe('the TEST file is not a readable zip archive: its end record is damaged, or followed by other data');
    }
  });

  it('reads ZIP64 archives, within the same limits', async () => {
    const varied = Buffer.from(Array.from({ length: 20_000 }, (_, index) => String.fromCharCode(32 + ((index * 7919) % 90))).join(''));
    const bytes = makeZip64([
      { name: 'stored.txt', data: Buffer.from('plain'), store: true },
      { name: 'deflated.txt', data: varied },
      { name: 'huge.txt', data: Buffer.from('small'), store: true, size: 5 * 2 ** 30 },
    ]);
    const zip = await open(bytes);
    expect(zip.names()).toEqual(['stored.txt', 'deflated.txt', 'huge.txt']);
    expect(zip.entry('huge.txt')?.size).toBe(5 * 2 ** 30);
    expect(readText(zip, 'stored.txt')).toBe('plain');
    expect(readText(zip, 'deflated.txt')).toBe(varied.toString('latin1'));
    expect(await readInPieces(zip, 'deflated.txt', 1000)).toBe(varied.toString('latin1'));
    // A 5 GB declared size is refused before anything is read.
    const huge = errorOf(() => zip.read('huge.txt'));
    expect((await huge).code).toBe('archive_too_large');
    // The ZIP64 entry count is capped like any other.
    const many = makeZip64(Array.from({ length: 11 }, (_, index) => ({ name: `f${index}`, data: Buffer.from('x') })));
    expect((await openFailure(many)).message).toBe('the TEST archive has 11 entries; at most 10 are allowed');
  });

  it('bounds ZIP64 marks without ZIP64 records, and refuses spanned archives, with the caller’s code and label', async () => {
    const zip = makeZip([{ name: 'a', data: 'abc' }]);
    // An entry count of 65,535 is over the cap; a directory at 4 GB is outside the file.
    expect((await openFailure(editEnd(zip, (end) => end.writeUInt16LE(0xffff, 10)))).code).toBe('archive_too_large');
    const outside = await openFailure(editEnd(zip, (end) => end.writeUInt32LE(0xffffffff, 16)));
    expect(outside.message).toBe('the TEST file is not a readable zip archive: the central directory lies outside the file (truncated?)');
    // A 4 GB size without its ZIP64 field is taken as 4 GB: over the budget.
    expect((await readFailure(makeZip([{ name: 'a', data: 'abc', size: 0xffffffff }]), 'a')).code).toBe('archive_too_large');
    const locator = Buffer.alloc(20);
    locator.writeUInt32LE(0x07064b50, 0);
    const noRecord = await openFailure(Buffer.concat([zip.subarray(0, zip.length - 22), locator, zip.subarray(zip.length - 22)]));
    expect(noRecord.code).toBe('invalid_archive');
    expect(noRecord.message).toBe('the TEST file is not a readable zip archive: its ZIP64 records are damaged');
    const spanned = await openFailure(editEnd(zip, (end) => end.writeUInt16LE(1, 4)), { invalidCode: 'invalid_spreadsheet' });
    expect(spanned.code).toBe('invalid_spreadsheet');
    expect(spanned.message).toMatch(/^the TEST file is a multi-part \(spanned\) zip archive/);
  });

  it('refuses every mark of encryption when the directory is read, even on entries never read', async () => {
    for (const entry of [{ flags: 0x0801 }, { flags: 0x0840 }, { method: 99 }]) {
      const bytes = makeZip([{ name: 'plain', data: 'x' }, { name: 'secret', data: 'x', ...entry }]);
      const error = await openFailure(bytes);
      expect(error.code).toBe('encrypted_spreadsheet');
      // yauzl refuses strong encryption (flag 0x40) before it has read the entry's name.
      expect(error.message).toMatch(entry.flags === 0x0840 ? /encrypted entry \(with strong encryption\)/ : /encrypted entry \("secret"\)/);
      expect((await openFailure(bytes, { encryptedCode: undefined })).code).toBe('invalid_archive');
    }
  });

  it('counts every entry of the directory against the cap, folders and unsafe names too', async () => {
    const entries = Array.from({ length: 11 }, (_, index) => ({ name: index % 2 === 0 ? `../x${index}` : `d${index}/`, data: '' }));
    const error = await openFailure(makeZip(entries));
    expect(error.code).toBe('archive_too_large');
    expect(error.message).toBe('the TEST archive has 11 entries; at most 10 are allowed');
    expect((await open(makeZip(entries.slice(0, 10)))).names()).toEqual([]);
  });

  it('refuses a stored entry whose sizes disagree, and unknown methods only when read', async () => {
    const stored = await readFailure(makeZip([{ name: 'a', data: 'abc', store: true, size: 2 }]), 'a');
    expect(stored.code).toBe('invalid_archive');
    expect(stored.message).toMatch(/^the TEST file is not a readable zip archive: the stored entry "a" has inconsistent sizes/);
    const bytes = makeZip([{ name: 'ok', data: 'fine' }, { name: 'lzma', data: 'x', method: 14 }]);
    expect(readText(await open(bytes), 'ok')).toBe('fine');
    expect((await readFailure(bytes, 'lzma')).message).toMatch(/compression method 14; only stored and deflated/);
  });

  it('reports an entry a little longer than declared as damaged, a much longer one as a zip bomb', async () => {
    const text = 'x'.repeat(1000); // within the slack
    expect(text.length).toBeLessThan(10 + DECLARED_SIZE_SLACK);
    const longer = await readFailure(makeZip([{ name: 'a', data: text, size: 10 }]), 'a');
    expect(longer.code).toBe('invalid_archive');
    expect(longer.message).toMatch(/is not the size the archive declares/);
    const shorter = await readFailure(makeZip([{ name: 'a', data: text, size: 2000 }]), 'a');
    expect(shorter.code).toBe('invalid_archive');
    // 1 MB of zeros, far past 10 bytes + the slack.
    const bomb = await readFailure(makeZip([{ name: 'a', deflated: zeroBomb(1), size: 10, crc: 0 }]), 'a');
    expect(bomb.code).toBe('archive_too_large');
    expect(bomb.message).toMatch(/inflates to more than the size it declares/);
  });

  it('shares one budget between reads, and names small budgets in bytes', async () => {
    const bytes = makeZip([
      { name: 'a', data: 'a'.repeat(600) },
      { name: 'b', aliasOf: 'a' },
    ]);
    const zip = await open(bytes, { maxInflatedBytes: 1000 });
    expect(zip.read('a')).toHaveLength(600);
    const error = await errorOf(() => zip.read('b'));
    expect(error.code).toBe('archive_too_large');
    expect(error.message).toBe('the TEST archive inflates to more than 1000 bytes');
    // The declared size fits, the data does not: zlib stops at the budget.
    const lying = await readFailure(makeZip([{ name: 'a', data: 'a'.repeat(5000), size: 900 }]), 'a', { maxInflatedBytes: 1000 });
    expect(lying.code).toBe('archive_too_large');
    expect(lying.message).toBe('the TEST archive inflates to more than 1000 bytes');
  });

  it('applies a ratio cap only when the caller sets one', async () => {
    const bytes = makeZip([{ name: 'a', data: Buffer.alloc(512 * 1024) }]);
    expect((await open(bytes)).read('a')).toHaveLength(512 * 1024);
    const capped = await readFailure(bytes, 'a', { maxRatio: 100, ratioAllowance: 64 * 1024 });
    expect(capped.code).toBe('archive_too_large');
    expect(capped.message).toMatch(/"a" inflates to more than 100 times its compressed size/);
    expect((await open(bytes, { maxRatio: 100, ratioAllowance: 1024 * 1024 })).read('a')).toHaveLength(512 * 1024);
  });

  it('refuses entries whose local header is not where the directory says, whole or in pieces', async () => {
    const bytes = Buffer.from(makeZip([{ name: 'a', data: 'abc' }]));
    bytes.writeUInt32LE(0, 0);
    const error = await readFailure(bytes, 'a');
    expect(error.code).toBe('invalid_archive');
    expect(error.message).toMatch(/the entry "a" is missing or damaged/);
    const zip = await open(bytes);
    expect(await errorOf(() => readInPieces(zip, 'a'))).toEqual(error);
  });

  it('reads an entry in pieces with the same content and the same refusals as whole', async () => {
    const whole = async (bytes: Uint8Array, options: Partial<ZipOptions>) => {
      try {
        return Buffer.from((await open(bytes, options)).read('a')!).toString('latin1');
      } catch (error) {
        return { code: (error as AppError).code, message: (error as AppError).message };
      }
    };
    const inPieces = async (bytes: Uint8Array, options: Partial<ZipOptions>) => {
      try {
        return await readInPieces(await open(bytes, options), 'a', 1000);
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
      const expected = await whole(bytes, options);
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
    const zip = await open(bytes, { maxInflatedBytes: 800_000 });
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
