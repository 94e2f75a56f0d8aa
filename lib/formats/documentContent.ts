// A whole map document (map/update's `geojson`, validated) as the content a map stores: the
// head's JSON text and one row line per feature; refused (map_too_large) when the document is
// larger than a map may be.
import { mediaReferences, type MapDocument } from '../geojson/model.js';
import { checkMapBytes } from '../geojson/sizeLimits.js';
import type { MapContent } from '../maps.js';
import { documentBytes } from './documentFile.js';
import { joinedLines, rowLine, rowOf } from './featureRows.js';

export function contentOfDocument(document: MapDocument): MapContent {
  const { features, ...head } = document;
  const lines: string[] = [];
  let featureBytes = 0;
  let maxId = 0;
  for (const feature of features) {
    const text = JSON.stringify(feature);
    featureBytes += Buffer.byteLength(text);
    if (feature.id > maxId) maxId = feature.id;
    lines.push(rowLine(rowOf(feature, text)));
  }
  checkMapBytes(documentBytes(head, featureBytes, features.length));
  return {
    head: JSON.stringify(head),
    lines: () => joinedLines(lines),
    featureCount: features.length,
    featureBytes,
    nextFeatureId: maxId + 1,
    media: mediaReferences(document),
  };
}
