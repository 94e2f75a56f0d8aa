// Drawing and moving with the keyboard on the map (issue 26): with the map focused, a crosshair
// marks its centre while a drawing tool is on; the arrows move the map under it (MapLibre's own
// keys, + and − zoom) and Enter or Space puts a point, or a line's or an area's next vertex, at
// the crosshair (with Select, opens the item there) (./drawingAdapter.ts `addAt`, terra-draw's click there). Enter on the last vertex
// placed (or an area's first), or Escape, finishes the shape. With a point selected, the arrows
// move it instead (10 pixels, 1 with Shift), each press one edit. A help line under the toolbar
// tells the keys for the tool on (the map's accessible description; shown while the map has the
// keyboard), and what happens is announced (./announcer.ts). With a line or an area selected, V
// chooses its next vertex (Shift+V the one before), marked on the map with a ring; the arrows move
// that vertex (10 pixels, 1 with Shift), each press one edit ("Vertex 3 of 7 moved."), Delete or
// Backspace deletes it (not the item; a line keeps two, an area three); Escape lets it go (the next
// Escape closes the item).
import { announce } from './announcer.js';
import { element } from './element.js';
import type { Drawing, MapView } from './mapAdapter.js';

/** The editor's tool as the keyboard needs it; undefined while the editing tools are off. */
export type KeyboardTool = 'select' | 'box' | 'point' | 'text' | 'linestring' | 'polygon' | undefined;

export interface KeyboardDrawingOptions {
  view: MapView;
  drawing: Drawing;
  /** Where the help line goes (under the toolbar). */
  helpHost: HTMLElement;
  tool(): KeyboardTool;
  /** The selected item when it is a point (the arrows move it). */
  selectedPoint(): { id: number; coordinates: [number, number] } | undefined;
  /** Moves the point to `coordinates` (one edit). */
  movePoint(id: number, coordinates: [number, number]): void;
  /** The selected item when it is a line or an area (V chooses its vertices, the arrows move the one chosen). */
  selectedShape(): { id: number; geometry: VertexGeometry } | undefined;
  /** The line or area takes this geometry (one edit). */
  reshape(id: number, geometry: VertexGeometry): void;
  /** Opens an item in the item panel (the Select tool's Enter on it). */
  open(id: number): void;
}

/** How far one arrow press moves a selected point (pixels); with Shift, one pixel. */
const NUDGE_PIXELS = 10;
const ARROWS: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

const HELP: Record<NonNullable<KeyboardTool> | 'point-selected' | 'shape-selected' | 'vertex-chosen', string> = {
  select: 'Keyboard: arrows move the map under the crosshair, + and − zoom; Enter opens the item there. With Point, Line or Area, Enter draws there.',
  'point-selected': 'Keyboard: arrows move the selected point (Shift+arrow: one pixel); Escape closes it.',
  'shape-selected': 'Keyboard: arrows move the map; V chooses a vertex of the selected shape (Shift+V the one before), then the arrows move it; Escape closes it.',
  'vertex-chosen': 'Keyboard: arrows move the chosen vertex (Shift+arrow: one pixel), Delete deletes it; V the next one, Shift+V the one before; Escape lets it go.',
  box: 'Keyboard: arrows move the map; the Box tool needs a pointer: choose items in the list instead.',
  point: 'Keyboard: arrows move the map under the crosshair; Enter or Space puts a point there.',
  text: 'Keyboard: arrows move the map under the crosshair; Enter or Space puts a text label there.',
  linestring: 'Keyboard: arrows move the map under the crosshair; Enter or Space adds a point of the line there; Enter again on the last point, or Escape, finishes it.',
  polygon: 'Keyboard: arrows move the map under the crosshair; Enter or Space adds a corner there; Enter again on the last or first corner, or Escape, closes the area.',
};

const VERTEX: Partial<Record<NonNullable<KeyboardTool>, [string, string]>> = { linestring: ['Point', 'line'], polygon: ['Corner', 'area'] };
const degrees = ([lon, lat]: [number, number]) => `latitude ${lat.toFixed(5)}, longitude ${lon.toFixed(5)}`;

export type VertexGeometry = { type: 'LineString'; coordinates: [number, number][] } | { type: 'Polygon'; coordinates: [number, number][][] };

/** Where each vertex of a line or an area is: [ring, index] (a line has one "ring"; an area's rings without their closing copy of the first). */
function vertexPlaces(geometry: VertexGeometry): [number, number][] {
  const rings = geometry.type === 'LineString' ? [geometry.coordinates] : geometry.coordinates.map((ring) => ring.slice(0, -1));
  return rings.flatMap((ring, r) => ring.map((_, i): [number, number] => [r, i]));
}
const vertexAt = (geometry: VertexGeometry, [r, i]: [number, number]): [number, number] => (geometry.type === 'LineString' ? geometry.coordinates[i]! : geometry.coordinates[r]![i]!);

/** The geometry with vertex [r, i] at `to` (an area's first vertex and its closing copy move together). */
function withVertex(geometry: VertexGeometry, [r, i]: [number, number], to: [number, number]): VertexGeometry {
  if (geometry.type === 'LineString') return { type: 'LineString', coordinates: geometry.coordinates.map((at, j) => (j === i ? to : at)) };
  const last = geometry.coordinates[r]!.length - 1;
  return { type: 'Polygon', coordinates: geometry.coordinates.map((ring, k) => (k !== r ? ring : ring.map((at, j) => (j === i || (i === 0 && j === last) ? to : at)))) };
}

/** The geometry without vertex [r, i] (an area's ring closed again on its new first vertex), or undefined when the shape would have too few (a line two, an area's ring three). */
function withoutVertex(geometry: VertexGeometry, [r, i]: [number, number]): VertexGeometry | undefined {
  if (geometry.type === 'LineString') return geometry.coordinates.length <= 2 ? undefined : { type: 'LineString', coordinates: geometry.coordinates.filter((_, j) => j !== i) };
  const open = geometry.coordinates[r]!.slice(0, -1);
  if (open.length <= 3) return undefined;
  const kept = open.filter((_, j) => j !== i);
  return { type: 'Polygon', coordinates: geometry.coordinates.map((ring, k) => (k !== r ? ring : [...kept, kept[0]!])) };
}

export interface KeyboardDrawing {
  /** The tool or the selection changed: the crosshair and the help line follow. */
  refresh(): void;
}

export function startKeyboardDrawing(options: KeyboardDrawingOptions): KeyboardDrawing {
  const { view, drawing } = options;
  const target = view.keyboardElement();
  const crosshair = element('div', { class: 'keyboard-crosshair', 'aria-hidden': 'true' });
  target.after(crosshair);
  const help = element('p', { class: 'keyboard-help', id: 'map-keyboard-help' });
  options.helpHost.append(help);
  target.setAttribute('aria-describedby', help.id);
  /** The keyboard moved the map last (not the pointer): the shape being drawn follows the crosshair. */
  let keyboardLast = false;
  target.addEventListener('pointermove', () => (keyboardLast = false));

  /** The vertex chosen with V: of which item, its number among the shape's vertices (0-based). */
  let chosen: { id: number; index: number } | undefined;
  /** The selected shape and its chosen vertex, if any is (still) chosen. */
  function chosenVertex(): { id: number; geometry: VertexGeometry; index: number; count: number; place: [number, number] } | undefined {
    const shape = options.tool() === 'select' ? options.selectedShape() : undefined;
    if (!chosen || !shape || shape.id !== chosen.id) return undefined;
    const places = vertexPlaces(shape.geometry);
    if (places.length === 0) return undefined;
    const index = Math.min(chosen.index, places.length - 1); // fewer vertices now (an undo): the last
    return { ...shape, index, count: places.length, place: places[index]! };
  }

  function refresh(): void {
    const tool = options.tool();
    const aiming = tool === 'select' || tool === 'point' || tool === 'text' || tool === 'linestring' || tool === 'polygon';
    if (aiming) target.parentElement!.dataset.keyboardTool = tool;
    else delete target.parentElement!.dataset.keyboardTool;
    // The chosen vertex's ring follows its shape (an undo, a drag), and goes with the selection.
    const vertex = chosenVertex();
    if (!vertex) chosen = undefined;
    view.markVertex(vertex && vertexAt(vertex.geometry, vertex.place));
    help.hidden = tool === undefined;
    const selected = tool === 'select' ? (options.selectedPoint() ? 'point-selected' : vertex ? 'vertex-chosen' : options.selectedShape() ? 'shape-selected' : undefined) : undefined;
    help.textContent = tool === undefined ? '' : HELP[selected ?? tool];
  }

  /** V (Shift+V): the next (previous) vertex of the selected line or area is chosen, marked and told. */
  function chooseVertex(step: 1 | -1): boolean {
    const shape = options.selectedShape();
    if (!shape) return false;
    const count = vertexPlaces(shape.geometry).length;
    if (count === 0) return false;
    const from = chosen?.id === shape.id ? Math.min(chosen.index, count - 1) : step === 1 ? -1 : count;
    chosen = { id: shape.id, index: (from + step + count) % count };
    refresh();
    const at = vertexAt(shape.geometry, vertexPlaces(shape.geometry)[chosen.index]!);
    announce(`Vertex ${chosen.index + 1} of ${count} chosen, at ${degrees(at)}. The arrows move it.`);
    return true;
  }

  target.addEventListener('keydown', (event) => {
    const tool = options.tool();
    if (tool === undefined || event.altKey || event.ctrlKey || event.metaKey) return;
    keyboardLast = true;
    const arrow = ARROWS[event.key];
    if (tool === 'select' && event.key.toLowerCase() === 'v' && chooseVertex(event.shiftKey ? -1 : 1)) {
      event.preventDefault();
      return;
    }
    const chosenOne = chosenVertex();
    if (chosenOne && arrow) {
      // The chosen vertex moves, not the map.
      event.preventDefault();
      event.stopPropagation();
      const step = event.shiftKey ? 1 : NUDGE_PIXELS;
      const moved = view.offset(vertexAt(chosenOne.geometry, chosenOne.place), [arrow[0] * step, arrow[1] * step]);
      options.reshape(chosenOne.id, withVertex(chosenOne.geometry, chosenOne.place, moved));
      refresh();
      announce(`Vertex ${chosenOne.index + 1} of ${chosenOne.count} moved.`);
      return;
    }
    if (chosenOne && (event.key === 'Delete' || event.key === 'Backspace')) {
      // The chosen vertex goes (not the item: the editor's Delete); the next one is chosen.
      event.preventDefault();
      event.stopPropagation();
      const fewer = withoutVertex(chosenOne.geometry, chosenOne.place);
      if (!fewer) return announce(`Vertex ${chosenOne.index + 1} of ${chosenOne.count} stays: ${chosenOne.geometry.type === 'LineString' ? 'a line needs two' : 'an area needs three'}.`);
      options.reshape(chosenOne.id, fewer);
      refresh();
      announce(`Vertex ${chosenOne.index + 1} of ${chosenOne.count} deleted.`);
      return;
    }
    if (chosenOne && event.key === 'Escape') {
      // Lets the vertex go (not the editor's Escape, which closes the item).
      event.preventDefault();
      event.stopPropagation();
      chosen = undefined;
      refresh();
      announce('Vertex let go.');
      return;
    }
    const point = tool === 'select' ? options.selectedPoint() : undefined;
    if (arrow && point) {
      // The selected point moves, not the map.
      event.preventDefault();
      event.stopPropagation();
      const step = event.shiftKey ? 1 : NUDGE_PIXELS;
      const moved = view.offset(point.coordinates, [arrow[0] * step, arrow[1] * step]);
      options.movePoint(point.id, moved);
      announce(`Point moved to ${degrees(moved)}.`);
      return;
    }
    if ((event.key !== 'Enter' && event.key !== ' ') || event.shiftKey) return;
    if (tool === 'select') {
      // The item under the crosshair opens (the panel's first field gets the keyboard).
      event.preventDefault();
      const id = view.itemAtCenter();
      if (id === undefined) announce('Nothing at the crosshair: move the map onto an item, or open one from the list.');
      else options.open(id);
      return;
    }
    if (tool !== 'point' && tool !== 'text' && tool !== 'linestring' && tool !== 'polygon') return;
    event.preventDefault();
    event.stopPropagation();
    const done = drawing.addAt(view.center());
    const vertex = VERTEX[tool];
    if (!vertex) return; // a point: the editor announces the new item
    if (done === 'added') {
      const placed = drawing.placed();
      announce(`${vertex[0]} ${placed} of the ${vertex[1]} placed.${placed >= (tool === 'polygon' ? 3 : 2) ? ' Enter again here, or Escape, finishes it.' : ''}`);
    } else if (done === undefined) {
      announce(`Move the map to place the next ${vertex[0].toLowerCase()}: a ${vertex[1]} needs ${tool === 'polygon' ? 'three' : 'two'}.`);
    }
  });
  // The vertex that follows the pointer follows the crosshair while the keyboard moves the map.
  view.onMove(() => {
    if (keyboardLast && document.activeElement === target && drawing.placed() > 0) drawing.pointerAt(view.center());
  });
  refresh();
  return { refresh };
}
