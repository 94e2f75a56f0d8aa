// Sending a photo or a custom icon from the editor: the chosen file as a multipart form to the
// map's POST /maps/{id}/images or /maps/{id}/markers (the service tells the type from its bytes
// and runs the API's image/marker upload), and what a feature keeps of the answer: its `image`
// property ({id, w, h, tip_color, avg_color}, as the interface spec has it) or its `marker_id`.
// Every failure comes back as a message to show, never as an exception.
import type { FeatureImage, ImageUploadAnswer } from '../../lib/media/fields.js';
import { MEDIA_ID } from '../../lib/mediaId.js';

/** The map's upload addresses and this page's form token (X-CSRF-Token). */
export interface MediaUrls {
  imagesUrl: string;
  markersUrl: string;
  csrf: string;
}

/** image/upload's answer. */
export type ImageAnswer = ImageUploadAnswer;

/** A feature's `image` property. */
export type ImageValue = FeatureImage;

export const imageValueOf = (answer: ImageAnswer): ImageValue => ({
  id: answer.image_id,
  w: answer.width,
  h: answer.height,
  tip_color: answer.tip_color,
  avg_color: answer.avg_color,
});

/** The `image` property of a feature when it is one (an id and a size), else undefined. */
export function imageOf(value: unknown): ImageValue | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const image = value as Partial<ImageValue>;
  if (typeof image.id !== 'string' || !MEDIA_ID.test(image.id)) return undefined;
  const size = (n: unknown) => (typeof n === 'number' && n > 0 ? n : 1);
  const color = (c: unknown) => (typeof c === 'string' && /^#[0-9a-f]{6}$/i.test(c) ? c : '#dde3e8');
  return { id: image.id, w: size(image.w), h: size(image.h), tip_color: color(image.tip_color), avg_color: color(image.avg_color) };
}

export type Uploaded<T> = { answer: T; error?: undefined } | { answer?: undefined; error: string };

/** Sends the file; answers the service's answer or a message saying why it was not stored. */
export async function uploadMedia<T extends object>(url: string, csrf: string, file: File): Promise<Uploaded<T>> {
  const form = new FormData();
  form.append('file', file, file.name);
  let response: Response;
  try {
    response = await fetch(url, { method: 'POST', credentials: 'same-origin', headers: { 'x-csrf-token': csrf }, body: form });
  } catch {
    return { error: 'The file could not be sent: the service did not answer. Check the connection and try again.' };
  }
  let answer: (T & { error?: unknown }) | undefined;
  try {
    answer = (await response.json()) as T & { error?: unknown };
  } catch {
    answer = undefined;
  }
  if (!answer || typeof answer !== 'object') return { error: `The file could not be stored: the service answered HTTP ${response.status}.` };
  if (!response.ok || answer.error !== undefined) return { error: typeof answer.error === 'string' ? answer.error : `The file could not be stored (HTTP ${response.status}).` };
  return { answer };
}

/** A file's name without its extension (a new item's title). */
export const baseName = (name: string): string => name.replace(/\.[^.]{1,5}$/, '').trim().slice(0, 200);
