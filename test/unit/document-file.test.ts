import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  DOCUMENT_CLOSING,
  FeatureFileWriter,
  documentBytes,
  documentOpening,
  readDocumentHead,
  readFeatures,
  readRows,
  rowLineBytes,
  type DocumentFile,
  type DocumentFileSource,
} from '../../lib/formats/documentFile.js';
import { parseRowLine } from '../../lib/formats/featureRows.js';
import type { MapFeature } from '../../lib/geojson/model.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mps-document-file-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Reads the file in 7-byte pieces, so lines and UTF-8 sequences are cut everywhere. */
const source: DocumentFileSource = {
  readStream: (key, range) => fs.createReadStream(path.join(dir, key), { ...range, highWaterMark: 7 }),
};

const feature = (id: number, properties: Record<string, unknown> = {}): MapFeature => ({
  type: 'Feature',
  id,
  geometry: { type: 'Point', coordinates: [id, id / 2] },
  properties,
});

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

function write(name: string, features: MapFeature[], head: object): { file: DocumentFile; writer: FeatureFileWriter; featureBytes: number; contentBytes: number } {
  const writer = new FeatureFileWriter(path.join(dir, name));
  for (const each of features) writer.add(each);
  const { rowBytes, featureBytes, contentBytes } = writer.finish(head as never);
  return { file: { key: name, rowBytes }, writer, featureBytes, contentBytes };
}

/** The document map/get would answer for a head and these feature texts. */
const documentOf = (head: object, texts: string[]): string => `${documentOpening(JSON.stringify(head))}${texts.join(',')}${DOCUMENT_CLOSING}`;

describe('document files', () => {
  const features = [
    feature(1, { title: 'Zürich 😀', description: 'two\nlines and a \\ backslash' }),
    feature(2, { image: { id: 'abcdefghijklmnop' }, marker_id: 'MARKER0000000001' }),
    feature(3, { image: { id: 'media:0' } }),
  ];
  const head = { type: 'FeatureCollection', groups: [{ id: 1, title: 'Line\nbreak' }], name: 'x' };

  it('keep the features line by line and the head after them', async () => {
    const { file, writer } = write('a', features, head);
    expect(await readDocumentHead(source, file)).toEqual(head);
    expect(await collect(readFeatures(source, file))).toEqual(features);
    expect(writer.count).toBe(3);
    expect(writer.sequentialIds).toBe(true);
    expect([...writer.images].sort()).toEqual(['abcdefghijklmnop', 'media:0']);
    expect([...writer.markers]).toEqual(['MARKER0000000001']);
    expect([...writer.imagesToResolve]).toEqual(['abcdefghijklmnop']);
  });

  it('keep one row per feature: id, group, bounding box, media and the exact JSON text', async () => {
    const grouped = [
      feature(4, { group: 'a\tb', title: 'tab in the group id' }),
      { type: 'Feature', id: 5, geometry: { type: 'LineString', coordinates: [[1, 5], [-3, 2], [0, 9]] }, properties: { group: 7 } },
      { type: 'Feature', id: 6, geometry: { type: 'GeometryCollection', geometries: [{ type: 'Point', coordinates: [10, -10] }, { type: 'MultiPoint', coordinates: [[-20, 30]] }] }, properties: {} },
    ] as MapFeature[];
    const { file } = write('rows', [...features, ...grouped], head);
    const rows = await collect(readRows(source, file));
    expect(rows.map((row) => row.id)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(rows.map((row) => row.text)).toEqual([...features, ...grouped].map((each) => JSON.stringify(each)));
    expect(rows.map((row) => row.group)).toEqual([null, null, null, '"a\\tb"', '7', null]);
    expect(rows[0]!.bbox).toEqual([1, 0.5, 1, 0.5]); // a point: a box of no size
    expect(rows[4]!.bbox).toEqual([-3, 2, 1, 9]);
    expect(rows[5]!.bbox).toEqual([-20, -10, 10, 30]);
    expect(rows.map((row) => [row.image, row.marker])).toEqual([
      [null, null],
      ['abcdefghijklmnop', 'MARKER0000000001'],
      ['media:0', null],
      [null, null],
      [null, null],
      [null, null],
    ]);
    // The lines are COPY text: one per feature, tabs and line breaks only between columns and lines.
    const text = (await collect(rowLineBytes(source, file))).map(String).join('');
    const lines = text.split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map(parseRowLine)).toEqual(rows);
  });

  it('count the bytes of the features\' texts and of the document they make', () => {
    const { featureBytes, contentBytes } = write('b', features, head);
    const texts = features.map((each) => JSON.stringify(each));
    expect(featureBytes).toBe(Buffer.byteLength(texts.join('')));
    const document = documentOf(head, texts);
    expect(JSON.parse(document)).toEqual({ ...head, features });
    expect(contentBytes).toBe(Buffer.byteLength(document));
    expect(documentBytes({} as never, featureBytes, 3)).toBe(Buffer.byteLength(documentOf({}, texts)));
    expect(documentBytes(head as never, 0, 0)).toBe(Buffer.byteLength(documentOf(head, [])));
  });

  it('hold a document without features', async () => {
    const { file, writer } = write('c', [], { type: 'FeatureCollection', groups: [] });
    expect(file.rowBytes).toBe(0);
    expect(await collect(readFeatures(source, file))).toEqual([]);
    expect(await collect(rowLineBytes(source, file))).toEqual([]);
    expect(writer.sequentialIds).toBe(true);
  });

  it('write a feature longer than one write in slices, never cutting a character in two', async () => {
    // Three prefixes put the cut at each of the three places in "😀é" (two UTF-16 units, one).
    const long = [feature(1, { title: 'a' }), ...[1, 2, 3].map((n) => feature(n + 1, { title: `${'x'.repeat(n)}${'😀é'.repeat(50_000)}` }))];
    const { file } = write('e', long, head);
    expect(await collect(readFeatures(source, file))).toEqual(long);
    expect(await readDocumentHead(source, file)).toEqual(head);
  });

  it('notice features that are not numbered 1, 2, 3 …', () => {
    expect(write('d', [feature(1), feature(3)], head).writer.sequentialIds).toBe(false);
  });
});
