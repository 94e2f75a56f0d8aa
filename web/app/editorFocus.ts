// Where the keyboard goes after the editor's actions (issue 26): never to the page's <body>. An
// item opened from the list sends it to the item panel's first field and, when the panel closes,
// back to the item's entry in the list (else to the map); a toolbar button that goes or is
// disabled by what it did (Undo with nothing left, Save once saved) hands it to its neighbour.

/** Whether the item now being opened was opened from the item list (the keyboard is on its entry); remembered for `returnFocus`. */
let fromList = false;

export function openedFromList(): boolean {
  fromList = !!document.activeElement?.closest('.item-list [data-item-id]');
  return fromList;
}

const usable = (element: HTMLElement) => !(element as HTMLButtonElement).disabled && !element.hidden && element.getClientRects().length > 0;
const lost = (element: Element | null) => !element || element === document.body || !(element instanceof HTMLElement) || !element.isConnected || !usable(element);

/** The item panel closed: the keyboard back on item `id`'s list entry (if it was opened from there and still is), else on `fallback` if it was lost. */
export function returnFocus(id: number | undefined, fallback: HTMLElement): void {
  const entry = fromList && id !== undefined ? document.querySelector<HTMLElement>(`.item-list [data-item-id="${id}"] [data-open-item]`) : null;
  fromList = false;
  if (entry && usable(entry)) entry.focus();
  else if (lost(document.activeElement) || document.activeElement?.closest('[hidden]')) fallback.focus();
}

/**
 * Runs `change` (which may disable or hide buttons of `container`); if the focused button of the
 * container went, the keyboard goes to `instead(button)` when given, else to the nearest usable
 * button after it, else before it.
 */
export function keepFocus(container: HTMLElement, change: () => void, instead?: (gone: HTMLElement) => HTMLElement | undefined): void {
  const before = document.activeElement;
  change();
  if (!(before instanceof HTMLElement) || !container.contains(before) || (usable(before) && document.activeElement === before)) return;
  const preferred = instead?.(before);
  if (preferred) return preferred.focus();
  const buttons = [...container.querySelectorAll<HTMLElement>('button')];
  const at = buttons.indexOf(before);
  const next = buttons.slice(at + 1).find(usable) ?? buttons.slice(0, Math.max(at, 0)).reverse().find(usable);
  next?.focus();
}

/**
 * A safety net under the rest: a click or a key in `hosts` (the toolbar, the side panel) whose
 * control went with what it did (Delete all, a form's Done, a group deleted) leaves the keyboard on
 * `fallback()` (the map), never on <body>. Checked on the next frame, after the list is drawn again.
 */
export function neverLost(hosts: HTMLElement[], fallback: () => HTMLElement): void {
  for (const host of hosts) {
    for (const type of ['click', 'keydown'] as const) {
      host.addEventListener(
        type,
        () => {
          const before = document.activeElement;
          if (!before || before === document.body) return;
          requestAnimationFrame(() => {
            if (lost(document.activeElement) || document.activeElement?.closest('[hidden]')) fallback().focus();
          });
        },
        true,
      );
    }
  }
}
