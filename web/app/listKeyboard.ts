// The item list with the keyboard (issue 26): one Tab stop per row — an item's title, which opens
// it, or a group's title (its <summary>, which folds it) — not two or three. A row's other
// controls are reached from its title with the arrows: ← its eye toggle, → a group's Edit (while
// editing), and back; ↑ and ↓ go to the row before and after shown. A hint under the list's
// heading says so (each title's description too). Works on the server-rendered list and on the
// editor's (./itemList.ts).
const HINT_ID = 'item-list-keys';

/** Each row's title: an item's button, a group's summary. */
const TITLES = '[data-item-id] > [data-open-item], li.group > details > summary';

/** Each row's eye toggle and a group's Edit out of the Tab order, its title described by the hint; call after the list is drawn. */
export function oneStopPerItem(list: HTMLElement): void {
  for (const other of list.querySelectorAll<HTMLElement>('li > [data-toggle], li.group > .group-edit')) other.tabIndex = -1;
  for (const title of list.querySelectorAll<HTMLElement>(TITLES)) title.setAttribute('aria-describedby', HINT_ID);
}

/** The row `control` is a title, an eye toggle or a group's Edit of, with those three. */
function rowOf(control: HTMLElement): { title: HTMLElement; eye?: HTMLElement; edit?: HTMLElement } | undefined {
  const row = control.tagName === 'SUMMARY' ? control.parentElement?.parentElement : control.parentElement;
  if (!row || row.tagName !== 'LI') return undefined;
  const title = row.querySelector<HTMLElement>(':scope > [data-open-item], :scope > details > summary');
  if (!title || (control !== title && control.parentElement !== row)) return undefined;
  const shown = (node: HTMLElement | null) => (node && !node.hidden ? node : undefined);
  return { title, eye: shown(row.querySelector<HTMLElement>(':scope > [data-toggle]')), edit: shown(row.querySelector<HTMLElement>(':scope > .group-edit')) };
}

/** A row's title on screen: not filtered out, nor in a folded group (whose content Chromium keeps laid out, unseen). */
const shownTitle = (title: HTMLElement) => title.getClientRects().length > 0 && !title.closest('li')?.parentElement?.closest('details:not([open])');

/** The list's arrow keys, and its hint (placed before the list). */
export function startListKeyboard(list: HTMLElement): void {
  if (!document.getElementById(HINT_ID)) {
    const hint = document.createElement('p');
    hint.id = HINT_ID;
    hint.className = 'hint list-keys';
    hint.textContent = 'Keyboard: Tab reaches each item and group; ← its show or hide toggle, → a group’s Edit while editing, ↑ and ↓ the row before or after.';
    list.before(hint);
  }
  oneStopPerItem(list);
  list.addEventListener('keydown', (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const target = event.target as HTMLElement;
    const row = rowOf(target);
    if (!row) return;
    const { title, eye, edit } = row;
    let next: HTMLElement | undefined;
    if (event.key === 'ArrowLeft') next = target === title ? eye : target === edit ? title : undefined;
    else if (event.key === 'ArrowRight') next = target === eye ? title : target === title ? edit : undefined;
    else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      const titles = [...list.querySelectorAll<HTMLElement>(TITLES)].filter(shownTitle);
      next = titles[titles.indexOf(title) + (event.key === 'ArrowDown' ? 1 : -1)];
    }
    if (!next) return;
    event.preventDefault();
    next.focus();
  });
}
