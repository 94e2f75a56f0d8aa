// The spreadsheet XML scanner reads parts in pieces as they are inflated: a tag, an attribute
// value, a comment, a CDATA section or a reference cut by the end of a piece must read exactly
// as in one piece, and a broken part must fail with the same message.
import { describe, expect, it } from 'vitest';
import { AppError } from '../../lib/errors.js';
import { XmlScanner, type XmlHandler } from '../../lib/formats/spreadsheet/xml.js';

/** Every event the scanner reports, text runs joined (a handler may get one text in several calls). */
function recorder(): XmlHandler & { events: string[] } {
  const events: string[] = [];
  let text = '';
  const flush = () => {
    if (text !== '') events.push(`text ${JSON.stringify(text)}`);
    text = '';
  };
  return {
    events,
    start(s, selfClosing) {
      flush();
      const attrs = ['r', 't', 'a:b', 'b', 'v'].map((name) => `${name}=${s.attr(name) ?? '-'}`).join(' ');
      events.push(`start ${s.localName()} ${attrs}${selfClosing ? ' /' : ''}`);
      // Text is wanted inside <t> and <v>, as the XLSX reader asks for it.
      if (!selfClosing && (s.is('t') || s.is('v'))) s.wantText = true;
    },
    end(s) {
      flush();
      events.push(`end ${s.localName()}`);
      if (s.is('t') || s.is('v')) s.wantText = false;
    },
    text(part) {
      text += part;
    },
  };
}

function outcome(scan: (handler: XmlHandler) => void): string[] | { error: string } {
  const handler = recorder();
  try {
    scan(handler);
    return handler.events;
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return { error: error.message };
  }
}

function inPieces(xml: string, size: number) {
  return outcome((handler) => {
    const scanner = new XmlScanner('part.xml', handler);
    for (let at = 0; at < xml.length; at += size) scanner.write(xml.slice(at, at + size));
    scanner.end();
  });
}

const whole = (xml: string) => inPieces(xml, Math.max(xml.length, 1));

const SIZES = [1, 2, 3, 5, 7, 11, 64];

const GOOD = [
  '<?xml version="1.0" encoding="UTF-8"?>\n<!-- a comment with <tags> and -- dashes -->',
  '<sheet xmlns:a="urn:x"><row r="1"><c r="A1" t="s"><v>12</v></c><c r="B1" a:b="x &gt; y &amp; z"/>',
  '<c r=\'C1\' t="inlineStr"><is><t>caf&#xE9; &#233; &lt;b&gt; &quot;q&quot; &apos;</t></is></c>',
  '<c r="D1"><v><![CDATA[ <not a tag> & ]]></v></c><c r="E1"><v>a&amp;b&#128512;c</v></c>',
  '<c r="F1" v="value with > and / inside"  ><t>😀 ü</t></c></row>',
  '<?pi inside?><row r="2"><c r="A2"><t>long text ' + 'x'.repeat(9000) + '</t></c>',
  `<c r="B2" v="${'long attribute '.repeat(700)}"/><!--${'long comment '.repeat(700)}--></row></sheet>`,
].join('');

describe('spreadsheet XML read in pieces', () => {
  it('reads a part the same in pieces of any size', () => {
    const expected = whole(GOOD);
    expect(expected).not.toHaveProperty('error');
    expect(expected).toContain('text "café é <b> \\"q\\" \'"');
    expect(expected).toContain('start c r=B1 t=- a:b=x > y & z b=x > y & z v=- /');
    for (const size of SIZES) expect(inPieces(GOOD, size)).toEqual(expected);
  });

  it.each([
    ['a truncated start tag', '<sheet><row r="1"><c r="A1" t='],
    ['a truncated end tag', '<sheet><row></row'],
    ['an attribute value never closed', '<sheet><c r="A1/></sheet>'],
    ['a comment never closed', '<sheet><!-- open'],
    ['a CDATA section never closed', '<sheet><v><![CDATA[ text'],
    ['a processing instruction never closed', '<sheet><?pi'],
    ['a bare ampersand in text', '<sheet><t>fish & chips</t></sheet>'],
    ['a reference cut at the end', '<sheet><t>x &am'],
    ['an undefined entity', '<sheet><t>&nbsp;</t></sheet>'],
    ['a DOCTYPE', '<!DOCTYPE x [<!ENTITY a "b">]><x/>'],
    ['an unknown "<!"', '<sheet><!x></sheet>'],
    ['a mismatched end tag', '<sheet><row></col></sheet>'],
    ['an end tag without a start tag', '</sheet>'],
    ['two roots', '<a/><b/>'],
    ['no root', '<?xml version="1.0"?>  '],
    ['unclosed elements', '<sheet><row>'],
    ['a "<" without a name', '<sheet>< c/></sheet>'],
    ['an attribute without quotes', '<sheet><c r=A1/></sheet>'],
    ['nesting beyond the cap', '<a>'.repeat(300)],
  ])('fails the same way in pieces of any size: %s', (_label, xml) => {
    const expected = whole(xml);
    expect(expected).toHaveProperty('error');
    for (const size of SIZES) expect(inPieces(xml, size)).toEqual(expected);
  });
});
