// "Point deleted. Undo" (issue 26, item 8): after an item is deleted in the editor, a line under
// the toolbar says so, with an Undo button (a Tab stop: it comes before the map in the page).
// Screen readers hear it through the page's one live region (./announcer.ts), not twice. It goes
// after a while (not while the pointer or the keyboard is on it), on the editor's next action, or
// when Undo is pressed; a keyboard on its Undo when it goes is handed to `fallback`.
import { announce } from './announcer.js';
import { element } from './element.js';

/** How long the line stays, unless the pointer or the keyboard is on it. */
const SHOWN_MS = 10_000;

export class UndoToast {
  readonly root = element('div', { class: 'undo-toast', hidden: '' });
  private readonly text = element('span', {});
  private readonly button = element('button', { type: 'button' }, 'Undo');
  private timer: ReturnType<typeof setTimeout> | undefined;
  private undo: (() => void) | undefined;

  constructor(private readonly fallback: () => HTMLElement) {
    this.root.append(this.text, ' ', this.button);
    this.button.addEventListener('click', () => {
      const undo = this.undo;
      this.hide();
      undo?.();
    });
    // Kept while someone is reading it or about to press Undo.
    for (const type of ['pointerenter', 'focusin'] as const) this.root.addEventListener(type, () => this.stopTimer());
    for (const type of ['pointerleave', 'focusout'] as const)
      this.root.addEventListener(type, () => {
        if (!this.root.hidden && !this.root.matches(':hover') && !this.root.contains(document.activeElement)) this.startTimer();
      });
  }

  /** Says `text` ("Point deleted."), with Undo calling `undo`. */
  show(text: string, undo: () => void): void {
    this.undo = undo;
    this.text.textContent = text;
    this.button.setAttribute('aria-label', `Undo: ${text.replace(/\.$/, '')}`);
    this.root.hidden = false;
    announce(`${text} Press Undo or Ctrl+Z to bring it back.`);
    this.startTimer();
  }

  /** Gone (its time is up, another action came, Undo was pressed). */
  hide(): void {
    if (this.root.hidden) return;
    this.stopTimer();
    this.undo = undefined;
    const hadKeyboard = this.root.contains(document.activeElement);
    this.root.hidden = true;
    if (hadKeyboard) this.fallback().focus();
  }

  private startTimer(): void {
    this.stopTimer();
    this.timer = setTimeout(() => this.hide(), SHOWN_MS);
  }

  private stopTimer(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
