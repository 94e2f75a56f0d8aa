// The item panel of the editor (in the side panel): the selected item's title, Markdown
// description, link, media link, image and custom icon (./itemMedia.ts, given by the editor),
// icon (points: the built-in set, shown and searchable: ./iconPicker.ts), whether it shows when the map opens, its group,
// colour (22 swatches or a picker), a line's length or an area's size (metric or imperial,
// remembered; kept up to date while the shape is edited), Extend line, Delete and Done. A text
// label (lib/textLabels.ts) has its Text instead of a title, a text size and no icon. Changes are
// reported as property edits; the editor makes them (and their undo).
import { element } from './element.js';
import { isOverlay } from '../../lib/geojson/overlay.js';
import { isTextLabel, MAX_TEXT_SIZE, MIN_TEXT_SIZE, TEXT_LABEL_COLOR, textSize } from '../../lib/textLabels.js';
import { iconField } from './iconPicker.js';
import { groupOf, groupOutline, type MapGroup } from './groups.js';
import type { MapFeature } from './mapFeature.js';
import { measureOf, type Units } from './measure.js';
import type { ImageValue } from './mediaUpload.js';

const UNITS_KEY = 'map-units';

let chosen: Units | undefined;

/** The viewer's units: chosen on this page, else remembered in this browser, else metric. */
export function savedUnits(): Units {
  if (chosen) return chosen;
  try {
    return localStorage.getItem(UNITS_KEY) === 'imperial' ? 'imperial' : 'metric';
  } catch {
    return 'metric';
  }
}

/** The palette: 22 colours in two rows by hue (reds to cyans; light blue to white), beside a picker. */
export const SWATCHES = [
  '#d62728', '#b03a2e', '#d95f02', '#ff7f0e', '#e6ab02', '#fdd835', '#bcbd22', '#66a61e', '#2ca02c', '#1b9e77', '#17becf',
  '#a6cee3', '#2f6fd6', '#0b3d91', '#7570b3', '#9467bd', '#e7298a', '#f781bf', '#8c564b', '#8a8f94', '#1d232a', '#ffffff',
];
/** What an item without a colour is drawn in (the map adapter's default too). */
export const DEFAULT_SWATCH = '#2f6fd6';

/** A property's value: text, a number (a group's id), a flag, or an `image` ({id, w, h, tip_color, avg_color}). */
export type PropertyValue = string | number | boolean | ImageValue;

export interface ItemPanelActions {
  setProperty(name: string, value: PropertyValue | undefined): void;
  /** Sets several properties as one edit, of the selected item or of item `id`; undefined removes one. */
  setProperties(changes: Record<string, PropertyValue | undefined>, id?: number): void;
  /** The map's groups, for the item's group. */
  groups(): readonly MapGroup[];
  remove(): void;
  done(): void;
  /** Draws on from the line's last point (lines only). */
  extend?(): void;
  /** Moves the point to [longitude, latitude] (points only: its Latitude and Longitude fields). */
  moveTo?(coordinates: [number, number]): void;
  /** An image overlay's own section (./overlayPanel.ts): its image, opacity, move, size and turn. */
  overlay?(feature: MapFeature): HTMLElement;
}

/** The image and custom icon fields (./itemMedia.ts), when the editor can upload. */
export interface ItemMediaFields {
  imageField(feature: MapFeature): HTMLElement;
  iconField(feature: MapFeature): HTMLElement;
}

export class ItemPanel {
  readonly root = element('section', { class: 'item-panel', 'aria-label': 'Selected item' });

  constructor(
    private readonly actions: ItemPanelActions,
    private readonly media?: ItemMediaFields,
  ) {
    this.root.hidden = true;
  }

  hide(): void {
    this.root.hidden = true;
  }

  /** The shown item's length or area (or a point's latitude and longitude) for its shape as it is being edited. */
  showMeasure(geometry: MapFeature['geometry']): void {
    const text = this.root.querySelector('.measure')?.firstChild;
    const measure = measureOf(geometry, savedUnits());
    if (text && measure) text.textContent = `${measure} `;
    if (geometry?.type === 'Point') showCoordinates(this.root, geometry.coordinates);
  }

  focusTitle(): void {
    this.root.querySelector<HTMLInputElement>('#item-title')?.focus();
  }

  show(feature: MapFeature): void {
    // Shown again (a colour chosen, the units switched): the keyboard stays on the same control.
    const focused = this.root.contains(document.activeElement) ? controlKey(document.activeElement!) : undefined;
    this.render(feature);
    if (focused) [...this.root.querySelectorAll<HTMLElement>('input, textarea, select, button')].find((control) => controlKey(control) === focused)?.focus();
  }

  private render(feature: MapFeature): void {
    const properties = feature.properties ?? {};
    const { actions } = this;
    const label = isTextLabel(feature);
    // An image overlay: its own section instead of the Image field and the colour (its image is what it is).
    const overlay = isOverlay(properties) && actions.overlay ? actions.overlay : undefined;
    const heading = label ? (feature.id < 0 ? 'New text label' : 'Text label') : overlay ? (feature.id < 0 ? 'New image overlay' : 'Image overlay') : feature.id < 0 ? 'New item' : 'Item';
    this.root.replaceChildren(element('h2', {}, heading));
    this.root.hidden = false;
    const units = savedUnits();
    const measure = measureOf(feature.geometry, units);
    if (measure) {
      const line = element('p', { class: 'measure' }, `${measure} `);
      const other: Units = units === 'metric' ? 'imperial' : 'metric';
      const switcher = element('button', { type: 'button', class: 'link' }, other === 'imperial' ? 'in feet and miles' : 'in metres and kilometres');
      switcher.addEventListener('click', () => {
        chosen = other;
        try {
          localStorage.setItem(UNITS_KEY, other);
        } catch {
          // storage refused (private mode): the choice lasts for this page
        }
        this.show(feature);
      });
      line.append(switcher);
      this.root.append(line);
    }
    const field = <T extends HTMLInputElement | HTMLTextAreaElement>(id: string, label: string, input: T): T => {
      const wrapper = element('p', { class: 'field' });
      wrapper.append(element('label', { for: id }, label), input);
      this.root.append(wrapper);
      return input;
    };
    const title = field('item-title', label ? 'Text' : 'Title', element('input', { id: 'item-title', type: 'text' }));
    title.value = typeof properties.title === 'string' ? properties.title : '';
    const description = field('item-description', 'Description (Markdown)', element('textarea', { id: 'item-description', rows: '4' }));
    description.value = typeof properties.description === 'string' ? properties.description : '';
    const link = field('item-link', 'Web link', element('input', { id: 'item-link', type: 'url', placeholder: 'https://…' }));
    link.value = typeof properties.url === 'string' ? properties.url : '';
    link.addEventListener('change', () => actions.setProperty('url', link.value.trim() || undefined));
    const media = field('item-media', 'Video or media link (YouTube, Vimeo…)', element('input', { id: 'item-media', type: 'url', placeholder: 'https://…' }));
    media.value = typeof properties.media_url === 'string' ? properties.media_url : '';
    media.addEventListener('change', () => actions.setProperty('media_url', media.value.trim() || undefined));
    if (feature.geometry?.type === 'Point' && actions.moveTo) this.root.append(coordinateFields(feature.geometry.coordinates, actions.moveTo));
    if (overlay) this.root.append(overlay(feature));
    else if (this.media) this.root.append(this.media.imageField(feature));
    if (label) {
      const size = field('item-text-size', `Text size (${MIN_TEXT_SIZE}–${MAX_TEXT_SIZE} pixels)`, element('input', { id: 'item-text-size', type: 'number', min: String(MIN_TEXT_SIZE), max: String(MAX_TEXT_SIZE), step: '1' }));
      size.value = String(textSize(properties));
      size.addEventListener('change', () => actions.setProperty('text_size', size.value === '' ? undefined : textSize({ text_size: size.value })));
    } else if (feature.geometry?.type === 'Point') {
      // A built-in icon chosen replaces a custom one.
      this.root.append(
        iconField(typeof properties['marker-symbol'] === 'string' ? properties['marker-symbol'] : undefined, (symbol) =>
          actions.setProperties(symbol ? { 'marker-symbol': symbol, marker_id: undefined } : { 'marker-symbol': undefined }),
        ),
      );
      if (this.media) this.root.append(this.media.iconField(feature));
    }
    const group = element('select', { id: 'item-group' });
    group.append(element('option', { value: '' }, 'No group'));
    const groups = actions.groups();
    for (const { group: each, depth } of groupOutline(groups)) {
      const option = element('option', { value: String(each.id) }, `${'\u00a0\u00a0'.repeat(depth)}${each.title}`);
      option.selected = properties.group !== undefined && properties.group !== null && String(properties.group) === String(each.id);
      group.append(option);
    }
    // The group's own id (a number stays a number: the document's groups are told apart by it).
    group.addEventListener('change', () => actions.setProperty('group', groupOf(groups, group.value)?.id));
    const groupField = element('p', { class: 'field' });
    groupField.append(element('label', { for: 'item-group' }, 'Group'), group);
    this.root.append(groupField);
    const shown = element('input', { id: 'item-visible', type: 'checkbox' });
    shown.checked = properties.visible !== false && properties.visible !== 0;
    shown.addEventListener('change', () => actions.setProperty('visible', shown.checked ? undefined : false));
    const shownField = element('p', { class: 'field checkbox' });
    shownField.append(shown, element('label', { for: 'item-visible' }, ' Shown when the map opens'));
    this.root.append(shownField);
    const colour = element('input', { id: 'item-colour', type: 'color' });
    if (!overlay) field('item-colour', 'Colour', colour);
    colour.value = typeof properties.color === 'string' && /^#[0-9a-f]{6}$/i.test(properties.color) ? properties.color : label ? TEXT_LABEL_COLOR : DEFAULT_SWATCH;
    const swatches = element('div', { class: 'swatches', role: 'group', 'aria-label': 'Colours' });
    for (const swatch of SWATCHES) {
      const button = element('button', { type: 'button', class: 'swatch', 'aria-label': `Colour ${swatch}`, 'aria-pressed': String(colour.value === swatch) });
      button.style.background = swatch; // through the CSSOM: the pages' CSP refuses style attributes
      button.addEventListener('click', () => actions.setProperty('color', swatch));
      swatches.append(button);
    }
    if (!overlay) this.root.append(swatches);
    title.addEventListener('change', () => actions.setProperty('title', title.value.trim() || undefined));
    description.addEventListener('change', () => actions.setProperty('description', description.value.trim() || undefined));
    colour.addEventListener('change', () => actions.setProperty('color', colour.value));
    const buttons = element('p', { class: 'actions' });
    const remove = element('button', { type: 'button', class: 'danger' }, 'Delete item');
    const done = element('button', { type: 'button', class: 'secondary' }, 'Done');
    remove.addEventListener('click', () => actions.remove());
    done.addEventListener('click', () => actions.done());
    if (feature.geometry?.type === 'LineString' && actions.extend) {
      const extend = element('button', { type: 'button', class: 'secondary', title: 'Or Ctrl-click (Cmd-click) an end of the line' }, 'Extend line');
      extend.addEventListener('click', () => actions.extend?.());
      buttons.append(extend);
    }
    buttons.append(remove, done);
    this.root.append(buttons);
  }
}

/** A control's identity across a new drawing of the panel: its id, else its label and text. */
const controlKey = (control: Element) => control.id || `${control.getAttribute('aria-label') ?? ''}|${control.textContent ?? ''}`;

/** Shows a point's place in its Latitude and Longitude fields (not the one being typed in). */
function showCoordinates(root: HTMLElement, coordinates: unknown): void {
  if (!Array.isArray(coordinates)) return;
  const [lon, lat] = coordinates as number[];
  for (const [id, value] of [['item-latitude', lat], ['item-longitude', lon]] as const) {
    const input = root.querySelector<HTMLInputElement>(`#${id}`);
    if (input && input !== document.activeElement && typeof value === 'number') input.value = String(Math.round(value * 1e7) / 1e7);
  }
}

/**
 * A point's place as numbers (decimal degrees, WGS 84): typed and left (or Enter), the point moves
 * there as one edit; a number out of range is refused with a message under the fields.
 */
function coordinateFields(coordinates: unknown, moveTo: (coordinates: [number, number]) => void): HTMLElement {
  const group = element('fieldset', { class: 'coordinates' });
  group.append(element('legend', {}, 'Place (decimal degrees)'));
  // In the panel only while something is wrong (an alert of its own then).
  const error = element('p', { class: 'field-error', id: 'item-coordinates-error', role: 'alert' });
  const input = (id: string, label: string, min: number, max: number) => {
    const wrapper = element('p', { class: 'field' });
    const field = element('input', { id, type: 'number', step: 'any', min: String(min), max: String(max), inputmode: 'decimal' });
    wrapper.append(element('label', { for: id }, label), field);
    group.append(wrapper);
    return field;
  };
  const lat = input('item-latitude', 'Latitude (−85 to 85)', -85, 85);
  const lon = input('item-longitude', 'Longitude (−180 to 180)', -180, 180);
  showCoordinates(group, coordinates);
  const place = () => {
    const [latitude, longitude] = [Number(lat.value), Number(lon.value)];
    const wrong = lat.value.trim() === '' || !Number.isFinite(latitude) || Math.abs(latitude) > 85 ? lat : lon.value.trim() === '' || !Number.isFinite(longitude) || Math.abs(longitude) > 180 ? lon : undefined;
    for (const field of [lat, lon]) {
      if (field === wrong) {
        field.setAttribute('aria-invalid', 'true');
        field.setAttribute('aria-describedby', error.id);
      } else {
        field.removeAttribute('aria-invalid');
        field.removeAttribute('aria-describedby');
      }
    }
    if (wrong) {
      error.textContent = wrong === lat ? 'Latitude: a number from −85 to 85 (south is negative).' : 'Longitude: a number from −180 to 180 (west is negative).';
      group.append(error);
      return;
    }
    error.remove();
    moveTo([Math.round(longitude * 1e7) / 1e7, Math.round(latitude * 1e7) / 1e7]);
  };
  for (const field of [lat, lon]) {
    field.addEventListener('change', place);
    field.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') {
        event.preventDefault();
        place();
      }
    });
  }
  return group;
}
