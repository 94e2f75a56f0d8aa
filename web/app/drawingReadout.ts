// The live measure of the shape being drawn, over the map under the editor's toolbar: a line's
// length so far (to the pointer), an area's size, in the viewer's units (metric or imperial, as
// the item panel remembers them). A status region: empty (and not shown) when nothing is drawn.
import { element } from './element.js';
import { savedUnits } from './itemPanel.js';
import type { Shape } from './mapAdapter.js';
import { measureOf } from './measure.js';

export class DrawingReadout {
  readonly root = element('p', { class: 'drawing-readout', role: 'status' });

  /** Shows the measure of the shape being drawn; an edited shape or none empties the readout. */
  show(shape: Shape | undefined): void {
    const text = shape?.drawing ? (measureOf(shape.geometry, savedUnits()) ?? '') : '';
    if (this.root.textContent !== text) this.root.textContent = text;
  }
}
