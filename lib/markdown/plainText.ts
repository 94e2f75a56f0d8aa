// A description as plain text in paragraphs: what a map page shows when the Markdown could not be
// rendered within its budget (./index.ts). Linear in the text, and nothing in it is markup.

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** Paragraphs at blank lines, line breaks kept as <br>, everything escaped ('' for blank text). */
export function plainTextHtml(source: string): string {
  return source
    .replace(/\r\n?/g, '\n')
    .split(/\n[ \t]*\n/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph !== '')
    .map((paragraph) => `<p>${escapeHtml(paragraph).replace(/\n/g, '<br>')}</p>\n`)
    .join('');
}
