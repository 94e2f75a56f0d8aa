// What the Markdown parser (marked) is allowed to see, so that its time and stack stay bounded for
// any description the API accepts (100,000 characters). Measured on marked 18 (bench/README.md,
// `npm run bench -- description`): `>` × 100,000 and `* 1. ` × 20,000 overflow the stack (each
// marker is one level of recursion), and emphasis is quadratic in the delimiters of one inline
// run (`_a` × 5,000: 0.5 s; × 20,000: 5.7 s; × 50,000: 27 s). So:
// - a line opens at most MAX_NESTING containers (`>` and list markers): the markers after that
//   are escaped and read as text; leading indentation is cut to MAX_INDENT columns (lists nest by
//   indentation too);
// - an inline run (a paragraph, a heading, a table cell) with more than MAX_DELIMITERS emphasis
//   delimiters (`*`, `_`, `~`) is shown as its text, without inline formatting (./render.ts).

export const MAX_NESTING = 8;
export const MAX_INDENT = 40;
export const MAX_DELIMITERS = 128;

const LIST_MARKER = /^(?:[-+*]|\d{1,9}[.)])(?=[ \t]|$)/;

function boundLine(line: string): string {
  let start = 0;
  let columns = 0;
  while (start < line.length && (line[start] === ' ' || line[start] === '\t')) {
    columns += line[start] === '\t' ? 4 - (columns % 4) : 1;
    start += 1;
  }
  if (start === line.length) return line;
  let text = line;
  if (columns > MAX_INDENT) {
    text = ' '.repeat(MAX_INDENT) + line.slice(start);
    start = MAX_INDENT;
  }
  let depth = 0;
  let at = start;
  for (;;) {
    while (text[at] === ' ' || text[at] === '\t') at += 1;
    if (at >= text.length) return text;
    const marker = text[at] === '>' ? '>' : LIST_MARKER.exec(text.slice(at, at + 11))?.[0];
    if (!marker) return text;
    depth += 1;
    if (depth > MAX_NESTING) {
      // A backslash before the marker's punctuation makes it text (`\>`, `\-`, `12\.`).
      const punctuation = at + marker.length - 1;
      return `${text.slice(0, punctuation)}\\${text.slice(punctuation)}`;
    }
    at += marker.length;
  }
}

/** The source with every line's container nesting and indentation bounded. */
export function boundNesting(source: string): string {
  return source.replace(/\r\n?/g, '\n').split('\n').map(boundLine).join('\n');
}

/** Emphasis delimiters in a run of inline text. */
export function delimiterCount(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === 42 || c === 95 || c === 126) count += 1;
  }
  return count;
}
