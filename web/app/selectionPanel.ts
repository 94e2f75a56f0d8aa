// The side panel of several selected items (the Box tool): how many, a colour for all of them
// (the item panel's swatches or a picker), Delete all, and Done. It reports what the person
// chose; the editor makes the edits, all of them one step of the history.
import { announce } from './announcer.js';
import { element } from './element.js';
import { DEFAULT_SWATCH, SWATCHES } from './itemPanel.js';

export interface SelectionPanelActions {
  setColor(color: string): void;
  removeAll(): void;
  done(): void;
}

export class SelectionPanel {
  readonly root = element('section', { class: 'item-panel selection-panel', 'aria-label': 'Selected items' });

  constructor(private readonly actions: SelectionPanelActions) {
    this.root.hidden = true;
  }

  hide(): void {
    this.root.hidden = true;
  }

  /** Shows the panel for `count` items; `color` is their colour when they all have the same one. */
  show(count: number, color: string | undefined): void {
    const { actions } = this;
    const heading = element('h2', {}, count === 0 ? 'No items selected' : `${count.toLocaleString('en')} ${count === 1 ? 'item' : 'items'} selected`);
    announce(`${heading.textContent}.`); // the heading is drawn anew each time: a live region of its own would not be heard
    this.root.replaceChildren(heading);
    this.root.hidden = false;
    const hint = element('p', { class: 'hint' }, 'Drag another box to select other items; hold Shift to add to these. Esc clears the selection.');
    const field = element('p', { class: 'field' });
    const picker = element('input', { id: 'selection-colour', type: 'color' });
    picker.value = color ?? DEFAULT_SWATCH;
    picker.addEventListener('change', () => actions.setColor(picker.value));
    field.append(element('label', { for: 'selection-colour' }, 'Colour of all'), picker);
    const swatches = element('div', { class: 'swatches', role: 'group', 'aria-label': 'Colours' });
    for (const swatch of SWATCHES) {
      const button = element('button', { type: 'button', class: 'swatch', 'aria-label': `Colour ${swatch}`, 'aria-pressed': String(color === swatch) });
      button.style.background = swatch; // through the CSSOM: the pages' CSP refuses style attributes
      button.addEventListener('click', () => actions.setColor(swatch));
      swatches.append(button);
    }
    const buttons = element('p', { class: 'actions' });
    const remove = element('button', { type: 'button', class: 'danger' }, 'Delete all');
    const done = element('button', { type: 'button', class: 'secondary' }, 'Done');
    remove.addEventListener('click', () => actions.removeAll());
    done.addEventListener('click', () => actions.done());
    buttons.append(remove, done);
    this.root.append(hint, field, swatches, buttons);
    if (count === 0) {
      field.hidden = swatches.hidden = remove.hidden = true;
      hint.textContent = 'Drag a box on the map to select the items inside it; hold Shift to add to a selection.';
    }
  }
}
