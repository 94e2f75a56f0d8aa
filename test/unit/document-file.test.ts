import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  FeatureFileWriter,
  documentText,
  featureArrayOf,
  featureBytes,
  featuresArrayText,
  readDocumentHead,
  readFeatures,
  type DocumentFile,
  type DocumentFileSource,
} from '../../lib/formats/documentFile.js';
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

function write(name: string, features: MapFeature[], head: object): { file: DocumentFile; writer: FeatureFileWriter } {
  const writer = new FeatureFileWriter(path.join(dir, name));
  for (const each of features) writer.add(each);
  const { featuresBytes } = writer.finish(head as never);
  return { file: { key: name, featuresBytes }, writer };
}

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

  it('give the features as the text of one JSON array, as stored or changed, and the whole document', async () => {
    const { file } = write('b', features, head);
    const asStored = (await collect(featuresArrayText(featureBytes(source, file)))).map(String).join('');
    expect(JSON.parse(asStored)).toEqual(features);
    const changed = (await collect(featureArrayOf(readFeatures(source, file)))).join('');
    expect(JSON.parse(changed)).toEqual(features);
    const whole = (await collect(documentText(head as never, featuresArrayText(featureBytes(source, file))))).map(String).join('');
    expect(JSON.parse(whole)).toEqual({ ...head, features });
  });

  it('hold a document without features', async () => {
    const { file, writer } = write('c', [], { type: 'FeatureCollection', groups: [] });
    expect(file.featuresBytes).toBe(0);
    expect(await collect(readFeatures(source, file))).toEqual([]);
    expect(JSON.parse((await collect(featuresArrayText(featureBytes(source, file)))).map(String).join(''))).toEqual([]);
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
