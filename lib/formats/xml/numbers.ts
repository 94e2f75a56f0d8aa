// Fast decimal number reading straight out of a longer string (KML coordinate lists, GPX
// attributes), without slicing out a string per number in the common case.
//
// Fast path: at most 15 digits and no exponent → an exact integer divided by an exact power of
// ten, which IEEE division rounds correctly (the same value Number() gives). Anything else
// (more digits, exponents) goes through Number() on the token.

const POWERS_OF_TEN: readonly number[] = Array.from({ length: 23 }, (_, index) => 10 ** index);

const isDigit = (code: number): boolean => code >= 48 && code <= 57;

/** Index after the number scanNumber last read (or where it stopped on failure). */
export let scanEnd = 0;

/**
 * Reads a decimal number starting exactly at `start` (sign allowed, `1.`, `.5`, exponents).
 * Returns NaN when there is no well-formed number there; sets `scanEnd` to the index after
 * the number. The caller checks what follows (a separator).
 */
export function scanNumber(text: string, start: number, end: number): number {
  let at = start;
  let code = at < end ? text.charCodeAt(at) : -1;
  let negative = false;
  if (code === 45 /* - */ || code === 43 /* + */) {
    negative = code === 45;
    at++;
    code = at < end ? text.charCodeAt(at) : -1;
  }
  let mantissa = 0;
  let digits = 0;
  let scale = 0;
  while (isDigit(code)) {
    mantissa = mantissa * 10 + (code - 48);
    digits++;
    at++;
    code = at < end ? text.charCodeAt(at) : -1;
  }
  if (code === 46 /* . */) {
    at++;
    code = at < end ? text.charCodeAt(at) : -1;
    while (isDigit(code)) {
      mantissa = mantissa * 10 + (code - 48);
      digits++;
      scale++;
      at++;
      code = at < end ? text.charCodeAt(at) : -1;
    }
  }
  if (digits === 0) {
    scanEnd = at;
    return Number.NaN;
  }
  if (code === 101 /* e */ || code === 69 /* E */) {
    let exponentAt = at + 1;
    let next = exponentAt < end ? text.charCodeAt(exponentAt) : -1;
    if (next === 45 || next === 43) {
      exponentAt++;
      next = exponentAt < end ? text.charCodeAt(exponentAt) : -1;
    }
    if (!isDigit(next)) {
      scanEnd = at;
      return Number.NaN;
    }
    while (isDigit(next)) {
      exponentAt++;
      next = exponentAt < end ? text.charCodeAt(exponentAt) : -1;
    }
    scanEnd = exponentAt;
    return Number(text.slice(start, exponentAt));
  }
  scanEnd = at;
  if (digits > 15) return Number(text.slice(start, at));
  const value = scale === 0 ? mantissa : mantissa / (POWERS_OF_TEN[scale] as number);
  return negative ? -value : value;
}

/** A whole string as a number (surrounding white space allowed); NaN when it is not one. */
export function parseNumber(text: string): number {
  let start = 0;
  let end = text.length;
  while (start < end && isSpace(text.charCodeAt(start))) start++;
  while (end > start && isSpace(text.charCodeAt(end - 1))) end--;
  if (start === end) return Number.NaN;
  const value = scanNumber(text, start, end);
  return scanEnd === end ? value : Number.NaN;
}

/** XML white space (space, tab, CR, LF). */
export function isSpace(code: number): boolean {
  return code === 32 || code === 10 || code === 13 || code === 9;
}
