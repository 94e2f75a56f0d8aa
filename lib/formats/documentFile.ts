// How a parsed document is kept between the parse and the write: a file of the features, one
// row line each (./featureRows.ts: id, group, bounding box, media and the JSON text, in the text
// format of PostgreSQL's COPY), then the rest of the document (the "head": type, groups, other
// top-level keys) as one JSON text. The parser thread writes each feature as soon as it is
// converted, so no stage ever holds all of them; the write activities stream the lines into
// map_features.
import fs from 'node:fs';
import type { Readable } from 'node:stream';
import { collectMediaReferences, type DocumentHead, type MapFeature } from '../geojson/model.js';
import { featureTooLarge, mapTooLarge, MAX_FEATURE_BYTES, MAX_MAP_BYTES } from '../geojson/sizeLimits.js';
import { copyJson, linesOf, parseRowLine, pointFeatureText, pointRowLine, rowLine, rowLineStart, rowOf, type FeatureRow, type PointTexts } from './featureRows.js';
import { featureHoldsPieces, writeFeatureJson } from './jsonPieces.js';
import { imageToResolve } from './linkMedia.js';
import type { FeatureSink } from './types.js';

/** Where a document file is and where its features end. */
export interface DocumentFile {
  key: string;
  /** Bytes of the feature row lines (the head starts right after). */
  rowBytes: number;
}

export type { DocumentHead } from '../geojson/model.js';

const FLUSH_CHARS = 64 * 1024;

/** How much a document file may hold: what a map and one of its items may be (tests set less). */
export interface DocumentBudget {
  documentBytes: number;
  featureBytes: number;
}

const MAP_BUDGET: DocumentBudget = { documentBytes: MAX_MAP_BYTES, featureBytes: MAX_FEATURE_BYTES };

/**
 * Where the row lines also go as they are written (an append that streams them into the
 * database while the file is still being parsed): each write's bytes, in a buffer of their own
 * that the receiver may keep (or transfer to another thread). With `firstId`, the features are
 * numbered from it in the file's order (the ids an append reserved), whatever the parser gave.
 */
export interface RowStream {
  firstId?: number;
  rows(bytes: Uint8Array<ArrayBuffer>): void;
}

/**
 * Bytes of the map document made of a head and features whose JSON texts have `featureBytes`
 * in all: the head's text with ,"features":[…] before its closing brace ({"features":[…]} for
 * an empty head), the features separated by commas (documentOpening; the database works out the
 * same for a stored map: db/migrations/017_content_bytes_from_rows.ts).
 */
export function documentBytes(head: DocumentHead, featureBytes: number, featureCount: number): number {
  const headBytes = Buffer.byteLength(JSON.stringify(head));
  const features = featureBytes + Math.max(0, featureCount - 1);
  return headBytes === 2 ? features + 15 : headBytes + features + 14;
}

/**
 * What a map document's text starts with, before its features: the head's text with
 * ,"features":[ before its closing brace ({"features":[ for an empty head). The features follow,
 * separated by commas, then DOCUMENT_CLOSING.
 */
export function documentOpening(headText: string): string {
  return headText === '{}' ? '{"features":[' : `${headText.slice(0, -1)},"features":[`;
}

export const DOCUMENT_CLOSING = ']}';

/**
 * The sink of a parser thread: writes features to a document file as they come, in writes of
 * about 64 kB (larger strings and buffers would live in V8's large-object space until a full
 * collection; measured on a 15 MB CSV read in 64 kB pieces: 22 MB above idle with 1 MB writes,
 * 14 MB with these). It counts the bytes as it goes and refuses the file (map_too_large,
 * feature_too_large) as soon as the document or one feature outgrows its budget, whatever the
 * parser expanded to get there.
 */
export class FeatureFileWriter implements FeatureSink {
  private readonly fd: number;
  /** The bytes of one write, reused: fresh buffers would pile up outside the heap until a collection. */
  private readonly buffer = Buffer.allocUnsafe(FLUSH_CHARS * 3);
  private pending: string[] = [];
  private pendingChars = 0;
  private written = 0;
  /** Bytes of the features' JSON texts (what a map holds), and where the current one started. */
  private jsonBytes = 0;
  private featureStart = 0;
  private added = 0;
  /** The largest feature id written (the map's next id comes after it). */
  maxId = 0;
  private open = true;
  /** The features are numbered 1, 2, 3 … in order. */
  sequentialIds = true;
  /** Images and markers the features reference (placeholders included until media is linked). */
  readonly images = new Set<string>();
  readonly markers = new Set<string>();
  /** Ids of `image` properties that still need their fields from the stored images. */
  readonly imagesToResolve = new Set<string>();

  constructor(
    file: string,
    private readonly budget: DocumentBudget = MAP_BUDGET,
    private stream?: RowStream,
  ) {
    this.fd = fs.openSync(file, 'w');
  }

  get count(): number {
    return this.added;
  }

  /** The images and markers referenced so far, sorted. */
  references(): { images: string[]; markers: string[] } {
    return { images: [...this.images].sort(), markers: [...this.markers].sort() };
  }

  add(feature: MapFeature, point?: PointTexts): void {
    if (this.stream?.firstId !== undefined) feature.id = this.stream.firstId + this.added;
    if (feature.id !== this.added + 1) this.sequentialIds = false;
    if (feature.id > this.maxId) this.maxId = feature.id;
    collectMediaReferences(feature, this.images, this.markers);
    const image = imageToResolve(feature);
    if (image !== undefined && !image.startsWith('media:')) this.imagesToResolve.add(image);
    this.added++;
    this.featureStart = this.jsonBytes;
    if (featureHoldsPieces(feature)) {
      // A long track, a large geometry: its text is written as its parts produce it, never as one string.
      this.append(rowLineStart(rowOf(feature, '')), false);
      writeFeatureJson(feature, (piece) => this.append(copyJson(piece), true));
      this.append('\n', false);
      return;
    }
    const text = point ? pointFeatureText(feature, point) : JSON.stringify(feature);
    this.chargeJson(Buffer.byteLength(text));
    const row = rowOf(feature, text);
    const line = point ? pointRowLine(row, point) : rowLine(row);
    if (line.length >= FLUSH_CHARS) {
      // A large feature (a long line, a detailed polygon) is written as it is, not joined to others first.
      this.flush();
      this.written += this.write(line);
      return;
    }
    this.append(line, false);
  }

  /** Adds text to the file; `json`: it is (escaped) JSON text of the feature, counted against the budget. */
  private append(text: string, json: boolean): void {
    if (json) this.chargeJson(Buffer.byteLength(text)); // escaping doubles backslashes only: close enough to count
    this.pending.push(text);
    this.pendingChars += text.length;
    if (this.pendingChars >= FLUSH_CHARS) this.flush();
  }

  /** Counts bytes of the current feature's JSON text; refuses them past the budget. */
  private chargeJson(bytes: number): void {
    this.jsonBytes += bytes;
    if (this.jsonBytes - this.featureStart > this.budget.featureBytes) throw featureTooLarge(`Item ${this.added} of the file`);
    if (this.jsonBytes + this.added > this.budget.documentBytes) throw mapTooLarge();
  }

  /** Writes the head after the features and closes the file. */
  finish(head: DocumentHead): { rowBytes: number; featureBytes: number; contentBytes: number } {
    this.flush();
    this.stream = undefined; // the head is no row
    const rowBytes = this.written;
    const contentBytes = documentBytes(head, this.jsonBytes, this.added);
    if (contentBytes > this.budget.documentBytes) throw mapTooLarge(contentBytes);
    this.write(JSON.stringify(head));
    this.abandon();
    return { rowBytes, featureBytes: this.jsonBytes, contentBytes };
  }

  /** Closes the file (again: nothing) without finishing it; the caller discards it. */
  abandon(): void {
    if (!this.open) return;
    this.open = false;
    fs.closeSync(this.fd);
  }

  private flush(): void {
    if (this.pending.length === 0) return;
    this.written += this.write(this.pending.join(''));
    this.pending = [];
    this.pendingChars = 0;
  }

  /** Writes text (in slices, so a long text never becomes one large buffer); returns the bytes written. */
  private write(text: string): number {
    let total = 0;
    for (let start = 0; start < text.length; ) {
      let end = Math.min(start + FLUSH_CHARS, text.length);
      // Never cut a surrogate pair: each half alone would be written as U+FFFD.
      const last = text.charCodeAt(end - 1);
      if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
      const length = this.buffer.write(text.slice(start, end));
      for (let at = 0; at < length; ) at += fs.writeSync(this.fd, this.buffer, at, length - at);
      if (this.stream) this.stream.rows(new Uint8Array(this.buffer.subarray(0, length)));
      total += length;
      start = end;
    }
    return total;
  }
}

/** Source of a document file's bytes (the blob store). */
export interface DocumentFileSource {
  readStream(key: string, range?: { start: number; end: number }): Readable;
}

/** The head of a document file that is still a local file (a parse's output). */
export const readLocalDocumentHead = (file: string, rowBytes: number): Promise<DocumentHead> =>
  readDocumentHead({ readStream: (_key, range) => fs.createReadStream(file, range) }, { key: file, rowBytes });

/** The row lines of a document file that is still a local file (a parse's output). */
export const localRowLineBytes = (file: string, rowBytes: number): AsyncGenerator<Buffer> =>
  rowLineBytes({ readStream: (_key, range) => fs.createReadStream(file, range) }, { key: file, rowBytes });

export async function readDocumentHead(source: DocumentFileSource, file: DocumentFile): Promise<DocumentHead> {
  const chunks: Buffer[] = [];
  for await (const chunk of source.readStream(file.key, { start: file.rowBytes, end: Number.MAX_SAFE_INTEGER })) {
    chunks.push(chunk as Buffer);
  }
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as DocumentHead;
}

/** The feature row lines' bytes as they are stored (chunks end anywhere, also inside a line). */
export async function* rowLineBytes(source: DocumentFileSource, file: DocumentFile): AsyncGenerator<Buffer> {
  if (file.rowBytes === 0) return;
  yield* source.readStream(file.key, { start: 0, end: file.rowBytes - 1 }) as AsyncIterable<Buffer>;
}

/** The feature rows, one at a time. */
export async function* readRows(source: DocumentFileSource, file: DocumentFile): AsyncGenerator<FeatureRow> {
  for await (const line of linesOf(rowLineBytes(source, file))) yield parseRowLine(line);
}

/** The features, parsed one at a time. */
export async function* readFeatures(source: DocumentFileSource, file: DocumentFile): AsyncGenerator<MapFeature> {
  for await (const row of readRows(source, file)) yield JSON.parse(row.text) as MapFeature;
}
