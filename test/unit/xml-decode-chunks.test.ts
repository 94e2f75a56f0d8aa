import { describe, expect, it } from 'vitest';
import { decodeXmlChunks } from '../../lib/formats/xml/decode.js';

const decodeAll = (bytes: Uint8Array, chunkBytes: number) => [...decodeXmlChunks(bytes, 'KML file', chunkBytes)];

describe('decodeXmlChunks', () => {
  const text = '<?xml version="1.0"?>\n<kml><name>Zürich – 東京 🗺</name></kml>\n';

  it('decodes in pieces that join into the text, whatever byte a piece ends on', () => {
    const utf8 = new TextEncoder().encode(text);
    for (const size of [1, 2, 3, 5, 7, 64]) expect(decodeAll(utf8, size).join('')).toBe(text);
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    expect(decodeAll(utf16, 3).join('')).toBe(text);
  });

  it('counts lines across pieces when it reports a NUL character', () => {
    const bytes = new TextEncoder().encode('<kml>\n<a/>\n<b/>\n\u0000</kml>');
    expect(() => decodeAll(bytes, 4)).toThrow(/NUL character \(line 4\)/);
  });

  it('refuses broken UTF-8 and blank files', () => {
    expect(() => decodeAll(new Uint8Array([0x3c, 0x6b, 0xc3, 0x28]), 2)).toThrow(/not valid UTF-8/);
    expect(() => decodeAll(new TextEncoder().encode('  \n\t '), 2)).toThrow(/is empty/);
  });
});
