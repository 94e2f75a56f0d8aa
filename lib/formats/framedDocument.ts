// How a parsed document is kept between the parse and the write: the document without its
// features, a newline, then the features array. JSON.stringify never writes a raw newline, so
// the two parts split cleanly, and the large features part can go to the database as text
// without being parsed again.
import type { MapDocument, MapFeature } from '../geojson/model.js';

export interface DocumentParts {
  /** The document without `features`, as JSON text. */
  head: string;
  /** The features array as JSON text. */
  features: string;
}

export function frameDocument(document: MapDocument): string {
  const { features, ...head } = document;
  return `${JSON.stringify(head)}\n${JSON.stringify(features)}`;
}

export function splitFramed(framed: string): DocumentParts {
  const cut = framed.indexOf('\n');
  return { head: framed.slice(0, cut), features: framed.slice(cut + 1) };
}

/** The whole document's JSON text, joined from its parts without parsing them. */
export function joinParts({ head, features }: DocumentParts): string {
  return head === '{}' ? `{"features":${features}}` : `${head.slice(0, -1)},"features":${features}}`;
}

export function parseParts({ head, features }: DocumentParts): MapDocument {
  const document = JSON.parse(head) as MapDocument;
  document.features = JSON.parse(features) as MapFeature[];
  return document;
}

/** True when the features are numbered 1, 2, 3 … in order (then appending to an empty map keeps them). */
export const hasSequentialIds = (features: readonly MapFeature[]): boolean => features.every((feature, index) => feature.id === index + 1);
