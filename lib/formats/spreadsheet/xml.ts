// A minimal, fast, non-validating XML scanner for the XML parts of spreadsheets (XLSX sheets,
// shared strings and styles; ODS content.xml). It reads text in pieces as they are inflated
// (`write`, then `end`), calls a handler for start tags, end tags and (on request) text, and
// never builds a tree, so memory stays proportional to the nesting depth, one piece and the
// longest single tag, comment or CDATA section. One cut by a piece's end waits for the next
// piece (a long one until as much text again has come, so nothing is re-read over and over). Text is handed on as it
// comes: a handler may get one text node in several calls. Safe by construction: a DOCTYPE is
// refused (no entity can be declared, so no entity expansion and no external fetch), only the
// five predefined entities and character references are decoded, nesting is capped, and tags
// must balance (a truncated or malformed part is an error, never a silent partial read).
//
// Names are compared by their local part (after any prefix) unless a qualified name is asked
// for: the prefixes of these formats are fixed by convention, not worth a namespace resolver.

import { AppError } from '../../errors.js';
import { shorten } from '../../geojson/json-data.js';
import type { ZipArchive } from '../zip.js';

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

/** An unfinished construct at least this long waits for as much text again before it is re-read. */
const LONG_CARRY = 4096;
/** Longest entity or character reference ("&#x10FFFF;" and a little slack). */
const LONGEST_REFERENCE = 12;

export class XmlScanner {
  /** Set by the handler to receive text() calls. */
  wantText = false;
  private stopped = false;
  /** The text being scanned (what was held back from the last piece, then the new piece). */
  private xml = '';
  /** Where in the part the text being scanned starts (in UTF-16 code units). */
  private offset = 0;
  private nameEnd = 0;
  private localStart = 0;
  /** Attribute ranges of the current start tag: nameStart, nameEnd, valueStart, valueEnd. */
  private attrs: number[] = [];
  private attrCount = 0;
  /**
   * The open elements: where their names are in the text being scanned (start, end pairs), or,
   * for elements opened in an earlier piece, the name itself (`names`, set when a piece ends).
   */
  private readonly stack: number[] = [];
  private readonly names: (string | undefined)[] = [];
  private rootSeen = false;
  /** The start of a construct the last piece cut short. */
  private carry = '';
  /** Pieces gathered behind a long carry. */
  private waiting: string[] = [];
  private waitingLength = 0;

  constructor(
    /** The part's name, for messages ("xl/worksheets/sheet1.xml"). */
    private readonly part: string,
    private readonly handler: XmlHandler,
  ) {}

  fail(detail: string): never {
    throw new AppError('invalid_spreadsheet', `the spreadsheet part ${this.part} is not valid XML: ${detail}`);
  }

  /** Stops the scan after the current callback (the rest of the part is not read). */
  stop(): void {
    this.stopped = true;
  }

  /** Whether the handler stopped the scan: the rest of the part need not be read. */
  get isStopped(): boolean {
    return this.stopped;
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
      if (semicolon === -1 || semicolon - amp > LONGEST_REFERENCE) {
        this.fail(`a bare "&" (${JSON.stringify(raw.slice(amp, amp + LONGEST_REFERENCE))}…)`);
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

  /** Scans the next piece of the part. */
  write(piece: string): void {
    if (this.stopped) return;
    if (this.carry.length >= LONG_CARRY) {
      this.waiting.push(piece);
      this.waitingLength += piece.length;
      if (this.waitingLength < this.carry.length) return;
      piece = this.waiting.join('');
      this.waiting = [];
      this.waitingLength = 0;
    }
    // join, not +: a cons string would make every character access in scan() slower.
    const xml = this.carry === '' ? piece : [this.carry, piece].join('');
    this.carry = '';
    this.scan(xml, false);
    this.offset += xml.length - this.carry.length;
    // The next piece is another text: the open elements keep their names, not positions.
    const { stack, names } = this;
    for (let index = names.length - 1; index >= 0 && names[index] === undefined; index--) {
      names[index] = xml.slice(stack[index * 2] as number, stack[index * 2 + 1] as number);
    }
  }

  /** Scans what is left and checks that the part is complete. */
  end(): void {
    if (this.stopped) return;
    const xml = this.carry + this.waiting.join('');
    this.carry = '';
    this.waiting = [];
    this.scan(xml, true);
    if (this.stopped) return;
    if (!this.rootSeen) this.fail('it has no root element');
    if (this.names.length > 0) this.fail('it ends before all its elements are closed (truncated?)');
  }

  /** Holds back the construct that starts at `from` until more text comes; at the end, fails. */
  private unfinished(xml: string, from: number, final: boolean, problem: string): void {
    if (final) this.fail(problem);
    this.carry = xml.slice(from);
  }

  /** Hands the text [from, to) to the handler, or, when more may follow, all but a cut reference. */
  private textUpTo(xml: string, from: number, to: number, final: boolean): void {
    let raw = xml.slice(from, to);
    if (!final) {
      const amp = raw.lastIndexOf('&');
      if (amp !== -1 && raw.length - amp <= LONGEST_REFERENCE && raw.indexOf(';', amp) === -1) {
        this.carry = raw.slice(amp);
        raw = raw.slice(0, amp);
      }
    }
    if (raw !== '') this.handler.text(raw.indexOf('&') === -1 ? raw : this.decode(raw));
  }

  private scan(xml: string, final: boolean): void {
    this.xml = xml;
    const { handler, stack, names } = this;
    const length = xml.length;
    let position = 0;

    while (position < length && !this.stopped) {
      const open = xml.indexOf('<', position);
      if (open === -1) {
        if (this.wantText && names.length > 0) this.textUpTo(xml, position, length, final);
        return;
      }
      if (open > position && this.wantText && names.length > 0) this.textUpTo(xml, position, open, true);
      if (!final && length - open < 9 && xml.charCodeAt(open + 1) === 33) {
        return this.unfinished(xml, open, final, ''); // "<!" and too little to tell what it starts
      }
      if (open + 1 >= length) return this.unfinished(xml, open, final, 'the last start tag is cut short (truncated?)');
      const next = xml.charCodeAt(open + 1);

      if (next === 47) {
        // </name>
        const close = xml.indexOf('>', open + 2);
        if (close === -1) return this.unfinished(xml, open, final, 'the last end tag is cut short (truncated?)');
        let nameEnd = close;
        while (nameEnd > open + 2 && isSpace(xml.charCodeAt(nameEnd - 1))) nameEnd--;
        if (names.length === 0) this.fail('an end tag has no start tag');
        const openEnd = stack.pop() as number;
        const openStart = stack.pop() as number;
        const name = names.pop();
        const matches =
          name === undefined
            ? sameText(xml, openStart, openEnd, open + 2, nameEnd)
            : nameEnd - (open + 2) === name.length && xml.startsWith(name, open + 2);
        if (!matches) {
          const opened = name ?? xml.slice(openStart, openEnd);
          this.fail(`the end tag </${shorten(xml.slice(open + 2, nameEnd), 40)}> does not close <${shorten(opened, 40)}>`);
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
        if (close === -1) return this.unfinished(xml, open, final, 'a processing instruction is never closed');
        position = close + 2;
        continue;
      }
      if (next === 33) {
        if (xml.startsWith('<!--', open)) {
          const close = xml.indexOf('-->', open + 4);
          if (close === -1) return this.unfinished(xml, open, final, 'a comment is never closed');
          position = close + 3;
          continue;
        }
        if (xml.startsWith('<![CDATA[', open)) {
          const close = xml.indexOf(']]>', open + 9);
          if (close === -1) return this.unfinished(xml, open, final, 'a CDATA section is never closed');
          if (this.wantText && names.length > 0) handler.text(xml.slice(open + 9, close));
          position = close + 3;
          continue;
        }
        if (xml.startsWith('<!DOCTYPE', open)) {
          this.fail('it has a DOCTYPE, which spreadsheet parts never have (refused: entities could be declared in it)');
        }
        this.fail('it has a "<!" that starts nothing known');
      }

      // <name attributes…> or <name …/>
      const cutShort = 'the last start tag is cut short (truncated?)';
      let at = open + 1;
      const nameStart = at;
      while (at < length && isNameChar(xml.charCodeAt(at))) at++;
      if (at === nameStart) this.fail(`a "<" is not followed by a name (at offset ${this.offset + open})`);
      this.setName(nameStart, at);
      let count = 0;
      const attrs = this.attrs;
      let selfClosing = false;
      for (;;) {
        while (at < length && isSpace(xml.charCodeAt(at))) at++;
        if (at >= length) return this.unfinished(xml, open, final, cutShort);
        const char = xml.charCodeAt(at);
        if (char === 62) {
          at++;
          break;
        }
        if (char === 47) {
          if (at + 1 >= length) return this.unfinished(xml, open, final, cutShort);
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
        if (at >= length) return this.unfinished(xml, open, final, cutShort);
        if (xml.charCodeAt(at) !== 61) this.fail(`an attribute without a value in the tag <${this.localName()}>`);
        at++;
        while (at < length && isSpace(xml.charCodeAt(at))) at++;
        if (at >= length) return this.unfinished(xml, open, final, cutShort);
        const quote = xml.charCodeAt(at);
        if (quote !== 34 && quote !== 39) this.fail(`an attribute value without quotes in the tag <${this.localName()}>`);
        const valueEnd = xml.indexOf(quote === 34 ? '"' : "'", at + 1);
        if (valueEnd === -1) return this.unfinished(xml, open, final, 'an attribute value is never closed (truncated?)');
        attrs[count * 4] = attrStart;
        attrs[count * 4 + 1] = attrEnd;
        attrs[count * 4 + 2] = at + 1;
        attrs[count * 4 + 3] = valueEnd;
        count++;
        at = valueEnd + 1;
      }
      this.attrCount = count;
      if (names.length === 0) {
        if (this.rootSeen) this.fail('it has more than one root element');
        this.rootSeen = true;
      }
      if (!selfClosing) {
        if (names.length >= MAX_XML_DEPTH) this.fail(`elements are nested more than ${MAX_XML_DEPTH} deep`);
        stack.push(nameStart, this.nameEnd);
        names.push(undefined);
      }
      position = at;
      handler.start(this, selfClosing);
      if (selfClosing) this.attrCount = 0;
    }
  }

  private setName(start: number, end: number): void {
    this.nameEnd = end;
    this.localStart = localStart(this.xml, start, end);
  }
}

function sameText(xml: string, start1: number, end1: number, start2: number, end2: number): boolean {
  if (end1 - start1 !== end2 - start2) return false;
  for (let index = 0; index < end1 - start1; index++) {
    if (xml.charCodeAt(start1 + index) !== xml.charCodeAt(start2 + index)) return false;
  }
  return true;
}

/** Where the local part of the name in [start, end) begins (after its last colon). */
function localStart(xml: string, start: number, end: number): number {
  for (let index = end - 1; index >= start; index--) {
    if (xml.charCodeAt(index) === 58) return index + 1;
  }
  return start;
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

/**
 * Scans a part of a zip archive as it is inflated, piece by piece (stopping early when the
 * handler stops the scan); false when the archive has no such part.
 */
export async function scanZipPart(zip: ZipArchive, part: string, handler: XmlHandler): Promise<boolean> {
  const entry = zip.entry(part);
  if (entry === undefined) return false;
  const scanner = new XmlScanner(part, handler);
  const decoder = new TextDecoder('utf-8');
  for await (const piece of zip.readPieces(entry)) {
    scanner.write(decoder.decode(piece, { stream: true }));
    if (scanner.isStopped) return true;
  }
  scanner.write(decoder.decode());
  scanner.end();
  return true;
}
