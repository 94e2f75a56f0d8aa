// Descriptions in the KML this service writes (issue 24, defect 9): Google Earth shows a KML
// <description> as HTML, so a description written as it is stored (Markdown, or the HTML an
// imported file carried) would run there as HTML. The download writes each description as
// plain text instead: escaped for HTML (Google Earth shows the characters, `<b>` as "<b>"), line
// breaks as <br>, and says so once in the Document's ExtendedData; the import reads that flag
// and takes the escaping off again, so a download imports back to the same descriptions. A KML
// from elsewhere (no flag) is read as before.
import { escapeHtml } from '../markdown/plainText.js';

/** The Document's ExtendedData entry that marks the descriptions of the file as escaped text. */
export const DESCRIPTION_FORMAT = { name: 'description_format', value: 'escaped_text' } as const;

/** A description as HTML that shows its text (the XML escaping is the writer's). */
export const escapedDescription = (text: string): string => escapeHtml(text).replace(/\r\n?|\n/g, '<br>\n');

const UNESCAPES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };

/** The text of a description written by escapedDescription. */
export const unescapedDescription = (html: string): string => html.replace(/<br>\n/g, '\n').replace(/&(?:amp|lt|gt|quot|#39);/g, (entity) => UNESCAPES[entity]!);
