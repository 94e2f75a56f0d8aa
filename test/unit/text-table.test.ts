import { describe, expect, it } from 'vitest';
import { TextTable } from '../../lib/formats/textTable.js';

describe('TextTable', () => {
  it('gives back every string, however the table grew, and drops lone surrogates', () => {
    const table = new TextTable(64);
    const strings = Array.from({ length: 5000 }, (_, index) => (index % 3 === 0 ? '' : `s${index} Zürich 😀 ${'x'.repeat(index % 40)}`));
    for (const text of strings) table.add(text);
    table.add('a\uD800b\uDC00c\uD83D\uDE00');
    expect(table.length).toBe(5001);
    strings.forEach((text, index) => expect(table.get(index)).toBe(text));
    expect(table.get(5000)).toBe('abc\uD83D\uDE00');
    expect([table.get(-1), table.get(5001), table.get(1.5)]).toEqual([undefined, undefined, undefined]);
  });

  it('keeps the first strings only after truncate', () => {
    const table = new TextTable();
    for (const text of ['a', 'bb', 'ccc']) table.add(text);
    table.truncate(1);
    table.add('d');
    expect([table.length, table.get(0), table.get(1), table.get(2)]).toEqual([2, 'a', 'd', undefined]);
  });

  it('takes a declared count as a hint only: never fewer slots than strings it holds', () => {
    const table = new TextTable();
    for (let index = 0; index < 1_100_000; index++) table.add(index % 2 === 0 ? 'a' : '');
    table.expect(3_000_000); // more than it reserves ahead, fewer than it may already hold
    table.expect(5);
    table.add('last');
    expect(table.length).toBe(1_100_001);
    expect([table.get(0), table.get(1), table.get(1_099_998), table.get(1_100_000)]).toEqual(['a', '', 'a', 'last']);
  });
});
