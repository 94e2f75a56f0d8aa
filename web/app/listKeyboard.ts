// The item list with the keyboard (issue 26): one Tab stop per item (its title, which opens it),
// not two. An item's eye toggle is reached from its title with ←, and → goes back; ↑ and ↓ go to
// the previous and next item shown. A hint under the list's heading says so (each title's
// description too). Works on the server-rendered list and on the editor's (./itemList.ts).
const HINT_ID = 'item-list-keys';

/** Each item's eye toggle out of the Tab order, its title described by the hint; call after the list is drawn. */
export function oneStopPerItem(list: HTMLElement): void {
  for (const eye of list.querySelectorAll<HTMLElement>('[data-item-id] > [data-toggle="item"]')) eye.tabIndex = -1;
  for (const title of list.querySelectorAll<HTMLElement>('[data-item-id] > [data-open-item]')) title.setAttribute('aria-describedby', HINT_ID);
}

/** The list's arrow keys, and its hint (placed before the list). */
export function startListKeyboard(list: HTMLElement): void {
  if (!document.getElementById(HINT_ID)) {
    const hint = document.createElement('p');
    hint.id = HINT_ID;
    hint.className = 'hint list-keys';
    hint.textContent = 'Keyboard: Tab reaches each item; ← its show or hide toggle, ↑ and ↓ the item before or after.';
    list.before(hint);
  }
  oneStopPerItem(list);
  list.addEventListener('keydown', (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const target = event.target as HTMLElement;
    const entry = target.closest<HTMLElement>('[data-item-id]');
    if (!entry || target.parentElement !== entry) return;
    const title = entry.querySelector<HTMLElement>(':scope > [data-open-item]');
    const eye = entry.querySelector<HTMLElement>(':scope > [data-toggle="item"]');
    let next: HTMLElement | null | undefined;
    if (event.key === 'ArrowLeft' && target === title && eye && !eye.hidden) next = eye;
    else if (event.key === 'ArrowRight' && target === eye) next = title;
    else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      const titles = [...list.querySelectorAll<HTMLElement>('[data-item-id] > [data-open-item]')].filter((each) => each.getClientRects().length > 0);
      const at = titles.indexOf(title!);
      next = titles[at + (event.key === 'ArrowDown' ? 1 : -1)];
    }
    if (!next) return;
    event.preventDefault();
    next.focus();
  });
}
