// Box selection on the MapLibre map (behind the map adapter, as ./drawingAdapter.ts: only
// mapAdapter.ts uses this module). While it is on, a transparent layer over the map takes the
// pointer: a drag draws a rectangle, and on release the rectangle's four corners (in longitude
// and latitude, as the map is turned) go to `onBox` with whether Shift was held. The layer sits
// beside MapLibre's and terra-draw's event targets, not inside them, so neither pans, zooms to a
// box or draws meanwhile; the mouse wheel still zooms (handed on to the map's canvas). Also the
// selection's outline: the selected items copied into a small source of their own, drawn over
// the map (a ring around points, an edged dot where points are dots, a wide band under lines and
// area edges, a halo around labels).
import type { GeoJSONSource, LayerSpecification, Map as MapLibreMap } from 'maplibre-gl';
import type { LonLat } from './boxHitTest.js';
import { LABEL_LAYOUT } from './textLabelLayer.js';

/** Drags shorter than this (pixels) are clicks: they select nothing (and clear a selection). */
const MIN_DRAG = 4;
const OUTLINE = '#ffc400';
const OUTLINE_EDGE = '#1d232a';

export interface BoxSelect {
  setActive(on: boolean): void;
  /** Outlines these features (as drawn, with `_label` for text labels); [] takes the outline away. */
  outline(features: readonly object[]): void;
}

export function createBoxSelect(map: MapLibreMap, options: { beforeLayer: string; dotZoom: number; onBox(corners: LonLat[], additive: boolean): void }): BoxSelect {
  const overlay = document.createElement('div');
  overlay.className = 'box-select';
  overlay.setAttribute('aria-hidden', 'true');
  // Through the CSSOM: the pages' Content-Security-Policy refuses style attributes.
  Object.assign(overlay.style, { position: 'absolute', inset: '0', zIndex: '1', cursor: 'crosshair', touchAction: 'none', display: 'none' });
  const rectangle = document.createElement('div');
  Object.assign(rectangle.style, { position: 'absolute', border: `2px solid ${OUTLINE_EDGE}`, background: 'rgba(255, 196, 0, 0.18)', outline: `1px solid ${OUTLINE}`, display: 'none', pointerEvents: 'none' });
  overlay.append(rectangle);
  map.getContainer().append(overlay);

  let start: { x: number; y: number; pointer: number } | undefined;
  const place = (event: PointerEvent) => {
    const bounds = overlay.getBoundingClientRect();
    return { x: event.clientX - bounds.left, y: event.clientY - bounds.top };
  };
  overlay.addEventListener('pointerdown', (event) => {
    if (event.button !== 0) return;
    event.preventDefault();
    overlay.setPointerCapture(event.pointerId);
    start = { ...place(event), pointer: event.pointerId };
  });
  overlay.addEventListener('pointermove', (event) => {
    if (!start || event.pointerId !== start.pointer) return;
    const { x, y } = place(event);
    Object.assign(rectangle.style, { display: 'block', left: `${Math.min(x, start.x)}px`, top: `${Math.min(y, start.y)}px`, width: `${Math.abs(x - start.x)}px`, height: `${Math.abs(y - start.y)}px` });
  });
  const finish = (event: PointerEvent) => {
    if (!start || event.pointerId !== start.pointer) return;
    const from = start;
    start = undefined;
    rectangle.style.display = 'none';
    const to = place(event);
    if (Math.abs(to.x - from.x) < MIN_DRAG && Math.abs(to.y - from.y) < MIN_DRAG) return options.onBox([], event.shiftKey);
    const corners = [
      [from.x, from.y],
      [to.x, from.y],
      [to.x, to.y],
      [from.x, to.y],
    ].map(([x, y]) => {
      const at = map.unproject([x!, y!]);
      return [at.lng, at.lat] as LonLat;
    });
    options.onBox(corners, event.shiftKey);
  };
  overlay.addEventListener('pointerup', finish);
  overlay.addEventListener('pointercancel', (event) => {
    if (start?.pointer === event.pointerId) start = undefined;
    rectangle.style.display = 'none';
  });
  // The wheel still zooms the map: the same event, handed to the canvas MapLibre listens on.
  overlay.addEventListener(
    'wheel',
    (event) => {
      event.preventDefault();
      map.getCanvas().dispatchEvent(new WheelEvent('wheel', event));
    },
    { passive: false },
  );

  map.addSource('selection', { type: 'geojson', data: { type: 'FeatureCollection', features: [] } });
  const layers: LayerSpecification[] = [
    { id: 'selection-lines', type: 'line', source: 'selection', filter: ['!=', ['geometry-type'], 'Point'], layout: { 'line-cap': 'round', 'line-join': 'round' }, paint: { 'line-color': OUTLINE, 'line-width': 10, 'line-opacity': 0.85 } },
  ];
  for (const layer of layers) map.addLayer(layer, options.beforeLayer);
  // Points: a ring around the circle; where points are dots (a crowd: rings would hide it), a
  // dot in the item's own colour edged with the outline colour, so a new colour for all shows.
  const dots = (below: number, above: number) => ['step', ['zoom'], below, options.dotZoom, above];
  map.addLayer({
    id: 'selection-points',
    type: 'circle',
    source: 'selection',
    filter: ['all', ['==', ['geometry-type'], 'Point'], ['!', ['has', '_label']]],
    paint: {
      'circle-radius': dots(4, 14) as never,
      'circle-color': ['get', '_color'],
      'circle-opacity': dots(1, 0) as never,
      'circle-stroke-color': OUTLINE,
      'circle-stroke-width': dots(1.5, 3) as never,
    },
  });
  map.addLayer({
    id: 'selection-labels',
    type: 'symbol',
    source: 'selection',
    filter: ['has', '_label'],
    layout: LABEL_LAYOUT as never,
    paint: { 'text-color': ['get', '_color'], 'text-halo-color': OUTLINE, 'text-halo-width': 3 },
  });

  return {
    setActive(on) {
      overlay.style.display = on ? 'block' : 'none';
      if (!on) start = undefined;
    },
    outline(features) {
      (map.getSource('selection') as GeoJSONSource).setData({ type: 'FeatureCollection', features: features as never });
    },
  };
}
