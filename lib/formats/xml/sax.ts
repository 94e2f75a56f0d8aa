// The one streaming XML reader of the import formats: saxes (strict XML 1.0, every
// well-formedness error is fatal), wrapped so that
// - a <!DOCTYPE> is refused before parsing (and if the parser meets one anyway),
// - the root element must be one of the expected names, and there is only one root,
// - nesting deeper than maxDepth stops the parse (the element stack is an array, never the call
//   stack, so 100,000 nested elements cost nothing but the error),
// - any parse error becomes AppError('invalid_file') with line and column; nothing partial is
//   ever returned, because the caller only gets a result when the whole document was read.
//
// Handlers get local names (the part after a namespace prefix: `gx:Track` → `Track`).
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { AppError } from '../../errors.js';
import { shorten } from '../../geojson/json-data.js';

export const DEFAULT_MAX_DEPTH = 200;

export interface XmlHandler {
  /**
   * An element starts. `depth` is its level (the root is 1); `line` is where its start tag ends;
   * `path` holds the local names from the root down to this element (path[depth - 1] === name,
   * path[depth - 2] is the parent). The array is live: read it, never keep or change it.
   */
  open(name: string, attributes: Readonly<Record<string, string>>, depth: number, line: number, path: readonly string[]): void;
  /** An element ends; `depth` and `path` as in open (the element is still on the path). */
  close(name: string, depth: number, path: readonly string[]): void;
  /** Character data (text and CDATA sections; entities decoded), in pieces. */
  text(text: string): void;
}

export interface XmlReadOptions {
  /** Accepted local names of the root element. */
  roots: readonly string[];
  /** Names the format in messages ("KML file"). */
  what: string;
  maxDepth?: number;
}

const localName = (name: string): string => {
  const colon = name.indexOf(':');
  return colon === -1 ? name : name.slice(colon + 1);
};

function doctypeError(what: string): AppError {
  return new AppError(
    'doctype_not_allowed',
    `the ${what} has a <!DOCTYPE> declaration; DTDs and entity declarations are not allowed in uploads — remove it and upload again`,
  );
}

/**
 * Refuses a <!DOCTYPE> in the prolog (before the root element), without parsing: only the XML
 * declaration, processing instructions, comments and white space are skipped to get there.
 */
export function assertNoDoctype(text: string, what: string): void {
  let at = 0;
  const length = text.length;
  for (;;) {
    while (at < length) {
      const code = text.charCodeAt(at);
      if (code !== 0x20 && code !== 0x0a && code !== 0x0d && code !== 0x09 && code !== 0xfeff) break;
      at++;
    }
    if (text.startsWith('<?', at)) {
      const end = text.indexOf('?>', at + 2);
      if (end === -1) return; // the parser reports it
      at = end + 2;
    } else if (text.startsWith('<!--', at)) {
      const end = text.indexOf('-->', at + 4);
      if (end === -1) return;
      at = end + 3;
    } else {
      if (text.slice(at, at + 9).toUpperCase() === '<!DOCTYPE') throw doctypeError(what);
      return;
    }
  }
}

/** "3:14: unclosed tag: Folder" (saxes) → "unclosed tag: Folder (line 3, column 14)". */
function describeParseError(error: Error, what: string): string {
  const match = /^(\d+):(\d+): (.*)$/s.exec(error.message);
  if (match === null) return `the ${what} is not well-formed XML: ${shorten(error.message, 120)}`;
  // Messages may quote a name from the file: keep them short.
  const reason = shorten((match[3] ?? '').replace(/\.$/, ''), 120);
  return `the ${what} is not well-formed XML: ${reason} (line ${match[1]}, column ${match[2]})`;
}

/**
 * Reads a whole XML document, calling the handler for every element and piece of text.
 * Throws AppError: doctype_not_allowed, too_deep, invalid_file (malformed, truncated, wrong or
 * several roots); errors thrown by the handler pass through unchanged.
 */
export function readXml(text: string | Iterable<string>, handler: XmlHandler, options: XmlReadOptions): void {
  const { roots, what } = options;
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;

  const parser = new SaxesParser({ xmlns: false, position: true });
  const names: string[] = [];
  let depth = 0;
  let sawRoot = false;

  parser.on('doctype', () => {
    throw doctypeError(what);
  });
  parser.on('opentag', (tag: SaxesTagPlain) => {
    const name = localName(tag.name);
    if (depth === 0) {
      if (sawRoot) {
        throw new AppError('invalid_file', `the ${what} has more than one root element (a second <${shorten(tag.name, 40)}> on line ${parser.line})`);
      }
      if (!roots.includes(name)) {
        throw new AppError(
          'invalid_file',
          `the ${what}'s root element is <${shorten(tag.name, 40)}>, not <${roots.join('> or <')}>: it is not a ${what}`,
        );
      }
      sawRoot = true;
    }
    depth++;
    if (depth > maxDepth) {
      throw new AppError('too_deep', `the ${what} nests elements more than ${maxDepth} levels deep (line ${parser.line})`);
    }
    names.push(name);
    handler.open(name, tag.attributes, depth, parser.line, names);
  });
  parser.on('closetag', () => {
    handler.close(names[depth - 1] as string, depth, names);
    names.pop();
    depth--;
  });
  parser.on('text', (piece: string) => {
    if (depth > 0) handler.text(piece);
  });
  parser.on('cdata', (piece: string) => {
    handler.text(piece);
  });

  try {
    let first = true;
    for (const chunk of typeof text === 'string' ? [text] : text) {
      if (first) assertNoDoctype(chunk, what);
      first = false;
      parser.write(chunk);
    }
    parser.close();
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (error instanceof Error) {
      if (/document must contain a root element/.test(error.message)) {
        throw new AppError('invalid_file', `the ${what} has no root element (<${roots.join('> or <')}>)`);
      }
      throw new AppError('invalid_file', describeParseError(error, what));
    }
    throw error;
  }
}
