// A minimal, fast, non-validating XML scanner for the XML parts of spreadsheets (XLSX sheets,
// shared strings and styles; ODS content.xml). It reads a string once, calls a handler for start
// tags, end tags and (on request) text, and never builds a tree, so memory stays proportional to
// the nesting depth. Safe by construction: a DOCTYPE is refused (no entity can be declared, so no
// entity expansion and no external fetch), only the five predefined entities and character
// references are decoded, nesting is capped, and tags must balance (a truncated or malformed part
// is an error, never a silent partial read).
//
// Names are compared by their local part (after any prefix) unless a qualified name is asked
// for: the prefixes of these formats are fixed by convention, not worth a namespace resolver.

import { AppError } from '../../errors.js';

/** Deepest element nesting accepted. */
export const MAX_XML_DEPTH = 256;

export interface XmlHandler {
  /** A start tag; `selfClosing` for `<x/>`, which gets no end() call. */
  start(scanner: XmlScanner, selfClosing: boolean): void;
  /** An end tag; scanner.is() / localName() refer to it. */
  end(scanner: XmlScanner): void;
  /** Text (character data, references decoded, CDATA included); only while scanner.wantText. */
  text(text: string): void;
}

const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

export class XmlScanner {
  /** Set by the handler to receive text() calls. */
  wantText = false;
  private stopped = false;
  private nameEnd = 0;
  private localStart = 0;
  /** Attribute ranges of the current start tag: nameStart, nameEnd, valueStart, valueEnd. */
  private attrs: number[] = [];
  private attrCount = 0;

  constructor(
    private readonly xml: string,
    /** The part's name, for messages ("xl/worksheets/sheet1.xml"). */
    private readonly part: string,
  ) {}

  fail(detail: string): never {
    throw new AppError('invalid_spreadsheet', `the spreadsheet part ${this.part} is not valid XML: ${detail}`);
  }

  /** Stops the scan after the current callback (the rest of the part is not read). */
  stop(): void {
    this.stopped = true;
  }

  /** Whether the current element's local name is `local`. */
  is(local: string): boolean {
    const { xml, localStart, nameEnd } = this;
    return nameEnd - localStart === local.length && xml.startsWith(local, localStart);
  }

  localName(): string {
    return this.xml.slice(this.localStart, this.nameEnd);
  }

  /**
   * The decoded value of an attribute of the current start tag: by qualified name when `name`
   * has a colon, otherwise by local name (the first match).
   */
  attr(name: string): string | undefined {
    const { xml, attrs } = this;
    const qualified = name.includes(':');
    for (let index = 0; index < this.attrCount * 4; index += 4) {
      const start = attrs[index] as number;
      const end = attrs[index + 1] as number;
      const from = qualified ? start : localStart(xml, start, end);
      if (end - from === name.length && xml.startsWith(name, from)) {
        const raw = xml.slice(attrs[index + 2] as number, attrs[index + 3] as number);
        return raw.indexOf('&') === -1 ? raw : this.decode(raw);
      }
    }
    return undefined;
  }

  /** Decodes character and predefined entity references; a bare "&" is an error. */
  decode(raw: string): string {
    let out = '';
    let from = 0;
    for (;;) {
      const amp = raw.indexOf('&', from);
      if (amp === -1) return from === 0 ? raw : out + raw.slice(from);
      const semicolon = raw.indexOf(';', amp + 1);
      if (semicolon === -1 || semicolon - amp > 12) {
        this.fail(`a bare "&" (${JSON.stringify(raw.slice(amp, amp + 12))}…)`);
      }
      const body = raw.slice(amp + 1, semicolon);
      let value: string | undefined;
      if (body.charCodeAt(0) === 35) {
        const hex = body.charCodeAt(1) === 120;
        const digits = body.slice(hex ? 2 : 1);
        const code = (hex ? /^[0-9a-fA-F]+$/ : /^[0-9]+$/).test(digits) ? parseInt(digits, hex ? 16 : 10) : NaN;
        if (!(code >= 0 && code <= 0x10ffff)) this.fail(`the character reference &${body}; is not valid`);
        value = String.fromCodePoint(code);
      } else {
        value = Object.hasOwn(PREDEFINED, body) ? PREDEFINED[body] : undefined;
        if (value === undefined) this.fail(`the entity &${body}; is not defined (DOCTYPEs are not accepted)`);
      }
      out += raw.slice(from, amp) + value;
      from = semicolon + 1;
    }
  }

  /** Scans the whole part (or until stop()). */
  run(handler: XmlHandler): void {
    const xml = this.xml;
    const length = xml.length;
    const stack: number[] = []; // nameStart, nameEnd pairs of the open elements
    let rootSeen = false;
    let position = 0;

    while (position < length && !this.stopped) {
      const open = xml.indexOf('<', position);
      const textEnd = open === -1 ? length : open;
      if (textEnd > position && this.wantText && stack.length > 0) {
        const raw = xml.slice(position, textEnd);
        handler.text(raw.indexOf('&') === -1 ? raw : this.decode(raw));
      }
      if (open === -1) break;
      const next = xml.charCodeAt(open + 1);

      if (next === 47) {
        // </name>
        const close = xml.indexOf('>', open + 2);
        if (close === -1) this.fail('the last end tag is cut short (truncated?)');
        let nameEnd = close;
        while (nameEnd > open + 2 && isSpace(xml.charCodeAt(nameEnd - 1))) nameEnd--;
        const openEnd = stack.pop();
        const openStart = stack.pop();
        if (openStart === undefined || openEnd === undefined) this.fail('an end tag has no start tag');
        if (!sameText(xml, openStart, openEnd, open + 2, nameEnd)) {
          this.fail(
            `the end tag </${xml.slice(open + 2, Math.min(nameEnd, open + 42))}> does not close <${xml.slice(openStart, Math.min(openEnd, openStart + 40))}>`,
          );
        }
        this.setName(open + 2, nameEnd);
        this.attrCount = 0;
        handler.end(this);
        position = close + 1;
        continue;
      }
      if (next === 63) {
        // <?processing instruction?>
        const close = xml.indexOf('?>', open + 2);
        if (close === -1) this.fail('a processing instruction is never closed');
        position = close + 2;
        continue;
      }
      if (next === 33) {
        if (xml.startsWith('<!--', open)) {
          const close = xml.indexOf('-->', open + 4);
          if (close === -1) this.fail('a comment is never closed');
          position = close + 3;
          continue;
        }
        if (xml.startsWith('<![CDATA[', open)) {
          const close = xml.indexOf(']]>', open + 9);
          if (close === -1) this.fail('a CDATA section is never closed');
          if (this.wantText && stack.length > 0) handler.text(xml.slice(open + 9, close));
          position = close + 3;
          continue;
        }
        if (xml.startsWith('<!DOCTYPE', open)) {
          this.fail('it has a DOCTYPE, which spreadsheet parts never have (refused: entities could be declared in it)');
        }
        this.fail('it has a "<!" that starts nothing known');
      }

      // <name attributes…> or <name …/>
      let at = open + 1;
      const nameStart = at;
      while (at < length && isNameChar(xml.charCodeAt(at))) at++;
      if (at === nameStart) this.fail(`a "<" is not followed by a name (at offset ${open})`);
      this.setName(nameStart, at);
      let count = 0;
      const attrs = this.attrs;
      let selfClosing = false;
      for (;;) {
        while (at < length && isSpace(xml.charCodeAt(at))) at++;
        if (at >= length) this.fail('the last start tag is cut short (truncated?)');
        const char = xml.charCodeAt(at);
        if (char === 62) {
          at++;
          break;
        }
        if (char === 47) {
          if (xml.charCodeAt(at + 1) !== 62) this.fail('a "/" inside a start tag');
          selfClosing = true;
          at += 2;
          break;
        }
        const attrStart = at;
        while (at < length && isNameChar(xml.charCodeAt(at))) at++;
        if (at === attrStart) this.fail(`an unexpected character in the tag <${this.localName()}>`);
        const attrEnd = at;
        while (at < length && isSpace(xml.charCodeAt(at))) at++;
        if (xml.charCodeAt(at) !== 61) this.fail(`an attribute without a value in the tag <${this.localName()}>`);
        at++;
        while (at < length && isSpace(xml.charCodeAt(at))) at++;
        const quote = xml.charCodeAt(at);
        if (quote !== 34 && quote !== 39) this.fail(`an attribute value without quotes in the tag <${this.localName()}>`);
        const valueEnd = xml.indexOf(quote === 34 ? '"' : "'", at + 1);
        if (valueEnd === -1) this.fail('an attribute value is never closed (truncated?)');
        attrs[count * 4] = attrStart;
        attrs[count * 4 + 1] = attrEnd;
        attrs[count * 4 + 2] = at + 1;
        attrs[count * 4 + 3] = valueEnd;
        count++;
        at = valueEnd + 1;
      }
      this.attrCount = count;
      if (stack.length === 0) {
        if (rootSeen) this.fail('it has more than one root element');
        rootSeen = true;
      }
      if (!selfClosing) {
        if (stack.length >= MAX_XML_DEPTH * 2) this.fail(`elements are nested more than ${MAX_XML_DEPTH} deep`);
        stack.push(nameStart, this.nameEnd);
      }
      position = at;
      handler.start(this, selfClosing);
      if (selfClosing) this.attrCount = 0;
    }
    if (this.stopped) return;
    if (!rootSeen) this.fail('it has no root element');
    if (stack.length > 0) this.fail('it ends before all its elements are closed (truncated?)');
  }

  private setName(start: number, end: number): void {
    this.nameEnd = end;
    this.localStart = localStart(this.xml, start, end);
  }
}

/** Where the local part of the name in [start, end) begins (after its last colon). */
function localStart(xml: string, start: number, end: number): number {
  for (let index = end - 1; index >= start; index--) {
    if (xml.charCodeAt(index) === 58) return index + 1;
  }
  return start;
}

function sameText(xml: string, start1: number, end1: number, start2: number, end2: number): boolean {
  if (end1 - start1 !== end2 - start2) return false;
  for (let index = 0; index < end1 - start1; index++) {
    if (xml.charCodeAt(start1 + index) !== xml.charCodeAt(start2 + index)) return false;
  }
  return true;
}

function isSpace(code: number): boolean {
  return code === 32 || code === 10 || code === 13 || code === 9;
}

function isNameChar(code: number): boolean {
  // Everything but whitespace and the tag delimiters: lenient, and fast.
  return code > 32 && code !== 62 && code !== 47 && code !== 61 && code !== 60 && code !== 34 && code !== 39;
}

/** `_xHHHH_` escapes of OOXML strings (control characters Excel cannot put in XML). */
const OOXML_ESCAPE = /_x([0-9A-Fa-f]{4})_/g;

export function decodeOoxmlEscapes(text: string): string {
  if (text.indexOf('_x') === -1) return text;
  return text.replace(OOXML_ESCAPE, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}
