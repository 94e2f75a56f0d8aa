// Text in Windows-1252 (CSV files from Excel on Windows, some KML/GPX files that declare it).

/**
 * windows-1252's 0x80–0x9F (WHATWG): Node 20's TextDecoder decodes this label as ISO-8859-1,
 * leaving C1 control characters where the quotes, dashes and € should be.
 */
const WINDOWS_1252_HIGH =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

export function fixWindows1252(text: string): string {
  return text.replace(/[\u0080-\u009f]/g, (char) => WINDOWS_1252_HIGH[char.charCodeAt(0) - 0x80] as string);
}
