// How a parsed document is kept between the parse and the write: a file of the features, one
// JSON text per line (JSON.stringify never writes a raw line break), a line break, then the
// rest of the document (the "head": type, groups, other top-level keys) as one JSON text.
// The parser thread writes each feature as soon as it is converted, so no stage ever holds all
// of them; the write activities stream the lines into the database.
import fs from 'node:fs';
import type { Readable } from 'node:stream';
import { collectMediaReferences, type DocumentHead, type MapFeature } from '../geojson/model.js';
import { featureTooLarge, mapTooLarge, MAX_FEATURE_BYTES, MAX_MAP_BYTES } from '../geojson/sizeLimits.js';
import { featureHoldsPieces, writeFeatureJson } from './jsonPieces.js';
import { imageToResolve } from './linkMedia.js';
import type { FeatureSink } from './types.js';

/** Where a document file is and where its features end. */
export interface DocumentFile {
  key: string;
  /** Bytes of the feature lines (the head starts one byte later). */
  featuresBytes: number;
}

export type { DocumentHead } from '../geojson/model.js';

const FLUSH_CHARS = 64 * 1024;

/** How much a document file may hold: what a map and one of its items may be (tests set less). */
export interface DocumentBudget {
  documentBytes: number;
  featureBytes: number;
}

const MAP_BUDGET: DocumentBudget = { documentBytes: MAX_MAP_BYTES, featureBytes: MAX_FEATURE_BYTES };

/** Bytes of the document documentText() makes of a head and feature lines of `featuresBytes`. */
export function documentBytes(head: DocumentHead, featuresBytes: number): number {
  const headBytes = Buffer.byteLength(JSON.stringify(head));
  // {"features":[…]} alone, or the head's text with ,"features":[…] before its closing brace.
  return headBytes === 2 ? featuresBytes + 15 : headBytes + featuresBytes + 14;
}

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
  private pendingBytes = 0;
  private written = 0;
  /** Where the feature being added started (bytes written and pending before it). */
  private featureStart = 0;
  private added = 0;
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

  add(feature: MapFeature): void {
    if (feature.id !== this.added + 1) this.sequentialIds = false;
    collectMediaReferences(feature, this.images, this.markers);
    const image = imageToResolve(feature);
    if (image !== undefined && !image.startsWith('media:')) this.imagesToResolve.add(image);
    if (this.added > 0) this.append('\n');
    this.added++;
    this.featureStart = this.written + this.pendingBytes;
    if (featureHoldsPieces(feature)) {
      // A long track: its text is written as its parts produce it, never as one string.
      writeFeatureJson(feature, (piece) => this.append(piece));
      return;
    }
    const text = JSON.stringify(feature);
    if (text.length >= FLUSH_CHARS) {
      // A large feature (a long line, a detailed polygon) is written as it is, not joined to others first.
      this.flush();
      this.charge(Buffer.byteLength(text));
      this.written += this.write(text);
      return;
    }
    this.append(text);
  }

  private append(text: string): void {
    this.charge(text.length === 1 && text.charCodeAt(0) < 0x80 ? 1 : Buffer.byteLength(text));
    this.pending.push(text);
    this.pendingChars += text.length;
    if (this.pendingChars >= FLUSH_CHARS) this.flush();
  }

  /** Counts bytes about to be written to the current feature; refuses them past the budget. */
  private charge(bytes: number): void {
    this.pendingBytes += bytes;
    const total = this.written + this.pendingBytes;
    if (total - this.featureStart > this.budget.featureBytes) throw featureTooLarge(`Item ${this.added} of the file`);
    if (total > this.budget.documentBytes) throw mapTooLarge();
  }

  /** Writes the head after the features and closes the file. */
  finish(head: DocumentHead): { featuresBytes: number } {
    this.flush();
    const featuresBytes = this.written;
    if (documentBytes(head, featuresBytes) > this.budget.documentBytes) throw mapTooLarge(documentBytes(head, featuresBytes));
    this.write(`\n${JSON.stringify(head)}`);
    this.abandon();
    return { featuresBytes };
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
    this.pendingBytes = 0;
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

export async function readDocumentHead(source: DocumentFileSource, file: DocumentFile): Promise<DocumentHead> {
  const chunks: Buffer[] = [];
  for await (const chunk of source.readStream(file.key, { start: file.featuresBytes + 1, end: Number.MAX_SAFE_INTEGER })) {
    chunks.push(chunk as Buffer);
  }
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as DocumentHead;
}

/** The feature lines' bytes as they are stored (chunks end anywhere, also inside a line). */
export async function* featureBytes(source: DocumentFileSource, file: DocumentFile): AsyncGenerator<Buffer> {
  if (file.featuresBytes === 0) return;
  yield* source.readStream(file.key, { start: 0, end: file.featuresBytes - 1 }) as AsyncIterable<Buffer>;
}

/** The features, parsed one at a time. */
export async function* readFeatures(source: DocumentFileSource, file: DocumentFile): AsyncGenerator<MapFeature> {
  let rest = '';
  const decoder = new TextDecoder();
  for await (const chunk of featureBytes(source, file)) {
    const text = rest + decoder.decode(chunk, { stream: true });
    let start = 0;
    for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
      yield JSON.parse(text.slice(start, end)) as MapFeature;
      start = end + 1;
    }
    rest = text.slice(start);
  }
  rest += decoder.decode();
  if (rest !== '') yield JSON.parse(rest) as MapFeature;
}

const LINE_BREAK = 0x0a;
const COMMA = 0x2c;

/** The stored feature lines as the text of one JSON array: "[", the lines joined by ",", "]". */
export async function* featuresArrayText(lines: AsyncIterable<Buffer>): AsyncGenerator<Buffer | string> {
  yield '[';
  for await (const chunk of lines) {
    // A line break byte never occurs inside UTF-8 sequences or JSON strings: swap it in place.
    for (let at = chunk.indexOf(LINE_BREAK); at !== -1; at = chunk.indexOf(LINE_BREAK, at + 1)) chunk[at] = COMMA;
    yield chunk;
  }
  yield ']';
}

/** Features (changed on the way, say) as the text of one JSON array, in chunks of about 256 KB. */
export async function* featureArrayOf(features: AsyncIterable<MapFeature>): AsyncGenerator<string> {
  let batch = '[';
  let first = true;
  for await (const feature of features) {
    batch += (first ? '' : ',') + JSON.stringify(feature);
    first = false;
    if (batch.length >= 256 * 1024) {
      yield batch;
      batch = '';
    }
  }
  yield `${batch}]`;
}

/** The whole document's JSON text: the head with the features array put in as "features". */
export async function* documentText(
  head: DocumentHead,
  featuresArray: AsyncIterable<Buffer | string> | Iterable<Buffer | string>,
): AsyncGenerator<Buffer | string> {
  const headText = JSON.stringify(head);
  yield headText === '{}' ? '{"features":' : `${headText.slice(0, -1)},"features":`;
  yield* featuresArray;
  yield '}';
}
