// The Range header of file answers (api/fileAnswer.ts): one byte range, or the whole file.
import { describe, expect, it } from 'vitest';
import { requestedRange } from '../../api/fileAnswer.js';

describe('requestedRange', () => {
  it('reads one range from its start, to its end, or as the last bytes; an end past the file stops at its last byte', () => {
    expect(requestedRange('bytes=0-99', 1000)).toEqual({ start: 0, end: 99 });
    expect(requestedRange('bytes=990-', 1000)).toEqual({ start: 990, end: 999 });
    expect(requestedRange('bytes=-10', 1000)).toEqual({ start: 990, end: 999 });
    expect(requestedRange('bytes=-5000', 1000)).toEqual({ start: 0, end: 999 });
    expect(requestedRange('bytes=500-99999', 1000)).toEqual({ start: 500, end: 999 });
  });

  it('finds a range that starts past the end (or asks for no bytes) unsatisfiable', () => {
    expect(requestedRange('bytes=1000-', 1000)).toBe('unsatisfiable');
    expect(requestedRange('bytes=1000-1001', 1000)).toBe('unsatisfiable');
    expect(requestedRange('bytes=-0', 1000)).toBe('unsatisfiable');
    expect(requestedRange('bytes=0-', 0)).toBe('unsatisfiable');
  });

  it('sends the whole file for no header, another unit, several ranges or a malformed one', () => {
    for (const header of ['', 'items=0-1', 'bytes=0-1,5-6', 'bytes=5-1', 'bytes=-', 'bytes=a-b', 'bytes=0-99999999999999999']) {
      expect(requestedRange(header, 1000)).toBeUndefined();
    }
  });
});
