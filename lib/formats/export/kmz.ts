// A map as KMZ (the KMZ download): the KML download's document as doc.kml, with the images of
// its overlays inside the archive (files/<image id>.<png|jpg>) for their GroundOverlays to name.
// An overlay whose image is not given (gone, or past the caller's byte budget) names `otherHref`.
import type { MapFeature, MapGroup } from '../../geojson/model.js';
import { kmlOfMap, type OverlayHref } from './kml.js';
import { zipOf, type ZipEntryInput } from './zipWrite.js';

export interface ArchivedImage {
  bytes: Uint8Array;
  extension: 'png' | 'jpg';
}

export function kmzOfMap(
  map: { title: string; description: string },
  features: readonly MapFeature[],
  groups: readonly MapGroup[],
  images: ReadonlyMap<string, ArchivedImage>,
  otherHref: OverlayHref = () => undefined,
): Buffer {
  const fileOf = (id: string, image: ArchivedImage) => `files/${id}.${image.extension}`;
  const href: OverlayHref = (id) => {
    const image = images.get(id);
    return image ? fileOf(id, image) : otherHref(id);
  };
  const kml = kmlOfMap(map, features, groups, href);
  const entries: ZipEntryInput[] = [{ name: 'doc.kml', data: Buffer.from(kml, 'utf8') }];
  for (const [id, image] of images) entries.push({ name: fileOf(id, image), data: image.bytes, store: true });
  return zipOf(entries);
}
