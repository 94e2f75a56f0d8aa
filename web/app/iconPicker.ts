// The point's built-in icon (issue 26): a button showing the chosen icon opens a picker under it —
// a search field (an icon's name or a word people use: "coffee" finds cafe, lib/iconSearch.ts)
// and a grid of the icons themselves, each a button named by its icon, the recently used first
// (remembered in this browser). Arrows move in the grid (Up from its first row and Down from the
// field cross between them), Enter or Space chooses, Escape closes; the keyboard goes back to the
// button and the choice is announced.
import { searchIcons, usedIcon } from '../../lib/iconSearch.js';
import { announce } from './announcer.js';
import { element } from './element.js';

const RECENT_KEY = 'recent-icons';
const INK = '1d232a'; // the icons drawn dark on the panel's light background

let names: Promise<string[]> | undefined;
/** The built-in icons' names (fetched once). */
const iconNames = () =>
  (names ??= fetch('/assets/maki-names.json')
    .then((response) => (response.ok ? (response.json() as Promise<string[]>) : []))
    .catch(() => {
      names = undefined;
      return [];
    }));

function recentIcons(): string[] {
  try {
    const list: unknown = JSON.parse(localStorage.getItem(RECENT_KEY) ?? '[]');
    return Array.isArray(list) ? list.filter((name): name is string => typeof name === 'string') : [];
  } catch {
    return [];
  }
}

function remember(name: string): void {
  try {
    localStorage.setItem(RECENT_KEY, JSON.stringify(usedIcon(recentIcons(), name)));
  } catch {
    // storage refused (private mode): nothing remembered
  }
}

const iconImage = (name: string) => element('img', { src: `/assets/maki/${name}-${INK}.svg`, alt: '', width: '20', height: '20', loading: 'lazy' });

/** Shows `symbol` on the icon button in `root` (a custom icon chosen empties it). */
export function showIconChoice(root: ParentNode, symbol: string | undefined): void {
  const trigger = root.querySelector<HTMLButtonElement>('#item-icon');
  if (!trigger) return;
  const name = symbol?.toLowerCase().replace(/-(11|15)$/, '') || undefined;
  trigger.replaceChildren(...(name ? [iconImage(name), element('span', {}, name)] : [element('span', {}, 'None')]));
  trigger.setAttribute('aria-label', `Icon: ${name ?? 'none'}. Choose an icon`);
}

/** The icon field of a point's panel: `choose` gets the chosen icon's name (undefined: no icon). */
export function iconField(symbol: string | undefined, choose: (name: string | undefined) => void): HTMLElement {
  const field = element('div', { class: 'field icon-field' });
  const label = element('span', { class: 'label', id: 'item-icon-label' }, 'Icon');
  const trigger = element('button', { type: 'button', id: 'item-icon', class: 'icon-trigger secondary', 'aria-haspopup': 'dialog', 'aria-expanded': 'false', 'aria-controls': 'icon-picker' });
  const picker = element('div', { class: 'icon-picker', id: 'icon-picker', role: 'dialog', 'aria-label': 'Choose an icon' });
  picker.hidden = true;
  const search = element('input', { id: 'icon-search', type: 'search', autocomplete: 'off', 'aria-controls': 'icon-grid', 'aria-describedby': 'icon-count' });
  const searchField = element('p', { class: 'field' });
  searchField.append(element('label', { for: 'icon-search' }, 'Search icons (a name or a word: coffee, toilet, hotel…)'), search);
  const count = element('p', { id: 'icon-count', class: 'icon-count', role: 'status' });
  const grid = element('div', { id: 'icon-grid', class: 'icon-grid', role: 'group', 'aria-label': 'Icons' });
  const none = element('button', { type: 'button', class: 'link' }, 'No icon');
  picker.append(searchField, count, grid, none);
  field.append(label, trigger, picker);
  showIconChoice(field, symbol);

  let all: string[] = [];
  // The names, asked for as soon as the field is shown (cached for the page): usually there
  // before the picker opens. Whatever is typed or pressed before they arrive waits for them.
  let loaded: Promise<void> = iconNames().then((names) => {
    all = names;
  });
  const buttons = () => [...grid.querySelectorAll<HTMLButtonElement>('button')];
  const list = () => {
    const found = searchIcons(all, search.value, recentIcons());
    const recent = new Set(search.value.trim() ? [] : recentIcons());
    grid.replaceChildren(
      ...found.map((name, at) => {
        const button = element('button', { type: 'button', class: recent.has(name) ? 'icon-choice recent' : 'icon-choice', 'data-icon': name, tabindex: at === 0 ? '0' : '-1' });
        button.append(iconImage(name), element('span', {}, name));
        return button;
      }),
    );
    count.textContent = found.length === 0 ? 'No icon matches.' : `${found.length} icon${found.length === 1 ? '' : 's'}${recent.size ? ', the recently used first' : ''}.`;
  };
  const close = () => {
    picker.hidden = true;
    trigger.setAttribute('aria-expanded', 'false');
    trigger.focus();
  };
  const pick = (name: string | undefined) => {
    if (name) remember(name);
    close();
    showIconChoice(field, name);
    choose(name);
    announce(name ? `Icon ${name} chosen.` : 'No icon.');
  };
  const open = async () => {
    picker.hidden = false;
    trigger.setAttribute('aria-expanded', 'true');
    search.value = '';
    search.focus();
    loaded = iconNames().then((names) => {
      all = names;
    });
    await loaded;
    list();
  };
  trigger.addEventListener('click', () => (picker.hidden ? void open() : close()));
  search.addEventListener('input', list);
  none.addEventListener('click', () => pick(undefined));
  grid.addEventListener('click', (event) => {
    const button = (event.target as Element).closest<HTMLButtonElement>('button[data-icon]');
    if (button) pick(button.dataset.icon);
  });
  const focusAt = (at: number) => {
    const all = buttons();
    const target = all[Math.max(0, Math.min(all.length - 1, at))];
    if (!target) return;
    for (const each of all) each.tabIndex = each === target ? 0 : -1;
    target.focus();
  };
  search.addEventListener('keydown', (event) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      focusAt(0);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      // Enter typed before the names arrived chooses once they are there (a slow line, a busy machine).
      void loaded.then(() => {
        list();
        const first = buttons()[0];
        if (first && !picker.hidden) pick(first.dataset.icon);
      });
    }
  });
  grid.addEventListener('keydown', (event) => {
    const all = buttons();
    const at = all.indexOf(document.activeElement as HTMLButtonElement);
    if (at < 0) return;
    const top = all[0]!.offsetTop;
    const columns = Math.max(1, all.findIndex((button) => button.offsetTop !== top) < 0 ? all.length : all.findIndex((button) => button.offsetTop !== top));
    const moves: Record<string, number> = { ArrowRight: at + 1, ArrowLeft: at - 1, ArrowDown: at + columns, ArrowUp: at - columns, Home: 0, End: all.length - 1 };
    const to = moves[event.key];
    if (to === undefined) return;
    event.preventDefault();
    if (event.key === 'ArrowUp' && to < 0) search.focus();
    else if (to >= 0 && to < all.length) focusAt(to);
  });
  picker.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation(); // the picker closes, not the item panel
      close();
    }
  });
  return field;
}
