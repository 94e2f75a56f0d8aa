// The one module that talks to MapLibre GL JS: the rest of the front end asks it for a map of a
// GeoJSON document over a basemap style, which features are hidden, where to look, and what was
// clicked; text labels (./textLabelLayer.ts) and box selection (./boxSelectAdapter.ts). (DESIGN.md:
// the map library lives behind one adapter.)
import * as maplibregl from 'maplibre-gl';
import type { GeoJSONSource, Map as MapLibreMap, MapLayerMouseEvent, MapMouseEvent, RasterTileSource } from 'maplibre-gl';
import { crowdedBelow, DOT_TILE_SIZE, DotTiles, mercator, type Dot } from './densePoints.js';
import { boxHits, type LonLat } from './boxHitTest.js';
import { createBoxSelect, type BoxSelect } from './boxSelectAdapter.js';
import { createDrawing, type Drawing, type EditableGeometry } from './drawingAdapter.js';
import { labelDrawing, TEXT_LABEL_LAYER } from './textLabelLayer.js';
import { titleDrawing, titleLayers } from './titleLayers.js';
import { mapSnapping } from './mapSnapping.js';
import { createOverlays, overlayDrawing, type OverlayDrawing } from './overlayAdapter.js';
import { MEDIA_ID } from '../../lib/mediaId.js';
import type { MapFeature } from './mapFeature.js';

export type { Drawing, DrawTool, EditableGeometry, Shape } from './drawingAdapter.js';
export { isEditable } from './drawingAdapter.js';

export interface MapView {
  /** Shows only the features whose ids are not in `hidden`. */
  setHidden(hidden: ReadonlySet<number>): void;
  /** Adds or replaces features (only they are sent to the map again). */
  putFeatures(features: MapFeature[]): void;
  removeFeatures(ids: number[]): void;
  /** Drawing and shape editing (terra-draw); `onDrawn` gets each new shape when it is finished. */
  startDrawing(onDrawn: (id: number, geometry: EditableGeometry) => void): Drawing;
  /**
   * Box selection: while on, a box dragged on the map reports the visible items it touches
   * (./boxHitTest.ts) and whether Shift was held (a click: no items).
   */
  boxSelect(on: boolean, onBox?: (ids: number[], additive: boolean) => void): void;
  /** Outlines these items on the map as selected ([]: none). */
  outline(ids: readonly number[]): void;
  /** Moves to the feature and reports it as clicked. */
  focus(id: number): void;
  /**
   * Flies to a place found by name (./placeSearch.ts) and marks it with a ring, above the map's
   * items, until the next place; resolves once the map is there.
   */
  showPlace(place: { lon: number; lat: number; zoom: number }): Promise<void>;
  /** Where the map is centred now, [longitude, latitude] to 7 decimals (a new photo without GPS goes there). */
  center(): [number, number];
  /** The view's west, south, east and north edges (a new image overlay goes in its middle). */
  viewBounds(): [number, number, number, number];
  /**
   * Handles on an image overlay's four corners (lower-left, lower-right, upper-right, upper-left)
   * that the mouse drags: `moved` is told each corner's place while it is dragged (`done` false)
   * and where it is let go (`done` true). Undefined: no handles.
   */
  overlayHandles(corners: [number, number][] | undefined, moved?: (index: number, at: [number, number], done: boolean) => void): void;
  /** The place `pixels` ([right, down]) from `at` on the screen, to 7 decimals (the keyboard nudges a point by it). */
  offset(at: [number, number], pixels: [number, number]): [number, number];
  /** The map's own element that takes the keyboard (arrows pan, + and − zoom): the editor's keys are there too (./keyboardDrawing.ts). */
  keyboardElement(): HTMLElement;
  /** Told when the map has moved (each frame while it moves). */
  onMove(listener: () => void): void;
  /**
   * Marks the vertex the keyboard chose of the selected line or area (./keyboardDrawing.ts) with a
   * ring, the map moved to keep it in view; undefined: no mark.
   */
  markVertex(at: [number, number] | undefined): void;
  /** The item drawn at the map's centre (within 12 pixels; the nearest point first), if any: the keyboard's crosshair opens it. */
  itemAtCenter(): number | undefined;
  onSelect(listener: (feature: MapFeature, at: [number, number]) => void): void;
  showPopup(at: [number, number], content: HTMLElement): void;
  /** Shows these features instead of the map's (a version in the History); undefined: the map's own again. */
  preview(features: MapFeature[] | undefined): void;
  /**
   * Resolves once the map is drawn with every feature given so far: MapLibre's worker has taken
   * the last data sent to the source and the map is idle (style, tiles and icons loaded, nothing
   * moving). What the map page signals as `data-map-drawn` (web/app/main.ts).
   */
  drawn(): Promise<void>;
  /**
   * Called when what is laid over the top of the map (the editor's toolbar) reaches `pixels` down
   * from the map's top edge: a map that opened with its items under it is framed again below it,
   * unless it was moved since. A map whose items are clear of it (or that has none) stays as it is.
   */
  keepClearOfTop(pixels: number): void;
}

const DEFAULT_COLOR = '#2f6fd6';
/** The ring that marks a place found by name: a colour no item has by default, nor the basemaps. */
const FOUND_PLACE_COLOR = '#c8175d';
/** A flight to a place found takes at most this long (MapLibre's flyTo goes by distance otherwise). */
const FLIGHT_MS = 2500;
/** Room around the map's items when it opens (the browser tests find items by it). */
const FRAME_PADDING = 48;

type Bounds = [number, number, number, number];

function extend(bounds: Bounds, coordinates: unknown): void {
  if (!Array.isArray(coordinates)) return;
  if (typeof coordinates[0] === 'number' && typeof coordinates[1] === 'number') {
    const [lon, lat] = coordinates as [number, number];
    bounds[0] = Math.min(bounds[0], lon);
    bounds[1] = Math.min(bounds[1], lat);
    bounds[2] = Math.max(bounds[2], lon);
    bounds[3] = Math.max(bounds[3], lat);
    return;
  }
  for (const part of coordinates) extend(bounds, part);
}

function anchorOf(feature: MapFeature): [number, number] | undefined {
  const bounds: Bounds = [Infinity, Infinity, -Infinity, -Infinity];
  extend(bounds, feature.geometry?.coordinates);
  return bounds[0] === Infinity ? undefined : [(bounds[0] + bounds[2]) / 2, (bounds[1] + bounds[3]) / 2];
}

/** The map image a point shows: a custom marker (`marker_id`), a built-in Maki icon (`marker-symbol`), or none. */
function iconOf(properties: Record<string, unknown> | null): string {
  const markerId = properties?.marker_id;
  if (typeof markerId === 'string' && MEDIA_ID.test(markerId)) return `marker-${markerId}`;
  const symbol = properties?.['marker-symbol'];
  return typeof symbol === 'string' ? `maki-${symbol.replace(/-(11|15)$/, '')}` : '';
}

/**
 * Loads an icon as a map image when a layer first needs it: a Maki icon (served by the service,
 * white, drawn on the point's circle) or a custom marker (its 64-pixel file, drawn 32 pixels wide).
 */
function loadIcons(map: MapLibreMap): void {
  map.setMissingStyleImageResolver(async (id: string) => {
    if (map.hasImage(id)) return;
    const marker = /^marker-(.+)$/.exec(id)?.[1];
    const name = id.replace(/^maki-/, '');
    if (marker ? !MEDIA_ID.test(marker) : !/^[a-z0-9-]+$/.test(name)) return;
    const image = marker ? new Image() : new Image(30, 30);
    image.src = marker ? `/markers/${marker}/s64.png` : `/assets/maki/${name}.svg`;
    try {
      await image.decode();
    } catch {
      return; // an unknown icon: the point keeps its plain circle
    }
    // Maki icons at 2× (15 px); a marker at most 32 px wide, a smaller one at its own size.
    const pixelRatio = marker ? Math.max(1, Math.max(image.naturalWidth, image.naturalHeight) / 32) : 2;
    if (!map.hasImage(id)) map.addImage(id, image, { pixelRatio });
  });
}

/** The dots layer (./densePoints.ts) below `maxzoom`: raster tiles drawn on request from the points given last. */
function addDots(map: MapLibreMap, maxzoom: number) {
  const tiles = new DotTiles();
  let next: (() => Dot[]) | undefined;
  const current = () => {
    if (next) tiles.set(next());
    next = undefined;
    return tiles;
  };
  const protocol = `map-dots-${++dotLayers}`;
  maplibregl.addProtocol(protocol, async ({ url }) => {
    const [z, x, y] = url.split('/').slice(-3).map(Number) as [number, number, number];
    return { data: await current().draw(z, x, y) };
  });
  let version = 0;
  map.addSource('dots', { type: 'raster', tiles: [`${protocol}://0/{z}/{x}/{y}`], tileSize: DOT_TILE_SIZE, maxzoom });
  map.addLayer({ id: 'dots', type: 'raster', source: 'dots', maxzoom, paint: { 'raster-fade-duration': 0 } });
  return {
    /** The points to draw from now on (read when a tile is next drawn); the tiles are drawn again. */
    changed(points: () => Dot[]) {
      next = points;
      // A new address for every tile: MapLibre asks for them all again.
      if (version++ > 0) (map.getSource('dots') as RasterTileSource).setTiles([`${protocol}://${version}/{z}/{x}/{y}`]);
    },
    /** The id of the dot under a place, at a zoom (within 6 pixels, or as many as given). */
    pick(at: { lng: number; lat: number }, zoom: number, pixels = 6): number | undefined {
      return current().pick(mercator([at.lng, at.lat]), pixels / (DOT_TILE_SIZE * 2 ** zoom));
    },
  };
}
let dotLayers = 0;

type Camera = { lng: number; lat: number; zoom: number };
const cameraOf = (map: MapLibreMap): Camera => ({ ...map.getCenter(), zoom: map.getZoom() });
const sameCamera = (a: Camera, map: MapLibreMap) => {
  const b = cameraOf(map);
  return Math.abs(a.zoom - b.zoom) < 1e-6 && Math.abs(a.lng - b.lng) < 1e-9 && Math.abs(a.lat - b.lat) < 1e-9;
};

/** The view the address names (#map=zoom/lat/lon, MapLibre's `hash` form), if it names one. */
function viewInAddress(): [number, number, number] | undefined {
  const parts = (new URLSearchParams(location.hash.slice(1)).get('map') ?? '').split('/').map(Number);
  const [zoom, lat, lon] = parts;
  if (parts.length < 3 || parts.some((part) => !Number.isFinite(part))) return undefined;
  return Math.abs(lat!) <= 90 && zoom! >= 0 && zoom! <= 22 ? [zoom!, lat!, lon!] : undefined;
}

export async function createMapView(container: HTMLElement, styleUrl: string, features: MapFeature[]): Promise<MapView> {
  const bounds: Bounds = [Infinity, Infinity, -Infinity, -Infinity];
  for (const feature of features) extend(bounds, feature.geometry?.coordinates);
  // A view in the address (#map=zoom/lat/lon, kept up to date as the map moves, as
  // openstreetmap.org's and uMap's are) opens there, and the map is not framed to its features.
  const opensAtView = viewInAddress() !== undefined;
  const fitted = bounds[0] === Infinity || opensAtView ? undefined : bounds;
  const map = new maplibregl.Map({
    container,
    style: styleUrl,
    attributionControl: { compact: true },
    hash: 'map',
    ...(bounds[0] === Infinity
      ? { center: [0, 20] as [number, number], zoom: 1 }
      : { bounds: [bounds[0], bounds[1], bounds[2], bounds[3]] as Bounds, fitBoundsOptions: { padding: FRAME_PADDING, maxZoom: 15 } }),
  });
  let framedAt = cameraOf(map);
  map.addControl(new maplibregl.NavigationControl({ showCompass: false }), 'top-right');
  loadIcons(map);
  // The features go in as soon as the style is there (not at 'load', after the basemap is drawn):
  // their work in MapLibre's worker then overlaps the basemap's.
  if (!map.isStyleLoaded()) await new Promise<void>((resolve) => map.once('style.load', () => resolve()));
  // What the map draws a feature with and knows it by, nothing else: MapLibre copies every
  // property to its worker, into each tile and back for clicks (the feature itself is in byId).
  const decorate = (feature: MapFeature) => ({
    type: 'Feature' as const,
    id: feature.id,
    geometry: feature.geometry,
    properties: {
      _id: feature.id,
      _color: typeof feature.properties?.color === 'string' && /^#[0-9a-f]{6}$/i.test(feature.properties.color) ? feature.properties.color : DEFAULT_COLOR,
      _icon: iconOf(feature.properties),
      _title: titleDrawing(feature.properties),
      ...labelDrawing(feature),
      // An image overlay: its image is drawn by ./overlayAdapter.ts, its area only takes clicks.
      ...(overlayDrawing(feature) ? { _overlay: 1 } : {}),
    },
  });
  type Drawn = ReturnType<typeof decorate>;
  // Every feature as drawn, by id (the hidden ones too); the source holds the visible ones.
  const shown = new Map(features.map((feature) => [feature.id, decorate(feature)]));
  let hiddenIds: ReadonlySet<number> = new Set();
  // Points have a source of their own: where they are dots (below), no layer asks for its tiles,
  // so MapLibre's worker cuts and encodes none of them. Lines and areas are in `items`.
  const isPoint = (feature: Drawn) => feature.geometry?.type === 'Point' || feature.geometry?.type === 'MultiPoint';
  // Text labels have a source of their own too (drawn at every zoom: in the points' source, they
  // would make the worker cut the crowd's tiles where the points are dots), and are never dots.
  const isLabel = (feature: Drawn) => '_label' in feature.properties;
  const SOURCES = ['items', 'points', 'labels'] as const;
  const sourceOf = (feature: Drawn) => (isLabel(feature) ? 'labels' : isPoint(feature) ? 'points' : 'items');
  const source = (id: (typeof SOURCES)[number]) => map.getSource(id) as GeoJSONSource;
  const collection = (features: Drawn[]) => ({ type: 'FeatureCollection', features }) as never;
  /** The sources hold these features from now on. */
  const setSources = (drawn: Drawn[]) => SOURCES.forEach((id) => source(id).setData(collection(drawn.filter((feature) => sourceOf(feature) === id))));
  /** Takes these ids out of the sources and puts these features in (only what changed is sent to the worker). */
  const updateSources = (remove: number[], add: Drawn[]) =>
    SOURCES.forEach((id) => void source(id).updateData({ remove, add: add.filter((feature) => sourceOf(feature) === id) as never }));
  // Features are known by `_id` (new, unsaved ones have negative ids), so single ones can be updated.
  for (const id of SOURCES) map.addSource(id, { type: 'geojson', data: collection([...shown.values()].filter((feature) => sourceOf(feature) === id)), promoteId: '_id' });
  const color = ['get', '_color'] as unknown as string;
  map.addLayer({ id: 'areas', type: 'fill', source: 'items', filter: ['==', ['geometry-type'], 'Polygon'], paint: { 'fill-color': color, 'fill-opacity': ['case', ['has', '_overlay'], 0, 0.25] } });
  map.addLayer({ id: 'area-lines', type: 'line', source: 'items', filter: ['all', ['==', ['geometry-type'], 'Polygon'], ['!', ['has', '_overlay']]], paint: { 'line-color': color, 'line-width': 2 } });
  map.addLayer({ id: 'lines', type: 'line', source: 'items', filter: ['==', ['geometry-type'], 'LineString'], paint: { 'line-color': color, 'line-width': 3 }, layout: { 'line-cap': 'round', 'line-join': 'round' } });
  // Points as circles with their icons where they have room, as dots where they crowd.
  const positions = (feature: Drawn): [number, number][] =>
    feature.geometry?.type === 'Point' ? [feature.geometry.coordinates as [number, number]] : feature.geometry?.type === 'MultiPoint' ? (feature.geometry.coordinates as [number, number][]) : [];
  const dotZoom = crowdedBelow([...shown.values()].filter((feature) => !isLabel(feature)).flatMap(positions));
  const dots = dotZoom > 0 ? addDots(map, dotZoom) : undefined;
  const mapDots = () => [...shown.values()].filter((feature) => isPoint(feature) && !isLabel(feature) && !hiddenIds.has(feature.id));
  let dotsOf = mapDots;
  const dotsChanged = () =>
    dots?.changed(() => dotsOf().flatMap((feature) => positions(feature).map((coordinates) => ({ id: feature.id, coordinates, color: feature.properties._color }))));
  dotsChanged();
  // A custom marker is its own picture: no circle under it.
  map.addLayer({ id: 'points', type: 'circle', source: 'points', minzoom: dotZoom, filter: ['all', ['==', ['geometry-type'], 'Point'], ['!=', ['slice', ['get', '_icon'], 0, 7], 'marker-']], paint: { 'circle-color': color, 'circle-radius': 11, 'circle-stroke-color': '#ffffff', 'circle-stroke-width': 1.5 } });
  map.addLayer({ id: 'icons', type: 'symbol', source: 'points', minzoom: dotZoom, filter: ['all', ['==', ['geometry-type'], 'Point'], ['!=', ['get', '_icon'], '']], layout: { 'icon-image': ['get', '_icon'], 'icon-allow-overlap': true } });
  for (const layer of titleLayers(dotZoom)) map.addLayer(layer as never);

  map.addLayer(TEXT_LABEL_LAYER as never);
  // Image overlays under every item, in the map's order; the hidden ones (and a preview's) left out.
  const overlays = createOverlays(map, 'areas');
  const overlayById = new Map<number, OverlayDrawing>();
  const noteOverlay = (feature: MapFeature) => {
    const drawing = overlayDrawing(feature);
    if (drawing) overlayById.set(feature.id, drawing);
    else overlayById.delete(feature.id);
  };
  features.forEach(noteOverlay);
  const showOverlays = () => overlays.show(new Map([...overlayById].filter(([id]) => !hiddenIds.has(id)).map(([id, drawing]) => [String(id), drawing])));
  showOverlays();

  const listeners: ((feature: MapFeature, at: [number, number]) => void)[] = [];
  /** The ring on the vertex the keyboard chose (`markVertex`). */
  let vertexMark: maplibregl.Marker | undefined;
  const byId = new Map(features.map((feature) => [feature.id, feature]));
  for (const layer of ['labels', 'points', 'icons', 'lines', 'areas', 'point-titles', 'line-titles', 'area-titles']) {
    map.on('click', layer, (event: MapLayerMouseEvent) => {
      const id = Number(event.features?.[0]?.properties?._id);
      const feature = byId.get(id);
      if (feature) listeners.forEach((listener) => listener(feature, [event.lngLat.lng, event.lngLat.lat]));
    });
    map.on('mouseenter', layer, () => (map.getCanvas().style.cursor = 'pointer'));
    map.on('mouseleave', layer, () => (map.getCanvas().style.cursor = ''));
  }
  if (dots) {
    // Dots are pictures: the one under a click or the pointer is found by its place.
    const dotAt = (event: MapMouseEvent) => (map.getZoom() < dotZoom ? byId.get(dots.pick(event.lngLat, map.getZoom()) ?? NaN) : undefined);
    map.on('click', (event) => {
      const feature = dotAt(event);
      if (feature) listeners.forEach((listener) => listener(feature, [event.lngLat.lng, event.lngLat.lat]));
    });
    let overDot = false;
    map.on('mousemove', (event) => {
      if (event.originalEvent.buttons !== 0) return; // dragging the map
      const over = dotAt(event) !== undefined;
      if (over !== overDot) map.getCanvas().style.cursor = over ? 'pointer' : '';
      overDot = over;
    });
  }
  let popup: maplibregl.Popup | undefined;
  let previewing = false;
  /** The corner handles of the selected image overlay (`overlayHandles`). */
  let handles: maplibregl.Marker[] = [];
  let handleMoved: ((index: number, at: [number, number], done: boolean) => void) | undefined;
  let box: BoxSelect | undefined;
  let onBox: ((ids: number[], additive: boolean) => void) | undefined;
  // The hit test runs on the features as given (the map's own data), the hidden ones left out.
  const boxSelect = () =>
    (box ??= createBoxSelect(map, {
      beforeLayer: 'areas',
      dotZoom,
      onBox(corners: LonLat[], additive) {
        const started = performance.now();
        const ids = corners.length === 0 ? [] : boxHits([...shown.values()].filter((feature) => !hiddenIds.has(feature.id)), corners);
        // How long the hit test took, as a User Timing measure (the browser test reports it).
        performance.measure('box-select', { start: started, detail: { items: shown.size, hits: ids.length } });
        onBox?.(ids, additive);
      },
    }));
  const showMapFeatures = () => setSources([...shown.values()].filter((feature) => !hiddenIds.has(feature.id)));
  return {
    setHidden(hidden) {
      // Only the difference goes to the map (one item shown or hidden is a small update, the
      // same set again none): sending a 100,000-point map's features again takes seconds.
      const before = hiddenIds;
      hiddenIds = new Set(hidden);
      if (previewing) return;
      showOverlays();
      const remove = [...hiddenIds].filter((id) => !before.has(id) && shown.has(id));
      const add = [...before].filter((id) => !hiddenIds.has(id) && shown.has(id)).map((id) => shown.get(id)!);
      if (remove.length === 0 && add.length === 0) return;
      updateSources(remove, add);
      dotsChanged();
    },
    putFeatures(changed) {
      for (const feature of changed) {
        shown.set(feature.id, decorate(feature));
        byId.set(feature.id, feature);
        noteOverlay(feature);
      }
      if (!previewing) showOverlays();
      const visible = changed.filter((feature) => !hiddenIds.has(feature.id));
      updateSources(
        changed.map((feature) => feature.id),
        visible.map((feature) => shown.get(feature.id)!),
      );
      dotsChanged();
    },
    removeFeatures(ids) {
      for (const id of ids) {
        shown.delete(id);
        byId.delete(id);
        overlayById.delete(id);
      }
      if (!previewing) showOverlays();
      updateSources(ids, []);
      dotsChanged();
    },
    boxSelect(on, listener) {
      onBox = listener;
      boxSelect().setActive(on);
    },
    outline(ids) {
      boxSelect().outline(ids.flatMap((id) => shown.get(id) ?? []));
    },
    startDrawing(onDrawn) {
      // What is drawn snaps to the map's other features (the ones shown): circles, icons, lines, areas' edges, dots.
      const snap = mapSnapping({
        map,
        layers: ['points', 'icons', 'lines', 'area-lines'],
        geometryOf: (id) => byId.get(id)?.geometry,
        dotNear: dots && (([x, y], pixels) => (map.getZoom() < dotZoom ? dots.pick(map.unproject([x, y]), map.getZoom(), pixels) : undefined)),
      });
      return createDrawing(map, onDrawn, snap);
    },
    focus(id) {
      const feature = byId.get(id);
      const at = feature && anchorOf(feature);
      if (!feature || !at) return;
      if (feature.geometry?.type === 'Point') {
        // The point lands a quarter of the map's height below the centre: its popup opens above it, in view.
        map.easeTo({ center: at, zoom: Math.max(map.getZoom(), 12), offset: [0, container.clientHeight / 4] });
      } else {
        // A line or an area is shown whole, in the lower part of the map (room for its popup above).
        const bounds: Bounds = [Infinity, Infinity, -Infinity, -Infinity];
        extend(bounds, feature.geometry?.coordinates);
        const height = container.clientHeight;
        map.fitBounds(bounds, { padding: { top: Math.round(height * 0.4), bottom: 48, left: 48, right: 48 }, maxZoom: 16 });
      }
      listeners.forEach((listener) => listener(feature, at));
    },
    keepClearOfTop(pixels) {
      // Only while the map is still where it opened (or was last framed here): never once it was moved.
      if (!fitted || !sameCamera(framedAt, map)) return;
      const top = pixels + FRAME_PADDING / 2;
      if (map.project([fitted[0], fitted[3]]).y < top) {
        map.fitBounds(fitted, { padding: { top, bottom: FRAME_PADDING, left: FRAME_PADDING, right: FRAME_PADDING }, maxZoom: 15, animate: false });
        framedAt = cameraOf(map);
      }
    },
    showPlace({ lon, lat, zoom }) {
      const point = { type: 'Feature', geometry: { type: 'Point', coordinates: [lon, lat] }, properties: {} } as never;
      const found = map.getSource('found-place') as GeoJSONSource | undefined;
      if (found) found.setData(point);
      else {
        map.addSource('found-place', { type: 'geojson', data: point });
        map.addLayer({ id: 'found-place', type: 'circle', source: 'found-place', paint: { 'circle-radius': 9, 'circle-color': 'rgba(255, 255, 255, 0.6)', 'circle-stroke-color': FOUND_PLACE_COLOR, 'circle-stroke-width': 4 } });
      }
      return new Promise<void>((resolve) => {
        // A flight that goes nowhere may end without a moveend: the time it may take at most.
        const timer = setTimeout(resolve, FLIGHT_MS + 500);
        map.once('moveend', () => {
          clearTimeout(timer);
          resolve();
        });
        map.flyTo({ center: [lon, lat], zoom, maxDuration: FLIGHT_MS });
      });
    },
    center() {
      // Rounded: terra-draw refuses to edit a point with more than 9 decimals.
      const { lng, lat } = map.getCenter().wrap();
      return [Math.round(lng * 1e7) / 1e7, Math.round(lat * 1e7) / 1e7];
    },
    offset([lon, lat], [dx, dy]) {
      const { x, y } = map.project([lon, lat]);
      const { lng, lat: moved } = map.unproject([x + dx, y + dy]).wrap();
      return [Math.round(lng * 1e7) / 1e7, Math.round(Math.max(-85, Math.min(85, moved)) * 1e7) / 1e7];
    },
    viewBounds() {
      const bounds = map.getBounds();
      return [bounds.getWest(), Math.max(-85, bounds.getSouth()), bounds.getEast(), Math.min(85, bounds.getNorth())];
    },
    overlayHandles(corners, moved) {
      handleMoved = moved;
      if (!corners) {
        handles.forEach((handle) => handle.remove());
        handles = [];
        return;
      }
      corners.forEach((corner, index) => {
        let handle = handles[index];
        if (!handle) {
          // For the mouse only (the panel's buttons are the keyboard's): hidden from assistive technology.
          const knob = document.createElement('div');
          knob.className = 'overlay-handle';
          knob.setAttribute('aria-hidden', 'true');
          handle = new maplibregl.Marker({ element: knob, anchor: 'center', draggable: true });
          const at = () => {
            const { lng, lat } = handle!.getLngLat();
            return [Math.round(lng * 1e7) / 1e7, Math.round(lat * 1e7) / 1e7] as [number, number];
          };
          handle.on('drag', () => handleMoved?.(index, at(), false));
          handle.on('dragend', () => handleMoved?.(index, at(), true));
          handles[index] = handle;
        }
        handle.setLngLat(corner).addTo(map);
      });
    },
    keyboardElement: () => map.getCanvas(),
    markVertex(at) {
      if (!at) {
        vertexMark?.remove();
        vertexMark = undefined;
        return;
      }
      if (!vertexMark) {
        const ring = document.createElement('div');
        ring.className = 'keyboard-vertex';
        ring.setAttribute('aria-hidden', 'true');
        vertexMark = new maplibregl.Marker({ element: ring, anchor: 'center' });
      }
      vertexMark.setLngLat(at).addTo(map);
      // Kept in view: a vertex at an edge (or off the map) brings the map to it, at once (the ring
      // and the announcement say where it is now, not after a glide).
      const { x, y } = map.project(at);
      const margin = 24;
      if (x < margin || y < margin || x > container.clientWidth - margin || y > container.clientHeight - margin) map.jumpTo({ center: at });
    },
    itemAtCenter() {
      // On the items' own data (as Box selection does), not on what is drawn: an item just put
      // back on the map is found before MapLibre has drawn it again.
      const [x, y] = [container.clientWidth / 2, container.clientHeight / 2];
      const reach = 12;
      const corners = ([[x - reach, y - reach], [x + reach, y - reach], [x + reach, y + reach], [x - reach, y + reach]] as const).map(([cx, cy]) => {
        const { lng, lat } = map.unproject([cx, cy]);
        return [lng, lat] as LonLat;
      });
      const ids = boxHits([...shown.values()].filter((feature) => !hiddenIds.has(feature.id)), corners);
      const away = (id: number) => {
        const geometry = shown.get(id)?.geometry;
        if (geometry?.type !== 'Point') return reach; // a line or an area under the crosshair: after the points
        const at = map.project(geometry.coordinates as [number, number]);
        return Math.hypot(at.x - x, at.y - y);
      };
      return ids.sort((a, b) => away(a) - away(b))[0];
    },
    onMove(listener) {
      map.on('move', listener);
    },
    onSelect(listener) {
      listeners.push(listener);
    },
    showPopup(at, content) {
      popup?.remove();
      // A tall popup (a photo, a player, a long description) scrolls inside the map instead of leaving it.
      content.style.maxHeight = `${Math.max(160, container.clientHeight * 0.6)}px`;
      content.style.overflowY = 'auto';
      content.tabIndex = 0; // a region that scrolls must be reachable with the keyboard
      popup = new maplibregl.Popup({ maxWidth: '320px', focusAfterOpen: true }).setLngLat(at).setDOMContent(content).addTo(map);
      // Escape closes it, as a dialog does, and the keyboard goes back to the map.
      const opened = popup;
      opened.getElement().addEventListener('keydown', (event) => {
        if (event.key !== 'Escape') return;
        event.stopPropagation();
        opened.remove();
        map.getCanvas().focus();
      });
      // The tip takes the photo's tip colour (set on the content by the popup's builder).
      const tip = content.style.getPropertyValue('--tip-color');
      if (tip) popup.getElement().style.setProperty('--tip-color', tip);
    },
    preview(features) {
      popup?.remove();
      previewing = features !== undefined;
      const previewed = features?.filter((feature) => feature.properties?.visible !== false && feature.properties?.visible !== 0).map((feature) => ({ ...decorate(feature), id: NaN }));
      dotsOf = previewed ? () => previewed.filter(isPoint) : mapDots;
      dotsChanged();
      if (!features) {
        showOverlays();
        return showMapFeatures();
      }
      const visible = features.filter((feature) => feature.properties?.visible !== false && feature.properties?.visible !== 0);
      overlays.show(new Map(visible.flatMap((feature, index) => {
        const drawing = overlayDrawing(feature);
        return drawing ? [[`preview-${index}`, drawing] as const] : [];
      })));
      // A preview's features are not the map's: known by no id (NaN, which no item has, not even
      // a new unsaved one), a click on them finds nothing.
      setSources(
        visible.map((feature) => {
          const drawn = decorate(feature);
          return { ...drawn, properties: { ...drawn.properties, _id: NaN } };
        }),
      );
    },
    drawn() {
      // MapLibre is idle only when every source has taken its last update and every tile in view
      // is loaded; a repaint makes it say so even if it already was.
      return new Promise<void>((resolve) => {
        map.once('idle', () => resolve());
        map.triggerRepaint();
      });
    },
  };
}
