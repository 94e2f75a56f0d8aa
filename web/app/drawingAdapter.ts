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
}

/** What can be done to an edited line or area; its dragged vertices snap as drawn ones do. */
const editableFlags = (snappable: object) => ({ feature: { draggable: true, coordinates: { midpoints: { draggable: true }, draggable: true, deletable: true, snappable } } });
const MODE_OF: Record<EditableGeometry['type'], DrawTool> = { Point: 'point', LineString: 'linestring', Polygon: 'polygon' };
/** How near (pixels) a Ctrl/Cmd-click must be to a line's end to draw on from it. */
const END_PIXELS = 12;
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
  // Enter and Escape finish a line (this module's key handler below), Escape alone cancels an
  // area; the editor handles Escape and Delete for the selected item.
  const lineMode = new TerraDrawLineStringMode({ snapping, keyEvents: { cancel: null, finish: 'Enter' } });
  const draw = new TerraDraw({
    adapter,
    idStrategy: { isValidId: (id: string | number) => typeof id === 'number' && Number.isInteger(id), getId: () => nextId-- },
    modes: [
      new TerraDrawSelectMode({
        flags: { point: { feature: { draggable: true } }, linestring: editableFlags(snapping), polygon: editableFlags(snapping) },
        keyEvents: null,
        styles: SELECTED_STYLES,
      }),
      new TerraDrawPointMode(),
      lineMode,
      new TerraDrawPolygonMode({ snapping }),
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
  // Enter or Escape finish a line (with two points at least; else Escape drops it). Before the
  // editor's keys (capture): Escape while drawing on from a line's end does not end its edit.
  window.addEventListener(
    'keydown',
    (event) => {
      if ((event.key !== 'Enter' && event.key !== 'Escape') || draw.getMode() !== 'linestring' || draw.getModeState() !== 'drawing') return;
      if (event.target instanceof HTMLInputElement || event.target instanceof HTMLTextAreaElement) return;
      event.preventDefault();
      event.stopPropagation();
      const points = drawnId === undefined ? 0 : ((geometryOf(drawnId)?.coordinates as unknown[] | undefined)?.length ?? 0) - 1; // the last one follows the pointer
      if (points >= 2) lineMode.onKeyUp({ key: 'Enter', heldKeys: [], preventDefault: () => undefined });
      else if (event.key === 'Escape') {
        if (extension) stopExtending();
        else lineMode.cleanUp();
      }
    },
    true,
  );

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
  };
}
