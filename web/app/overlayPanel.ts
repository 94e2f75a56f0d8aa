// The item panel's section for a selected image overlay (lib/geojson/overlay.ts): its image, an
// opacity slider (0–100 %: the map follows while it slides, one edit when it is let go) and
// buttons to move it (arrows), make it bigger or smaller and turn it by 5° — each press one
// undoable edit (./overlayGeometry.ts does the geometry). Its corners are dragged on the map (the
// handles: MapView.overlayHandles).
import { overlayCorners, overlayOpacity, type OverlayCorners } from '../../lib/geojson/overlay.js';
import type { Geometry } from '../../lib/geojson/geometry.js';
import { element } from './element.js';
import type { MapFeature } from './mapFeature.js';
import { imageOf } from './mediaUpload.js';
import { moveOverlay, rotateOverlay, scaleOverlay } from './overlayGeometry.js';

export interface OverlayActions {
  /** The opacity while the slider moves (`done` false: shown only) and when it is let go (one edit). */
  setOpacity(opacity: number, done: boolean): void;
  /** New corners from the overlay's corners as they are now, as one edit. */
  reshape(change: (corners: OverlayCorners) => OverlayCorners): void;
}

const STEP = 0.1;
const SCALE = 1.1;
const TURN = 5;

export function overlayField(feature: MapFeature, actions: OverlayActions): HTMLElement {
  const properties = feature.properties ?? {};
  const group = element('fieldset', { class: 'overlay-controls' });
  group.append(element('legend', {}, 'Image overlay'));
  const image = imageOf(properties.image);
  if (image) {
    const thumb = element('img', { class: 'media-thumb', src: `/images/${image.id}/s256`, alt: 'The overlay’s image', width: '256', height: String(Math.round((256 * image.h) / image.w)) });
    thumb.style.background = image.avg_color;
    group.append(thumb);
  }
  const opacityField = element('p', { class: 'field' });
  const percent = Math.round(overlayOpacity(properties) * 100);
  const slider = element('input', { id: 'overlay-opacity', type: 'range', min: '0', max: '100', step: '5', value: String(percent), 'aria-valuetext': `${percent} %` });
  const shown = element('output', { for: 'overlay-opacity', id: 'overlay-opacity-value' }, `${percent} %`);
  opacityField.append(element('label', { for: 'overlay-opacity' }, 'Opacity '), shown, slider);
  group.append(opacityField);
  const read = () => {
    const value = Math.max(0, Math.min(100, Number(slider.value)));
    shown.textContent = `${value} %`;
    slider.setAttribute('aria-valuetext', `${value} %`);
    return value / 100;
  };
  slider.addEventListener('input', () => actions.setOpacity(read(), false));
  slider.addEventListener('change', () => actions.setOpacity(read(), true));

  const corners = feature.geometry ? overlayCorners(feature.geometry as Geometry) : undefined;
  if (corners) {
    const button = (label: string, text: string, change: (corners: OverlayCorners) => OverlayCorners) => {
      const control = element('button', { type: 'button', class: 'secondary', 'aria-label': label }, text);
      control.addEventListener('click', () => actions.reshape(change));
      return control;
    };
    const move = element('div', { class: 'overlay-buttons', role: 'group', 'aria-label': 'Move the overlay' });
    move.append(
      button('Move left', '←', (c) => moveOverlay(c, -STEP, 0)),
      button('Move up', '↑', (c) => moveOverlay(c, 0, STEP)),
      button('Move down', '↓', (c) => moveOverlay(c, 0, -STEP)),
      button('Move right', '→', (c) => moveOverlay(c, STEP, 0)),
    );
    const size = element('div', { class: 'overlay-buttons', role: 'group', 'aria-label': 'Size and turn' });
    size.append(
      button('Bigger', 'Bigger', (c) => scaleOverlay(c, SCALE)),
      button('Smaller', 'Smaller', (c) => scaleOverlay(c, 1 / SCALE)),
      button(`Turn ${TURN}° left`, `⟲ ${TURN}°`, (c) => rotateOverlay(c, -TURN)),
      button(`Turn ${TURN}° right`, `⟳ ${TURN}°`, (c) => rotateOverlay(c, TURN)),
    );
    group.append(move, size, element('p', { class: 'hint' }, 'Drag its corners on the map to fit it to what is under it.'));
  }
  return group;
}
