// The item panel's Image field (every item) and Custom icon field (points): Add image (a JPEG or
// PNG from a file chooser) or Upload icon (PNG) sends the file (./mediaUpload.ts) and, once the
// service has stored it, sets the item's `image` ({id, w, h, tip_color, avg_color}) or its
// `marker_id` (the built-in icon then goes) as one undoable edit; the thumbnail shows the stored
// image (its average colour until it loads) or icon; Remove image / Remove custom icon take them
// off. "Uploading…" and a failed upload's message stay in the field; a failure changes nothing.
// An upload finishing updates its field in place (never the whole panel, so nothing half typed
// elsewhere in it is lost), and applies to the item it was chosen for even if another one is
// selected by then.
import { element } from './element.js';
import { type ItemMediaFields, type PropertyValue } from './itemPanel.js';
import { showIconChoice } from './iconPicker.js';
import { MEDIA_ID } from '../../lib/mediaId.js';
import type { MapFeature } from './mapFeature.js';
import { imageOf, imageValueOf, uploadMedia, type ImageAnswer, type ImageValue, type MediaUrls } from './mediaUpload.js';

type Kind = 'image' | 'marker';

export interface ItemMediaOptions extends MediaUrls {
  /** Sets properties of item `id` as one edit; undefined removes one. */
  setProperties(changes: Record<string, PropertyValue | undefined>, id: number): void;
  /** The item as it is now, when the panel shows it (else undefined). */
  shown(id: number): MapFeature | undefined;
}

interface Note {
  text: string;
  busy: boolean;
}

/** The thumbnail's box in CSS pixels: never larger than the stored 256-pixel size. */
const THUMB = { width: 256, height: 160 };

const TEXT: Record<Kind, { label: string; add: string; replace: string; remove: string; accept: string; busy: string; failed: string; empty: string }> = {
  image: {
    label: 'Image',
    add: 'Add image',
    replace: 'Replace image',
    remove: 'Remove image',
    accept: 'image/jpeg,image/png,.jpg,.jpeg,.png',
    busy: 'Uploading the image…',
    failed: 'The image was not added',
    empty: 'A JPEG or PNG photo, shown in the item’s popup.',
  },
  marker: {
    label: 'Custom icon',
    add: 'Upload icon (PNG)',
    replace: 'Replace custom icon',
    remove: 'Remove custom icon',
    accept: 'image/png,.png',
    busy: 'Uploading the icon…',
    failed: 'The icon was not added',
    empty: 'Your own picture for the point instead of a built-in icon: a PNG, best with a transparent background.',
  },
};

export class ItemMedia implements ItemMediaFields {
  /** Uploads under way and failed ones' messages, by item and kind. */
  private readonly notes = new Map<string, Note>();
  /** The field of each kind last drawn: the panel's (replaced in place when an upload ends). */
  private readonly fields = new Map<Kind, HTMLElement>();

  constructor(private readonly options: ItemMediaOptions) {}

  imageField(feature: MapFeature): HTMLElement {
    return this.draw(feature, 'image');
  }

  iconField(feature: MapFeature): HTMLElement {
    return this.draw(feature, 'marker');
  }

  private draw(feature: MapFeature, kind: Kind): HTMLElement {
    const key = `${feature.id}:${kind}`;
    // A failure's message is for the item it happened to: it goes when another item is shown.
    for (const [other, note] of this.notes) if (!note.busy && !other.startsWith(`${feature.id}:`)) this.notes.delete(other);
    const text = TEXT[kind];
    const prefix = kind === 'image' ? 'item-image' : 'item-custom-icon';
    const field = element('div', { class: 'field media-field', role: 'group', 'aria-labelledby': `${prefix}-label` });
    field.append(element('span', { class: 'media-label', id: `${prefix}-label` }, text.label));
    const image = kind === 'image' ? imageOf(feature.properties?.image) : undefined;
    const marker = kind === 'marker' ? markerOf(feature) : undefined;
    const present = image !== undefined || marker !== undefined;
    if (image) field.append(photo(image, feature));
    else if (marker) field.append(icon(marker));
    else field.append(element('p', { class: 'hint media-hint' }, text.empty));
    const note = this.notes.get(key);
    const input = element('input', { type: 'file', accept: text.accept, hidden: '', 'aria-label': `${text.label} file`, 'data-media-input': kind });
    const buttons = element('p', { class: 'media-buttons' });
    const choose = element('button', { type: 'button', class: 'secondary', id: `${prefix}-add` }, present ? text.replace : text.add);
    choose.addEventListener('click', () => input.click());
    buttons.append(choose);
    if (present) {
      const remove = element('button', { type: 'button', class: 'secondary', id: `${prefix}-remove` }, text.remove);
      remove.addEventListener('click', () => {
        this.notes.delete(key);
        this.options.setProperties(kind === 'image' ? { image: undefined } : { marker_id: undefined }, feature.id);
        this.redraw(feature.id, kind, `${prefix}-add`);
      });
      buttons.append(remove);
    }
    for (const button of buttons.querySelectorAll('button')) button.disabled = note?.busy === true;
    input.addEventListener('change', () => {
      const file = input.files?.[0];
      input.value = '';
      if (file) void this.upload(feature.id, kind, file);
    });
    field.append(buttons, input);
    if (note) field.append(element('p', { class: note.busy ? 'media-note' : 'media-note error', role: note.busy ? 'status' : 'alert' }, note.text));
    this.fields.set(kind, field);
    return field;
  }

  private async upload(id: number, kind: Kind, file: File): Promise<void> {
    const key = `${id}:${kind}`;
    const text = TEXT[kind];
    this.notes.set(key, { text: text.busy, busy: true });
    this.redraw(id, kind);
    const url = kind === 'image' ? this.options.imagesUrl : this.options.markersUrl;
    const result = await uploadMedia<ImageAnswer & { marker_id: string }>(url, this.options.csrf, file);
    if (result.error !== undefined) {
      this.notes.set(key, { text: `${text.failed}: ${result.error}`, busy: false });
    } else {
      this.notes.delete(key);
      this.options.setProperties(kind === 'image' ? { image: imageValueOf(result.answer) } : { marker_id: result.answer.marker_id, 'marker-symbol': undefined }, id);
    }
    this.redraw(id, kind, kind === 'image' ? 'item-image-add' : 'item-custom-icon-add');
  }

  /** Draws the item's field again where it is, if the panel still shows the item; then focuses `focus` if the focus was lost. */
  private redraw(id: number, kind: Kind, focus?: string): void {
    const old = this.fields.get(kind);
    const feature = this.options.shown(id);
    if (!old?.isConnected || !feature) return;
    const lost = !document.activeElement || document.activeElement === document.body || old.contains(document.activeElement);
    const panel = old.parentElement;
    old.replaceWith(this.draw(feature, kind));
    // A custom icon replaces the built-in one: the icon field is emptied with it.
    if (kind === 'marker' && panel) showIconChoice(panel, typeof feature.properties?.['marker-symbol'] === 'string' ? feature.properties['marker-symbol'] : undefined);
    if (lost && focus) document.getElementById(focus)?.focus();
  }
}

function markerOf(feature: MapFeature): string | undefined {
  const id = feature.properties?.marker_id;
  return typeof id === 'string' && MEDIA_ID.test(id) ? id : undefined;
}

function photo(image: ImageValue, feature: MapFeature): HTMLImageElement {
  const scale = Math.min(1, THUMB.width / image.w, THUMB.height / image.h);
  const title = typeof feature.properties?.title === 'string' && feature.properties.title.trim();
  const thumbnail = element('img', {
    class: 'media-thumb',
    src: `/images/${image.id}/s256`,
    srcset: `/images/${image.id}/s256 1x, /images/${image.id}/s512 2x`,
    width: String(Math.max(1, Math.round(image.w * scale))),
    height: String(Math.max(1, Math.round(image.h * scale))),
    alt: title ? `The photo of “${title}”` : 'The item’s photo',
  });
  thumbnail.style.background = image.avg_color; // through the CSSOM: the pages' CSP refuses style attributes
  return thumbnail;
}

function icon(markerId: string): HTMLImageElement {
  return element('img', { class: 'media-icon', src: `/markers/${markerId}/s64.png`, alt: 'The custom icon' });
}
