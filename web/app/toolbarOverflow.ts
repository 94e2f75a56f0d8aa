// The editor's toolbar in one row (issue 26, defect 7): on a narrow map (a phone) the buttons that
// do not fit go into a "More" menu at the row's end, the least needed first (`keep` lists them
// most needed first; its first are kept longest). More is a WAI-ARIA menu button: aria-expanded,
// Enter, Space or ↓ open it on its first entry (↑ on its last), ↑/↓/Home/End move, Enter or Space
// chooses, Escape closes it with the keyboard back on More, Tab closes it. Each entry stands for
// its button (its name, pressed or disabled state) and chooses by clicking it, so the editor has
// one code path; a tool's entry is a menuitemradio, another toggle's a menuitemcheckbox.
import { element } from './element.js';

const shown = (button: HTMLButtonElement) => !button.hidden;

/** Three dots in a row, the usual sign of more (an SVG: no font needed). */
function dots(): SVGSVGElement {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  for (const [name, value] of Object.entries({ class: 'more-dots', viewBox: '0 0 16 16', width: '16', height: '16', 'aria-hidden': 'true' })) svg.setAttribute(name, value);
  for (const cx of [3, 8, 13]) {
    const dot = document.createElementNS(ns, 'circle');
    for (const [name, value] of Object.entries({ cx: String(cx), cy: '8', r: '1.8', fill: 'currentColor' })) dot.setAttribute(name, value);
    svg.append(dot);
  }
  return svg;
}

export class ToolbarOverflow {
  readonly more = element('button', { type: 'button', class: 'more', 'aria-haspopup': 'menu', 'aria-expanded': 'false', 'aria-label': 'More tools', hidden: '' });
  private readonly menu = element('ul', { role: 'menu', class: 'toolbar-menu', 'aria-label': 'More tools', hidden: '' });
  private readonly folded = new Set<HTMLButtonElement>();

  /**
   * @param toolbar the row (its buttons in their order on screen)
   * @param keep the buttons that may fold, most needed first; the others never fold
   */
  constructor(
    private readonly toolbar: HTMLElement,
    private readonly keep: HTMLButtonElement[],
  ) {
    // "More ▾", or on a phone three dots (its name is its label either way): the room goes to the tools.
    this.more.append(element('span', { class: 'more-text', 'aria-hidden': 'true' }, 'More'), element('span', { 'aria-hidden': 'true', class: 'more-arrow' }, ' ▾'), dots());
    this.menu.id = `toolbar-menu-${Math.random().toString(36).slice(2, 8)}`;
    this.more.setAttribute('aria-controls', this.menu.id);
    const holder = element('span', { class: 'more-holder' });
    holder.append(this.more, this.menu);
    toolbar.append(holder);
    this.more.addEventListener('click', () => (this.isOpen() ? this.close(true) : this.open(0)));
    this.more.addEventListener('keydown', (event) => {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        this.open(event.key === 'ArrowDown' ? 0 : -1);
      } else if (event.key === 'Escape' && this.isOpen()) {
        event.stopPropagation(); // opened by a click, closed by Escape: not the editor's Escape
        this.close(true);
      }
    });
    this.menu.addEventListener('keydown', (event) => this.onMenuKey(event));
    this.menu.addEventListener('click', (event) => {
      const entry = (event.target as HTMLElement).closest<HTMLElement>('[data-index]');
      if (entry) this.choose(entry);
    });
    // A click elsewhere, or the keyboard leaving the menu, closes it.
    document.addEventListener('pointerdown', (event) => {
      if (this.isOpen() && !holder.contains(event.target as Node)) this.close(false);
    });
    holder.addEventListener('focusout', (event) => {
      if (this.isOpen() && !holder.contains(event.relatedTarget as Node | null) && event.relatedTarget !== null) this.close(false);
    });
    // The room is the map's width (the map bar over it is as wide as what it holds, up to a bound).
    new ResizeObserver(() => this.refresh()).observe(toolbar.parentElement?.parentElement ?? toolbar);
  }

  isOpen(): boolean {
    return !this.menu.hidden;
  }

  /**
   * Folds into More what does not fit in one row (call after buttons were shown, hidden or
   * renamed); an open menu shows its entries as they are now.
   */
  refresh(): void {
    for (const button of this.folded) button.classList.remove('folded');
    this.folded.clear();
    this.more.hidden = true;
    if (this.overflows()) {
      this.more.hidden = false;
      for (const button of [...this.keep].reverse().filter(shown)) {
        button.classList.add('folded');
        this.folded.add(button);
        if (!this.overflows()) break;
      }
    }
    if (this.folded.size === 0) this.more.hidden = true;
    if (this.isOpen()) this.fill();
    if (this.more.hidden && this.isOpen()) this.close(this.menu.contains(document.activeElement));
  }

  /** The row is wider than the room it has (the map bar's, over the map). */
  private overflows(): boolean {
    return this.toolbar.scrollWidth > this.toolbar.clientWidth + 0.5;
  }

  /** Which folded buttons are in the menu, in the toolbar's order. */
  private entries(): HTMLButtonElement[] {
    return [...this.toolbar.querySelectorAll<HTMLButtonElement>('button.folded')].filter(shown);
  }

  private fill(): void {
    const focusedAt = [...this.menu.querySelectorAll('[data-index]')].indexOf(document.activeElement as Element);
    this.menu.replaceChildren(
      ...this.entries().map((button, index) => {
        const pressed = button.getAttribute('aria-pressed');
        const role = pressed === null || button.classList.contains('edit') ? 'menuitem' : button.dataset.tool ? 'menuitemradio' : 'menuitemcheckbox';
        const entry = element('button', { type: 'button', role, tabindex: '-1', 'data-index': String(index) }, button.textContent ?? '');
        const label = button.getAttribute('aria-label');
        if (label) entry.setAttribute('aria-label', label);
        if (role !== 'menuitem') entry.setAttribute('aria-checked', pressed ?? 'false');
        if (button.disabled) entry.setAttribute('aria-disabled', 'true');
        const item = element('li', { role: 'none' });
        item.append(entry);
        return item;
      }),
    );
    if (focusedAt >= 0) this.focusEntry(focusedAt);
  }

  private items(): HTMLElement[] {
    return [...this.menu.querySelectorAll<HTMLElement>('[data-index]')];
  }

  private focusEntry(index: number): void {
    const items = this.items();
    if (items.length === 0) return;
    items[((index % items.length) + items.length) % items.length]!.focus();
  }

  /** Opens the menu with the keyboard on entry `at` (-1: the last). */
  open(at: number): void {
    this.fill();
    this.menu.hidden = false;
    this.more.setAttribute('aria-expanded', 'true');
    this.focusEntry(at);
  }

  /** Closes the menu; `refocus`: the keyboard back on More. */
  close(refocus: boolean): void {
    this.menu.hidden = true;
    this.more.setAttribute('aria-expanded', 'false');
    if (refocus) this.more.focus();
  }

  private onMenuKey(event: KeyboardEvent): void {
    const items = this.items();
    const at = items.indexOf(document.activeElement as HTMLElement);
    const moves: Record<string, number> = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: items.length - 1 };
    if (event.key in moves) {
      event.preventDefault();
      this.focusEntry(moves[event.key]!);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation(); // the editor's Escape (close the item panel) is not meant
      this.close(true);
    } else if (event.key === 'Tab') {
      this.close(false);
    } else if ((event.key === 'Enter' || event.key === ' ') && at >= 0) {
      event.preventDefault();
      this.choose(items[at]!);
    }
  }

  /** An entry chosen: the menu closes, the keyboard goes back to More, and its button is clicked. */
  private choose(entry: HTMLElement): void {
    if (entry.getAttribute('aria-disabled') === 'true') return;
    const button = this.entries()[Number(entry.dataset.index)];
    this.close(true);
    button?.click();
  }
}
