// A map as KMZ (the KMZ download): the KML download's document as doc.kml, with the images of
// its overlays inside the archive (files/<image id>.<png|jpg>) for their GroundOverlays to name.
// An overlay whose image is not given (gone, or past the caller's byte budget) names `otherHref`.
import type { MapFeature, MapGroup } from '../../geojson/model.js';
import { kmlOfMap, type OverlayHref } from './kml.js';
import JSZip from 'jszip';

export interface ArchivedImage {
  bytes: Uint8Array;
  extension: 'png' | 'jpg';
}

export async function kmzOfMap(
  map: { title: string; description: string },
  features: readonly MapFeature[],
  groups: readonly MapGroup[],
  images: ReadonlyMap<string, ArchivedImage>,
  otherHref: OverlayHref = () => undefined,
): Promise<Buffer> {
  const fileOf = (id: string, image: ArchivedImage) => `files/${id}.${image.extension}`;
  const href: OverlayHref = (id) => {
    const image = images.get(id);
    return image ? fileOf(id, image) : otherHref(id);
  };
  const kml = kmlOfMap(map, features, groups, href);
  const zip = new JSZip();
  zip.file('doc.kml', kml, { compression: 'DEFLATE' });
  // Images are compressed already: stored as they are.
  for (const [id, image] of images) zip.file(fileOf(id, image), image.bytes, { compression: 'STORE', createFolders: false });
  return zip.generateAsync({ type: 'nodebuffer', platform: 'DOS' });
}
