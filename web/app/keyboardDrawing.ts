// Drawing and moving with the keyboard on the map (issue 26): with the map focused, a crosshair
// marks its centre while a drawing tool is on; the arrows move the map under it (MapLibre's own
// keys, + and − zoom) and Enter or Space puts a point, or a line's or an area's next vertex, at
// the crosshair (with Select, opens the item there) (./drawingAdapter.ts `addAt`, terra-draw's click there). Enter on the last vertex
// placed (or an area's first), or Escape, finishes the shape. With a point selected, the arrows
// move it instead (10 pixels, 1 with Shift), each press one edit. A help line under the toolbar
// tells the keys for the tool on (the map's accessible description; shown while the map has the
// keyboard), and what happens is announced (./announcer.ts).
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
  /** Opens an item in the item panel (the Select tool's Enter on it). */
  open(id: number): void;
}

/** How far one arrow press moves a selected point (pixels); with Shift, one pixel. */
const NUDGE_PIXELS = 10;
const ARROWS: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

const HELP: Record<NonNullable<KeyboardTool> | 'point-selected', string> = {
  select: 'Keyboard: arrows move the map under the crosshair, + and − zoom; Enter opens the item there. With Point, Line or Area, Enter draws there.',
  'point-selected': 'Keyboard: arrows move the selected point (Shift+arrow: one pixel); Escape closes it.',
  box: 'Keyboard: arrows move the map; the Box tool needs a pointer: choose items in the list instead.',
  point: 'Keyboard: arrows move the map under the crosshair; Enter or Space puts a point there.',
  text: 'Keyboard: arrows move the map under the crosshair; Enter or Space puts a text label there.',
  linestring: 'Keyboard: arrows move the map under the crosshair; Enter or Space adds a point of the line there; Enter again on the last point, or Escape, finishes it.',
  polygon: 'Keyboard: arrows move the map under the crosshair; Enter or Space adds a corner there; Enter again on the last or first corner, or Escape, closes the area.',
};

const VERTEX: Partial<Record<NonNullable<KeyboardTool>, [string, string]>> = { linestring: ['Point', 'line'], polygon: ['Corner', 'area'] };
const degrees = ([lon, lat]: [number, number]) => `latitude ${lat.toFixed(5)}, longitude ${lon.toFixed(5)}`;

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

  function refresh(): void {
    const tool = options.tool();
    const aiming = tool === 'select' || tool === 'point' || tool === 'text' || tool === 'linestring' || tool === 'polygon';
    if (aiming) target.parentElement!.dataset.keyboardTool = tool;
    else delete target.parentElement!.dataset.keyboardTool;
    help.hidden = tool === undefined;
    help.textContent = tool === undefined ? '' : HELP[tool === 'select' && options.selectedPoint() ? 'point-selected' : tool];
  }

  target.addEventListener('keydown', (event) => {
    const tool = options.tool();
    if (tool === undefined || event.altKey || event.ctrlKey || event.metaKey) return;
    keyboardLast = true;
    const arrow = ARROWS[event.key];
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
