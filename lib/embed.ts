// How a map is shared and embedded: its embed address (/embed/{id}, with the side panel or not;
// an unlisted map's with its link key) and the iframe code the Share dialog and the oEmbed answer hand out.
import { mapRef } from './mapSummary.js';
import type { MapRecord } from './maps.js';

export const EMBED_WIDTH = 768;
export const EMBED_HEIGHT = 576;

type EmbeddedMap = Pick<MapRecord, 'id' | 'linkKey'>;

export const embedUrl = (publicUrl: string, map: EmbeddedMap, panel: boolean): string => `${publicUrl}/embed/${mapRef(map)}${panel ? '?panel=1' : ''}`;

const escapeAttribute = (value: string): string => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** The iframe code of a map's embed. */
export function iframeCode(publicUrl: string, map: EmbeddedMap & { title: string }, options: { panel: boolean; width?: number; height?: number }): string {
  const width = options.width ?? EMBED_WIDTH;
  const height = options.height ?? EMBED_HEIGHT;
  return `<iframe src="${escapeAttribute(embedUrl(publicUrl, map, options.panel))}" width="${width}" height="${height}" title="${escapeAttribute(map.title)}" style="border:0" loading="lazy" allowfullscreen></iframe>`;
}
