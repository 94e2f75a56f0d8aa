// CSV files are decoded and read a megabyte at a time: a record, a quoted field, a line end or a
// UTF-8 sequence cut by the end of a piece must read exactly as in one piece.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../lib/errors.js';
import { parseCsv } from '../../lib/formats/csv.js';
import { joinGroupPath, splitGroupPath } from '../../lib/formats/groupPath.js';
import { bytesInput, type FileInput } from '../../lib/formats/input.js';
import type { ParsedFile } from '../../lib/formats/types.js';

const FIXTURES = path.join(import.meta.dirname, '..', 'fixtures', 'csv');
const OPTIONS = { publicUrl: 'https://maps.example.com' };

/** The file handed out in pieces of `size` bytes, whatever size the reader asks for. */
const inPieces = (bytes: Uint8Array, size: number): FileInput => ({ ...bytesInput(bytes), pieces: () => bytesInput(bytes).pieces(size) });

function outcome(input: FileInput | Uint8Array): ParsedFile | { code: string; message: string } {
  try {
    return parseCsv(input, OPTIONS) as ParsedFile;
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return { code: error.code, message: error.message };
  }
}

const SIZES = [1, 2, 3, 5, 8, 64];

describe('CSV read in pieces', () => {
  it.each(fs.readdirSync(FIXTURES).filter((name) => /\.(csv|tsv)$/.test(name)))('reads %s the same in pieces of any size', (name) => {
    const bytes = new Uint8Array(fs.readFileSync(path.join(FIXTURES, name)));
    const whole = outcome(bytes);
    for (const size of SIZES) expect(outcome(inPieces(bytes, size))).toEqual(whole);
  });

  it.each([
    ['quoted fields with line ends, doubled quotes and CRLF', 'lat,lon,title\r\n1,2,"a\r\nb ""q"" ü"\r\n3,4,"x,y"\r\n\r\n5,6,😀\r\n'],
    ['a lone CR and a trailing delimiter', 'lat;lon;title\r1;2;a;\r3;4;b'],
    ['a quote followed by text, with row and line', 'lat,lon,name\n"a\nb",2,x\n1,2,"bad"quote\n'],
    ['a quote never closed', 'lat,lon,name\n1,2,ok\n3,4,"never closed\n5,6,x\n'],
    ['a blank file', ' \n\t\n'],
  ])('reads %s the same in pieces of any size', (_name, text) => {
    const bytes = new Uint8Array(Buffer.from(text, 'utf8'));
    const whole = outcome(bytes);
    for (const size of SIZES) expect(outcome(inPieces(bytes, size))).toEqual(whole);
  });

  it('reads a record far longer than a piece', () => {
    const bytes = new Uint8Array(Buffer.from(`lat,lon,name,note\n1,2,"${'z'.repeat(99_999)}",${'w'.repeat(99_000)}\n3,4,x,y\n`));
    const whole = outcome(bytes) as ParsedFile;
    expect(whole.document.features).toHaveLength(2);
    expect(outcome(inPieces(bytes, 1000))).toEqual(whole);
  });

  it('tells a quoted field that is too long from one never closed when it spans pieces', () => {
    const tooLong = Buffer.from(`lat,lon,name\n1,2,"${'y'.repeat(150_000)}"\n`);
    expect(outcome(inPieces(tooLong, 4096))).toMatchObject({ code: 'cell_too_large', message: expect.stringMatching(/^row 2: a field is longer/) });
    const neverClosed = Buffer.from(`lat,lon,name\n1,2,"${'y'.repeat(150_000)}\n`);
    expect(outcome(inPieces(neverClosed, 4096))).toMatchObject({ code: 'csv_parse_error', message: expect.stringMatching(/^row 2: a quoted field is never closed/) });
  });
});

describe('group paths in a table', () => {
  it('splits on slashes; an escaped slash or backslash belongs to the title', () => {
    expect(splitGroupPath(' Europe / France ')).toEqual(['Europe', 'France']);
    expect(splitGroupPath('Europe//France/')).toEqual(['Europe', 'France']);
    expect(splitGroupPath('Food\\/Drink/Cafés')).toEqual(['Food/Drink', 'Cafés']);
    expect(splitGroupPath('C:\\temp\\\\/x')).toEqual(['C:\\temp\\', 'x']);
    expect(splitGroupPath('/ /')).toEqual([]);
    expect(joinGroupPath(['Food/Drink', 'Cafés'])).toBe('Food\\/Drink/Cafés');
    for (const titles of [['a/b', 'c'], ['x'], ['1/2/3', 'y\\', '\\/z']]) expect(splitGroupPath(joinGroupPath(titles))).toEqual(titles);
  });
});
