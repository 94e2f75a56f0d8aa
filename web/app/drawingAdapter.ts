// Drawing and editing shapes on the map with terra-draw (DESIGN.md: behind the map adapter; only
// mapAdapter.ts uses this module). terra-draw holds only what is being drawn or edited right now:
// a new shape until it is finished, or the one feature taken out of the map's layer for editing
// (moving a point, dragging, inserting and deleting vertices): the other 100,000 features stay in
// MapLibre's source untouched. So snapping to the map's features is terra-draw's custom snapping
// with the map adapter's snapper (./mapSnapping.ts). Also here: the shape being drawn or edited
// as it changes (for live lengths and areas), each finished change of the edited feature as one
// edit (a drag, a vertex added or deleted: the editor makes it an undo step at once), and drawing
// on from an end of the edited line (Ctrl/Cmd-click on the end, or `extend`).
import {
  TerraDraw,
  TerraDrawLineStringMode,
  TerraDrawPointMode,
  TerraDrawPolygonMode,
  TerraDrawSelectMode,
  type GeoJSONStoreFeatures,
  type TerraDrawMouseEvent,
} from 'terra-draw';
import { TerraDrawMapLibreGLAdapter } from 'terra-draw-maplibre-gl-adapter';
import { endNear, endPosition, joinExtension, type LineEnd, type Position } from './extendLine.js';
import type { Snapper } from './mapSnapping.js';

export type DrawTool = 'select' | 'point' | 'linestring' | 'polygon';
export type EditableGeometry = { type: 'Point' | 'LineString' | 'Polygon'; coordinates: unknown };

/** The shape being drawn (`drawing`: a new one or a line's extension, to the pointer's place) or edited. */
export interface Shape {
  id: number;
  geometry: EditableGeometry;
  drawing: boolean;
}

export interface Drawing {
  setTool(tool: DrawTool): void;
  /** Puts a feature's geometry into the drawing for editing, selected. */
  edit(id: number, geometry: EditableGeometry): void;
  /** Ends the edit of the feature (if any): its geometry as edited, and it leaves the drawing. */
  finishEdit(): { id: number; geometry: EditableGeometry } | undefined;
  /** Drops the feature being edited without keeping its changes. */
  cancelEdit(): void;
  /** The id being edited, if any. */
  editing(): number | undefined;
  /** The edited feature takes this geometry (an undo or a redo): its vertex handles follow. */
  setGeometry(id: number, geometry: EditableGeometry): void;
  /** Draws on from an end of the edited line (false: no line is edited); finished, the line is edited again. */
  extend(end?: LineEnd): boolean;
  /** Whether a line is being drawn on from an end of the edited one. */
  extending(): boolean;
  /** Tells the shape drawn or edited as it changes (at most once a frame), undefined when there is none any more. */
  onShape(listener: (shape: Shape | undefined) => void): void;
  /** Tells each finished change of the edited feature: a drag (of it, of a vertex, of a new vertex), a vertex added or deleted, an extension. */
  onEdited(listener: (id: number, geometry: EditableGeometry) => void): void;
  /**
   * The keyboard's click (./keyboardDrawing.ts): the Point, Line or Area tool puts a point or a
   * vertex at `at`, as a click there would. On the last vertex placed (or an area's first) it
   * finishes the shape instead, when the shape has enough vertices. What it did, or undefined
   * (no drawing tool, or too near the last vertex to add one and too few to finish).
   */
  addAt(at: Position): 'added' | 'finished' | undefined;
  /** The vertex that follows the pointer follows `at` (the keyboard's crosshair) while a shape is drawn. */
  pointerAt(at: Position): void;
  /** The vertices placed so far of the shape being drawn (0: none is). */
  placed(): number;
}

/** What can be done to an edited line or area; its dragged vertices snap as drawn ones do. */
const editableFlags = (snappable: object) => ({ feature: { draggable: true, coordinates: { midpoints: { draggable: true }, draggable: true, deletable: true, snappable } } });
const MODE_OF: Record<EditableGeometry['type'], DrawTool> = { Point: 'point', LineString: 'linestring', Polygon: 'polygon' };
/** How near (pixels) a Ctrl/Cmd-click must be to a line's end to draw on from it. */
const END_PIXELS = 12;
/** terra-draw's finish key for lines and areas: no keyboard has it (the key handler below finishes them). */
const FINISH = 'finish-shape';
/** How near (pixels) the keyboard's crosshair must be to the last vertex (or an area's first) to finish, not add. */
const FINISH_PIXELS = 8;
/** Finished changes of the edited feature that are edits (terra-draw's finish actions). */
const EDIT_ACTIONS = new Set(['dragFeature', 'dragCoordinate', 'insertMidpoint', 'deleteCoordinate', 'dragCoordinateResize']);

/**
 * The selected item: a clear halo in the amber of Box selection's outline (boxSelectAdapter.ts),
 * around a point in the focus blue, along a line, around an area (issue 26: terra-draw's default
 * thin blue was hard to tell from an unselected item).
 */
const SELECTED_STYLES = {
  selectedPointColor: '#1a56b0',
  selectedPointWidth: 8,
  selectedPointOutlineColor: '#ffc400',
  selectedPointOutlineWidth: 4,
  selectedLineStringColor: '#ffc400',
  selectedLineStringWidth: 7,
  selectedPolygonColor: '#ffc400',
  selectedPolygonFillOpacity: 0.2,
  selectedPolygonOutlineColor: '#ffc400',
  selectedPolygonOutlineWidth: 4,
} as const;

/** terra-draw refuses coordinates of more than 9 decimals (a tenth of a millimetre): shapes go in rounded. */
const DECIMALS = 1e9;
const rounded = (value: number) => Math.round(value * DECIMALS) / DECIMALS;
function roundedCoordinates(coordinates: unknown): unknown {
  return Array.isArray(coordinates) ? coordinates.map((part: unknown) => (typeof part === 'number' ? rounded(part) : roundedCoordinates(part))) : coordinates;
}

export function isEditable(geometry: { type: string } | null | undefined): geometry is EditableGeometry {
  return !!geometry && geometry.type in MODE_OF;
}

/**
 * terra-draw on `map` (a MapLibre map). `onDrawn` gets each new shape when it is finished (it then
 * leaves the drawing: the caller adds it to the map's layer). New shapes get ids -1, -2, …,
 * counting down, so they never meet a saved feature's id. `snap` (the map's other features) is
 * asked at each pointer move while drawing and while a vertex is dragged.
 */
export function createDrawing(map: unknown, onDrawn: (id: number, geometry: EditableGeometry) => void, snap?: Snapper): Drawing {
  let nextId = -1;
  let edited: number | undefined;
  /** The edited feature's geometry as given and as it went into the drawing (rounded): unchanged, the edit gives back the first. */
  let given: { geometry: EditableGeometry; rounded: string } | undefined;
  /** A line drawn on from an end of the edited one: which line, its coordinates then, and which end. */
  let extension: { id: number; coordinates: Position[]; end: LineEnd } | undefined;
  /** While the extension's first point is put on the line's end: no snapping it elsewhere. */
  let placingStart = false;
  const toCustom = (event: TerraDrawMouseEvent): Position | undefined => {
    const snapped = snap && !placingStart ? snap([event.containerX, event.containerY], edited) : undefined;
    return snapped && [rounded(snapped[0]), rounded(snapped[1])];
  };
  const snapping = { toCustom };
  const adapter = new TerraDrawMapLibreGLAdapter({ map, prefixId: 'drawing' });
  // Enter and Escape finish a line or an area (this module's key handler below, with a finish key
  // no keyboard has); the editor handles Escape and Delete for the selected item.
  const lineMode = new TerraDrawLineStringMode({ snapping, keyEvents: { cancel: null, finish: FINISH } });
  const polygonMode = new TerraDrawPolygonMode({ snapping, keyEvents: { cancel: null, finish: FINISH } });
  const pointMode = new TerraDrawPointMode();
  const draw = new TerraDraw({
    adapter,
    idStrategy: { isValidId: (id: string | number) => typeof id === 'number' && Number.isInteger(id), getId: () => nextId-- },
    modes: [
      new TerraDrawSelectMode({
        flags: { point: { feature: { draggable: true } }, linestring: editableFlags(snapping), polygon: editableFlags(snapping) },
        keyEvents: null,
        styles: SELECTED_STYLES,
      }),
      pointMode,
      lineMode,
      polygonMode,
    ],
  });
  draw.start();

  const geometryOf = (id: number): EditableGeometry | undefined => {
    const feature = draw.getSnapshotFeature(id);
    return feature && isEditable(feature.geometry) ? (feature.geometry as EditableGeometry) : undefined;
  };

  // ---- the shape as it changes, at most once a frame
  const shapeListeners: ((shape: Shape | undefined) => void)[] = [];
  /** The id of the new shape being drawn (a new line, area, or a line's extension). */
  let drawnId: number | undefined;
  let frame = 0;
  function currentShape(): Shape | undefined {
    if (drawnId !== undefined && !draw.hasFeature(drawnId)) drawnId = undefined;
    const geometry = drawnId === undefined ? undefined : geometryOf(drawnId);
    if (drawnId !== undefined && geometry) {
      if (extension && geometry.type === 'LineString') {
        const coordinates = joinExtension(extension.coordinates, extension.end, geometry.coordinates as Position[]);
        return { id: extension.id, geometry: { type: 'LineString', coordinates }, drawing: true };
      }
      return { id: drawnId, geometry, drawing: true };
    }
    const editedGeometry = edited === undefined || extension ? undefined : geometryOf(edited);
    return editedGeometry ? { id: edited!, geometry: editedGeometry, drawing: false } : undefined;
  }
  function shapeChanged(): void {
    if (frame || shapeListeners.length === 0) return;
    frame = requestAnimationFrame(() => {
      frame = 0;
      const shape = currentShape();
      shapeListeners.forEach((listener) => listener(shape));
    });
  }
  draw.on('change', (ids, type) => {
    if (type === 'delete' && drawnId !== undefined && ids.includes(drawnId)) {
      drawnId = undefined;
      return shapeChanged();
    }
    if (type === 'create' && drawnId === undefined) {
      drawnId = ids.find((id): id is number => typeof id === 'number' && draw.getSnapshotFeature(id)?.properties.currentlyDrawing === true);
    }
    if ((drawnId !== undefined && ids.includes(drawnId)) || (edited !== undefined && ids.includes(edited))) shapeChanged();
  });

  // ---- finished shapes and edits
  const editListeners: ((id: number, geometry: EditableGeometry) => void)[] = [];
  /** A vertex added from a midpoint at the start of a drag: told with the drag's end, as one edit. */
  let held = false;
  let pointerDown = false;
  const tellEdited = () => {
    held = false;
    const current = edited === undefined ? undefined : geometryOf(edited);
    if (!current) return;
    // Back where it was (a drag that went nowhere): the geometry as given, not its rounded copy.
    const text = JSON.stringify(current);
    const geometry = given && text === given.rounded ? given.geometry : current;
    given = { geometry, rounded: text };
    editListeners.forEach((listener) => listener(edited!, geometry));
  };
  window.addEventListener('pointerdown', () => (pointerDown = true), true);
  // After the map's own handlers (this is the window, bubbling): a drag has ended by now.
  const pointerUp = () => {
    pointerDown = false;
    if (held) tellEdited();
  };
  window.addEventListener('pointerup', pointerUp);
  window.addEventListener('pointercancel', pointerUp);

  draw.on('finish', (id, context) => {
    if (typeof id !== 'number') return;
    if (context.action === 'draw') {
      const feature = draw.getSnapshotFeature(id);
      if (!feature || !isEditable(feature.geometry)) return;
      const geometry = feature.geometry as EditableGeometry;
      draw.removeFeatures([id]);
      if (extension) return joinDrawn(geometry.coordinates as Position[]);
      onDrawn(id, geometry);
      return;
    }
    if (id !== edited || !EDIT_ACTIONS.has(context.action)) return;
    // A midpoint dragged adds its vertex first (finished at once), then moves it (finished at the drag's end).
    if (context.action === 'insertMidpoint' && pointerDown) held = true;
    else tellEdited();
  });

  // ---- drawing on from a line's end
  function joinDrawn(drawnCoordinates: Position[]): void {
    const { id, coordinates, end } = extension!;
    extension = undefined;
    const joined = { type: 'LineString' as const, coordinates: joinExtension(coordinates, end, drawnCoordinates) };
    draw.setMode('select');
    if (!draw.hasFeature(id)) return;
    draw.updateFeatureGeometry(id, joined as GeoJSONStoreFeatures['geometry']);
    draw.selectFeature(id);
    tellEdited();
  }
  function stopExtending(): void {
    if (!extension) return;
    const { id } = extension;
    extension = undefined;
    draw.setMode('select'); // the line mode drops what was drawn of the extension
    if (draw.hasFeature(id)) draw.selectFeature(id);
    shapeChanged();
  }
  function extend(end: LineEnd = 'end'): boolean {
    const geometry = edited === undefined ? undefined : geometryOf(edited);
    if (!geometry || geometry.type !== 'LineString' || extension) return false;
    const coordinates = geometry.coordinates as Position[];
    const [lng, lat] = endPosition(coordinates, end);
    extension = { id: edited!, coordinates, end };
    draw.deselectFeature(edited!);
    draw.setMode('linestring');
    // The extension's first point is the line's end, as if it had been clicked.
    const { x, y } = adapter.project(lng, lat);
    const start: TerraDrawMouseEvent = { lng, lat, containerX: x, containerY: y, button: 'left', heldKeys: [], isContextMenu: false };
    placingStart = true;
    try {
      lineMode.onClick(start);
    } finally {
      placingStart = false;
    }
    return true;
  }
  // Ctrl-click (Cmd-click on a Mac) on an end of the edited line draws on from it.
  const canvas = adapter.getMapEventElement();
  canvas.addEventListener('click', (event) => {
    if (!(event.ctrlKey || event.metaKey) || edited === undefined || extension) return;
    const geometry = geometryOf(edited);
    if (geometry?.type !== 'LineString') return;
    const box = canvas.getBoundingClientRect();
    const project = ([lng, lat]: Position): Position => {
      const { x, y } = adapter.project(lng, lat);
      return [x, y];
    };
    const end = endNear(geometry.coordinates as Position[], [event.clientX - box.left, event.clientY - box.top], project, END_PIXELS);
    if (end) extend(end);
  });
  // ---- the shape being drawn: its vertices placed so far, finishing it, the keyboard's clicks
  /** The mode drawing a line or an area now, if any. */
  const drawingMode = () => {
    const mode = draw.getMode();
    return draw.getModeState() !== 'drawing' ? undefined : mode === 'linestring' ? lineMode : mode === 'polygon' ? polygonMode : undefined;
  };
  /** The vertices placed (clicked) so far of the line or area being drawn; the one that follows the pointer is not. */
  function placedVertices(): Position[] {
    const feature = drawnId === undefined ? undefined : draw.getSnapshotFeature(drawnId);
    if (!feature || !drawingMode()) return [];
    if (feature.geometry.type === 'LineString') return (feature.geometry.coordinates as Position[]).slice(0, -1);
    if (feature.geometry.type !== 'Polygon') return [];
    const committed = Number(feature.properties.committedCoordinateCount ?? 0);
    return (feature.geometry.coordinates[0] as Position[]).slice(0, committed);
  }
  /** Whether the shape being drawn has enough vertices to be kept (a line two, an area three). */
  const finishable = () => placedVertices().length >= (drawingMode() === polygonMode ? 3 : 2);
  /** Finishes the line or area being drawn when it has enough vertices, else drops it. */
  function finishOrDrop(): void {
    const mode = drawingMode();
    if (!mode) return;
    if (finishable()) mode.onKeyUp({ key: FINISH, heldKeys: [], preventDefault: () => undefined });
    else if (extension) stopExtending();
    else mode.cleanUp();
  }
  /** The shape begun with the keyboard: Enter adds its vertices (./keyboardDrawing.ts) instead of finishing it. */
  let keyboardShape: number | undefined;
  const eventAt = ([lng, lat]: Position): TerraDrawMouseEvent => {
    const { x, y } = adapter.project(lng, lat);
    return { lng, lat, containerX: x, containerY: y, button: 'left', heldKeys: [], isContextMenu: false };
  };
  // Enter finishes a line or an area drawn with the mouse; Escape finishes any (a line needs two
  // points, an area three: with fewer it is dropped). Before the editor's keys (capture): Escape
  // while drawing on from a line's end does not end its edit.
  window.addEventListener(
    'keydown',
    (event) => {
      if ((event.key !== 'Enter' && event.key !== 'Escape') || !drawingMode()) return;
      if (event.target instanceof HTMLInputElement || event.target instanceof HTMLTextAreaElement) return;
      if (event.key === 'Enter' && drawnId !== undefined && drawnId === keyboardShape) return; // the keyboard's click (./keyboardDrawing.ts)
      event.preventDefault();
      event.stopPropagation();
      if (event.key === 'Escape' || finishable()) finishOrDrop();
    },
    true,
  );

  function addAt(at: Position): 'added' | 'finished' | undefined {
    const mode = draw.getMode();
    if (mode === 'point' && draw.getModeState() !== 'drawing') {
      pointMode.onClick(eventAt(at));
      return 'added';
    }
    if (mode !== 'linestring' && mode !== 'polygon') return undefined;
    const placed = placedVertices();
    if (placed.length > 0) {
      const here = adapter.project(at[0], at[1]);
      const near = (vertex: Position | undefined) => {
        if (!vertex) return false;
        const { x, y } = adapter.project(vertex[0], vertex[1]);
        return Math.hypot(x - here.x, y - here.y) <= FINISH_PIXELS;
      };
      if (near(placed.at(-1)) || (mode === 'polygon' && near(placed[0]))) {
        if (!finishable()) return undefined;
        finishOrDrop();
        return 'finished';
      }
    }
    (mode === 'linestring' ? lineMode : polygonMode).onClick(eventAt(at));
    if (placed.length === 0) keyboardShape = drawnId;
    return 'added';
  }

  return {
    setTool(tool) {
      stopExtending();
      draw.setMode(tool);
    },
    edit(id, geometry) {
      const inDrawing = { type: geometry.type, coordinates: roundedCoordinates(geometry.coordinates) } as GeoJSONStoreFeatures['geometry'];
      const feature: GeoJSONStoreFeatures = { type: 'Feature', id, geometry: inDrawing, properties: { mode: MODE_OF[geometry.type] } };
      const [validation] = draw.addFeatures([feature]);
      if (!validation?.valid) return;
      edited = id;
      given = { geometry, rounded: JSON.stringify(inDrawing) };
      draw.setMode('select');
      draw.selectFeature(id);
      shapeChanged();
    },
    finishEdit() {
      stopExtending();
      if (edited === undefined) return undefined;
      const id = edited;
      edited = undefined;
      held = false;
      const edits = geometryOf(id);
      const geometry = edits && given && JSON.stringify(edits) === given.rounded ? given.geometry : edits;
      given = undefined;
      if (draw.hasFeature(id)) {
        draw.deselectFeature(id); // its vertex and midpoint handles go with the selection
        draw.removeFeatures([id]);
      }
      shapeChanged();
      return geometry ? { id, geometry } : undefined;
    },
    cancelEdit() {
      stopExtending();
      if (edited !== undefined && draw.hasFeature(edited)) {
        draw.deselectFeature(edited);
        draw.removeFeatures([edited]);
      }
      edited = undefined;
      given = undefined;
      held = false;
      shapeChanged();
    },
    editing: () => edited,
    setGeometry(id, geometry) {
      if (id !== edited || !draw.hasFeature(id)) return;
      stopExtending();
      const inDrawing = { type: geometry.type, coordinates: roundedCoordinates(geometry.coordinates) } as GeoJSONStoreFeatures['geometry'];
      given = { geometry, rounded: JSON.stringify(inDrawing) };
      if (JSON.stringify(geometryOf(id)) === given.rounded) return;
      draw.updateFeatureGeometry(id, inDrawing);
    },
    extend,
    extending: () => extension !== undefined,
    onShape(listener) {
      shapeListeners.push(listener);
    },
    onEdited(listener) {
      editListeners.push(listener);
    },
    addAt,
    pointerAt(at) {
      drawingMode()?.onMouseMove({ ...eventAt(at), button: 'neither' });
    },
    placed: () => placedVertices().length,
  };
}
