// Text for the XML the downloads write (KML, GPX): escaped for element content and attributes,
// and without the characters XML 1.0 cannot hold (control characters other than tab, LF, CR;
// lone surrogates), which would make the whole file unreadable.

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

export const xmlText = (value: string): string => value.replace(NOT_XML, '').replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** A property value as text (numbers and yes/no as written, lists and objects as JSON); undefined for none. */
export function propertyText(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}
