// What the spreadsheet readers share: cell references and the date conventions of Excel.

/**
 * Parses a cell reference such as "B12" into [row (1-based), column (0-based)]; null when it is
 * not one. Absurd references (more than 7 letters or 10 digits) are not references.
 */
export function parseCellReference(ref: string): [number, number] | null {
  let column = 0;
  let index = 0;
  const length = ref.length;
  for (; index < length; index++) {
    const code = ref.charCodeAt(index) | 0x20; // lower case
    if (code < 97 || code > 122) break;
    column = column * 26 + (code - 96);
  }
  if (index === 0 || index > 7 || index === length || length - index > 10) return null;
  let row = 0;
  for (let at = index; at < length; at++) {
    const code = ref.charCodeAt(at);
    if (code < 48 || code > 57) return null;
    row = row * 10 + (code - 48);
  }
  if (row === 0) return null;
  return [row, column - 1];
}

/** Excel's built-in number formats that show a date or a time. */
const BUILTIN_DATE_FORMATS = new Set([
  14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51, 52, 53, 54, 55, 56,
  57, 58,
]);

export function isBuiltinDateFormat(id: number): boolean {
  return BUILTIN_DATE_FORMATS.has(id);
}

/**
 * Whether a number format code shows a date or a time of day (not an elapsed duration such as
 * `[h]:mm`): looks for y, m, d, h or s outside quoted text, escapes and brackets, in the first
 * section of the code. One linear pass (format codes come from the file).
 */
export function isDateFormatCode(code: string): boolean {
  if (code.length > 1000) return false; // Excel allows 255 characters
  const length = code.length;
  for (let index = 0; index < length; index++) {
    const char = code[index] as string;
    switch (char) {
      case ';':
        return false; // only the first section counts
      case '"': {
        const close = code.indexOf('"', index + 1);
        if (close === -1) return false;
        index = close;
        break;
      }
      case '\\':
      case '_':
      case '*':
        index++; // the next character is literal (or padding)
        break;
      case '[': {
        const close = code.indexOf(']', index + 1);
        if (close === -1) return false;
        if (/^(?:h+|m+|s+)$/i.test(code.slice(index + 1, close))) return false; // elapsed time
        index = close;
        break;
      }
      default: {
        const lower = char.toLowerCase();
        if (lower === 'g' && code.slice(index, index + 7).toLowerCase() === 'general') {
          index += 6;
          break;
        }
        if (lower === 'y' || lower === 'm' || lower === 'd' || lower === 'h' || lower === 's') return true;
      }
    }
  }
  return false;
}

const DAY = 86_400_000;
const EPOCH_1900 = Date.UTC(1899, 11, 30);
const EPOCH_1904 = Date.UTC(1904, 0, 1);

const pad = (value: number, width = 2): string => String(value).padStart(width, '0');

/**
 * An Excel date serial as ISO 8601 text, without a time zone (spreadsheets store local times):
 * `YYYY-MM-DD`, `YYYY-MM-DDTHH:MM:SS`, or `HH:MM:SS` for a time of day alone. Serials 1–59 of
 * the 1900 system fall before Excel's fictitious 29 February 1900 and are shifted back. Returns
 * null for serials outside 0 … 9999-12-31.
 */
export function excelSerialToIso(serial: number, date1904: boolean): string | null {
  if (!Number.isFinite(serial) || serial < 0 || serial >= 2_958_466) return null;
  const totalSeconds = Math.round(serial * 86_400);
  const days = Math.floor(totalSeconds / 86_400);
  const seconds = totalSeconds - days * 86_400;
  const time = `${pad(Math.floor(seconds / 3600))}:${pad(Math.floor((seconds % 3600) / 60))}:${pad(seconds % 60)}`;
  if (days === 0 && !date1904) return time;
  const dayOffset = !date1904 && days < 60 ? days + 1 : days;
  const date = new Date((date1904 ? EPOCH_1904 : EPOCH_1900) + dayOffset * DAY);
  const day = `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
  return seconds === 0 ? day : `${day}T${time}`;
}

/** An ISO 8601 duration of ODS time cells (PT13H45M00S) as HH:MM:SS; the input when it is not one. */
export function odsTimeToIso(value: string): string {
  const match = /^-?PT(\d+)H(\d+)M(\d+)(?:[.,]\d+)?S$/.exec(value);
  if (!match) return value;
  const [, h, m, s] = match as unknown as [string, string, string, string];
  return `${pad(Number(h))}:${pad(Number(m))}:${pad(Number(s))}`;
}
