// The item list beside the map as the editor keeps it: the same markup as the server-rendered
// list (web/pages/mapPage.tsx: groups as open <details> with their counts, items with their eye
// toggle, kind and title), drawn again from the editor's items and groups after each change. While
// editing, groups get their tools: "New group", a group's own form (title, which group it is in,
// move up or down, delete with its content moved out or deleted too), and dragging — a group or an
// item dropped on a group's title goes into that group; a group dropped on the upper edge of
// another's title goes before it; anything dropped on the list's heading leaves its group.
import { swatchOf, swatchShapes, type ItemSwatch, type SwatchKind } from '../../lib/itemSwatch.js';
import { isTextLabel } from '../../lib/textLabels.js';
import { element } from './element.js';
import { oneStopPerItem } from './listKeyboard.js';
import { groupOf, groupOutline, withinGroup, type GroupId, type MapGroup } from './groups.js';
import type { MapFeature } from './mapFeature.js';

/** Items listed; a larger map lists its first ones and says how many more it has (as the server does). */
const LISTED_ITEMS = 2_000;

export interface GroupActions {
  newGroup(): void;
  renameGroup(id: GroupId, title: string): void;
  /** Into `parent` (undefined: the top), before the group `before` (undefined: last). */
  moveGroup(id: GroupId, parent: GroupId | undefined, before?: GroupId): void;
  /** The group goes; what it holds moves to its parent (`move`) or is deleted with it (`delete`). */
  deleteGroup(id: GroupId, content: 'move' | 'delete'): void;
  /** The item into the group (undefined: no group). */
  moveItem(id: number, group: GroupId | undefined): void;
}

const KINDS: Record<string, [string, string]> = {
  Point: ['point', 'Point'],
  MultiPoint: ['point', 'Point'],
  LineString: ['line', 'Line'],
  MultiLineString: ['line', 'Line'],
  Polygon: ['area', 'Area'],
  MultiPolygon: ['area', 'Area'],
};

export const kindOf = (feature: MapFeature): [string, string] => (isTextLabel(feature) ? ['text', 'Text label'] : (KINDS[feature.geometry?.type ?? ''] ?? ['item', 'Item']));

const SVG = 'http://www.w3.org/2000/svg';

/** An item's kind in its colour, with its icon (lib/itemSwatch.ts): as the page's list draws it on the server. */
function swatchElement(swatch: ItemSwatch, label: string): SVGSVGElement {
  const svg = document.createElementNS(SVG, 'svg');
  for (const [name, value] of Object.entries({ class: `kind kind-${swatch.kind}`, viewBox: '0 0 14 14', width: '14', height: '14', role: 'img', 'aria-label': label })) svg.setAttribute(name, value);
  const { shape, image } = swatchShapes(swatch);
  const drawn = document.createElementNS(SVG, shape.tag);
  for (const [name, value] of Object.entries(shape.attributes)) drawn.setAttribute(name, value);
  if (shape.tag === 'text') drawn.textContent = 'T';
  svg.append(drawn);
  if (image) {
    const picture = document.createElementNS(SVG, 'image');
    for (const [name, value] of Object.entries(image)) picture.setAttribute(name, value);
    svg.append(picture);
  }
  return svg;
}

export function itemTitle(feature: MapFeature): string {
  const title = feature.properties?.title;
  return (typeof title === 'string' && title.trim()) || `Untitled ${kindOf(feature)[0]}`;
}

const isHidden = (feature: MapFeature) => feature.properties?.visible === false || feature.properties?.visible === 0;

/** The eye icon of the server's list (an SVG: no emoji font needed). */
function eyeIcon(): SVGSVGElement {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('width', '18');
  svg.setAttribute('height', '18');
  svg.setAttribute('aria-hidden', 'true');
  const eye = document.createElementNS(ns, 'path');
  eye.setAttribute('d', 'M12 5C6.5 5 2.7 9.1 1.5 12c1.2 2.9 5 7 10.5 7s9.3-4.1 10.5-7C21.3 9.1 17.5 5 12 5zm0 11.5a4.5 4.5 0 1 1 0-9 4.5 4.5 0 0 1 0 9zm0-2.3a2.2 2.2 0 1 0 0-4.4 2.2 2.2 0 0 0 0 4.4z');
  eye.setAttribute('fill', 'currentColor');
  const strike = document.createElementNS(ns, 'path');
  strike.setAttribute('class', 'strike');
  strike.setAttribute('d', 'M3 3l18 18');
  strike.setAttribute('stroke', 'currentColor');
  strike.setAttribute('stroke-width', '2');
  svg.append(eye, strike);
  return svg;
}

function eyeButton(kind: 'item' | 'group', label: string): HTMLButtonElement {
  const button = element('button', { type: 'button', class: 'eye', 'data-toggle': kind, 'aria-pressed': 'true', 'aria-label': label });
  button.append(eyeIcon());
  return button;
}

/** A selector for the control (an item's title or eye, a group's summary, eye or Edit) that `control` is, in the list drawn again. */
function entryControl(control: Element): string | undefined {
  const entry = control.closest<HTMLElement>('[data-item-id], [data-group-id]');
  if (!entry) return undefined;
  const which = entry.dataset.itemId !== undefined ? `[data-item-id="${CSS.escape(entry.dataset.itemId)}"]` : `[data-group-id="${CSS.escape(entry.dataset.groupId!)}"]`;
  const part = control.matches('[data-toggle]') ? '[data-toggle]' : control.matches('[data-open-item]') ? '[data-open-item]' : control.matches('.group-edit') ? '.group-edit' : control.matches('summary') ? 'summary' : undefined;
  return part && `${which} > ${part}, ${which} > details > ${part}`;
}

type Dragged = { kind: 'item'; id: number } | { kind: 'group'; id: GroupId };

export class ItemList {
  private groups: readonly MapGroup[] = [];
  private features: ReadonlyMap<number, MapFeature> = new Map();
  private editing = false;
  /** The group whose form is open, and whether it asks how to delete. */
  private form: { id: string; deleting: boolean } | undefined;
  private readonly closed = new Set<string>();
  private dragged: Dragged | undefined;
  private scheduled = false;
  private readonly list: HTMLElement;
  private readonly newButton: HTMLButtonElement;
  /** The list's heading takes drops for the top level (nothing moves on the page when a drag starts). */
  private readonly heading: HTMLElement | undefined;

  /** `list` is the page's `.item-list`; `rendered` is told after each drawing (eye states, filter). */
  constructor(
    list: HTMLElement,
    private readonly actions: GroupActions,
    private readonly rendered: () => void,
  ) {
    this.list = list;
    this.newButton = element('button', { type: 'button', class: 'secondary new-group' }, 'New group');
    this.newButton.addEventListener('click', () => actions.newGroup());
    this.heading = list.closest('aside')?.querySelector<HTMLElement>('[data-items-count]')?.closest('h2') ?? undefined;
    if (this.heading) this.dropTarget(this.heading, () => 'top');
    list.before(this.newButton);
    list.addEventListener('dragstart', (event) => this.dragStart(event));
    list.addEventListener('dragend', () => this.dragEnd());
    this.newButton.hidden = true;
  }

  /** Draws the list again soon (once for any number of changes in the same frame). */
  show(groups: readonly MapGroup[], features: ReadonlyMap<number, MapFeature>): void {
    this.groups = groups;
    this.features = features;
    if (this.scheduled) return;
    this.scheduled = true;
    requestAnimationFrame(() => {
      this.scheduled = false;
      this.render();
    });
  }

  setEditing(on: boolean): void {
    this.editing = on;
    this.newButton.hidden = !on;
    if (!on) this.form = undefined;
    this.render();
  }

  /** Opens a group's form with its title chosen (a new group is named at once). */
  openGroup(id: GroupId): void {
    this.form = { id: String(id), deleting: false };
    this.render();
    const input = this.list.querySelector<HTMLInputElement>('.group-form input[name="title"]');
    input?.focus();
    input?.select();
  }

  private render(): void {
    const { groups } = this;
    if (this.form && !groupOf(groups, this.form.id)) this.form = undefined;
    // Items by group (unknown groups count as none), counts up the tree, the first items listed.
    const byGroup = new Map<string, MapFeature[]>();
    const counts = new Map<string, number>();
    const known = new Set(groups.map((group) => String(group.id)));
    let total = 0;
    let listed = 0;
    for (const feature of this.features.values()) {
      total++;
      const raw = feature.properties?.group;
      const key = raw !== undefined && raw !== null && known.has(String(raw)) ? String(raw) : '';
      counts.set(key, (counts.get(key) ?? 0) + 1);
      if (listed >= LISTED_ITEMS) continue;
      listed++;
      const bucket = byGroup.get(key);
      if (bucket) bucket.push(feature);
      else byGroup.set(key, [feature]);
    }
    const children = new Map<string, MapGroup[]>();
    for (const { group } of groupOutline(groups)) {
      const parent = group.parent !== undefined && known.has(String(group.parent)) ? String(group.parent) : '';
      const siblings = children.get(parent);
      if (siblings) siblings.push(group);
      else children.set(parent, [group]);
    }
    const countOf = (key: string): number => (counts.get(key) ?? 0) + (children.get(key) ?? []).reduce((sum, group) => sum + countOf(String(group.id)), 0);

    const entries = (key: string, depth: number): HTMLElement[] => [
      ...(depth > 100 ? [] : (children.get(key) ?? []).map((group) => this.groupEntry(group, countOf(String(group.id)), entries(String(group.id), depth + 1), children.get(key)!))),
      ...(byGroup.get(key) ?? []).map((feature) => this.itemEntry(feature)),
    ];
    // Drawn again: each group stays folded or open as it is now (a fold's toggle event may not have come yet).
    for (const details of this.list.querySelectorAll<HTMLDetailsElement>('li.group > details')) {
      const id = (details.parentElement as HTMLElement).dataset.groupId;
      if (id === undefined || this.form?.id === id) continue;
      if (details.open) this.closed.delete(id);
      else this.closed.add(id);
    }
    // Drawn again: the keyboard stays on the same entry's same control.
    const focused = this.list.contains(document.activeElement) ? entryControl(document.activeElement!) : undefined;
    this.list.replaceChildren(...entries('', 0));
    oneStopPerItem(this.list);
    if (focused) this.list.querySelector<HTMLElement>(focused)?.focus();
    const page = this.list.closest('aside') ?? document;
    const count = page.querySelector<HTMLElement>('[data-items-count]');
    if (count) count.textContent = `(${total})`;
    const empty = page.querySelector<HTMLElement>('[data-items-empty]');
    if (empty) empty.hidden = total !== 0;
    const more = page.querySelector<HTMLElement>('[data-items-more]');
    if (more) {
      more.hidden = total <= listed;
      more.textContent = `…and ${(total - listed).toLocaleString('en')} more items.`;
    }
    this.rendered();
  }

  private itemEntry(feature: MapFeature): HTMLElement {
    const [kind, kindLabel] = kindOf(feature);
    const title = itemTitle(feature);
    const hidden = isHidden(feature);
    const entry = element('li', { class: hidden ? 'item hidden' : 'item', 'data-item-id': String(feature.id), 'data-title': title });
    if (this.editing) entry.draggable = true;
    entry.append(
      eyeButton('item', `Show or hide ${title}`),
      swatchElement(swatchOf(kind as SwatchKind, feature.properties), kindLabel),
      element('button', { type: 'button', class: 'link item-title', 'data-open-item': '' }, title),
    );
    if (hidden) entry.append(element('span', { class: 'badge' }, 'hidden'));
    return entry;
  }

  private groupEntry(group: MapGroup, count: number, inside: HTMLElement[], siblings: readonly MapGroup[]): HTMLElement {
    const id = String(group.id);
    const entry = element('li', { class: 'group', 'data-group-id': id });
    if (this.editing) entry.draggable = true;
    const details = element('details');
    details.open = !this.closed.has(id);
    details.addEventListener('toggle', () => (details.open ? this.closed.delete(id) : this.closed.add(id)));
    const summary = element('summary', {}, `${group.title} `);
    summary.append(element('span', { class: 'count' }, `(${count})`));
    this.dropTarget(summary, (event) => {
      // The upper edge of a group's title: before it (groups only); the rest: into it.
      const box = summary.getBoundingClientRect();
      return this.dragged?.kind === 'group' && event.clientY < box.top + box.height * 0.3 ? { before: group } : { into: group };
    });
    const list = element('ul');
    list.append(...inside);
    details.append(summary);
    if (this.form?.id === id) {
      details.open = true;
      details.append(this.groupForm(group, count, siblings));
    }
    details.append(list);
    entry.append(eyeButton('group', `Show or hide the group ${group.title}`), details);
    if (this.editing) {
      const edit = element('button', { type: 'button', class: 'link group-edit', 'aria-expanded': String(this.form?.id === id), 'aria-label': `Edit the group ${group.title}` }, 'Edit');
      // Opened: the keyboard in its title field; closed: it stays on Edit (the list keeps the focused control).
      edit.addEventListener('click', () => {
        if (this.form?.id === id) {
          this.form = undefined;
          this.render();
        } else this.openGroup(group.id);
      });
      entry.append(edit);
    }
    return entry;
  }

  /** A group's form: title, which group it is in, move up or down, delete. */
  private groupForm(group: MapGroup, count: number, siblings: readonly MapGroup[]): HTMLElement {
    const { actions, groups } = this;
    const id = String(group.id);
    const form = element('div', { class: 'group-form', role: 'group', 'aria-label': `The group ${group.title}` });
    const field = element('p', { class: 'field' });
    const title = element('input', { type: 'text', name: 'title', id: `group-title-${id}`, maxlength: '500', required: '' });
    title.value = group.title;
    const rename = () => {
      const text = title.value.trim();
      if (text && text !== group.title) actions.renameGroup(group.id, text);
      else title.value = group.title; // a group keeps a title
    };
    title.addEventListener('change', rename);
    title.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') {
        event.preventDefault();
        rename();
      }
    });
    field.append(element('label', { for: title.id }, 'Group title'), title);

    const parentField = element('p', { class: 'field' });
    const parent = element('select', { id: `group-parent-${id}` });
    const inside = withinGroup(groups, group.id);
    parent.append(element('option', { value: '' }, 'Top level'));
    for (const { group: other, depth } of groupOutline(groups)) {
      if (inside.has(String(other.id))) continue;
      const option = element('option', { value: String(other.id) }, `${'\u00a0\u00a0'.repeat(depth)}${other.title}`);
      option.selected = group.parent !== undefined && String(group.parent) === String(other.id);
      parent.append(option);
    }
    parent.addEventListener('change', () => actions.moveGroup(group.id, groupOf(groups, parent.value)?.id));
    parentField.append(element('label', { for: parent.id }, 'Inside'), parent);

    const at = siblings.indexOf(group);
    const home = group.parent !== undefined && groupOf(groups, group.parent) ? group.parent : undefined;
    const order = element('p', { class: 'actions' });
    const up = element('button', { type: 'button', class: 'secondary' }, 'Move up');
    const down = element('button', { type: 'button', class: 'secondary' }, 'Move down');
    up.disabled = at <= 0;
    down.disabled = at < 0 || at >= siblings.length - 1;
    up.addEventListener('click', () => actions.moveGroup(group.id, home, siblings[at - 1]?.id));
    down.addEventListener('click', () => actions.moveGroup(group.id, home, siblings[at + 2]?.id));
    order.append(up, down);

    const end = element('p', { class: 'actions' });
    const remove = element('button', { type: 'button', class: 'danger' }, 'Delete group');
    const done = element('button', { type: 'button', class: 'secondary' }, 'Done');
    const subgroups = inside.size - 1;
    remove.addEventListener('click', () => {
      if (count === 0 && subgroups === 0) return actions.deleteGroup(group.id, 'move');
      this.form = { id, deleting: true };
      this.render();
    });
    done.addEventListener('click', () => {
      this.form = undefined;
      this.render();
      // The keyboard back on the group's Edit, which opened the form (Done is gone).
      this.list.querySelector<HTMLElement>(`[data-group-id="${CSS.escape(id)}"] > .group-edit`)?.focus();
    });
    end.append(remove, done);
    form.append(field, parentField, order, end);

    if (this.form?.deleting) {
      const holds = [count > 0 ? `${count} ${count === 1 ? 'item' : 'items'}` : '', subgroups > 0 ? `${subgroups} ${subgroups === 1 ? 'group' : 'groups'}` : ''].filter(Boolean).join(' and ');
      const ask = element('div', { class: 'confirm', role: 'alertdialog', 'aria-label': `Delete the group ${group.title}` });
      const parentGroup = groupOf(groups, home);
      ask.append(element('p', {}, `“${group.title}” holds ${holds}. What becomes of ${count + subgroups === 1 ? 'it' : 'them'}?`));
      const move = element('button', { type: 'button' }, parentGroup ? `Move to “${parentGroup.title}”` : 'Keep, in no group');
      const wipe = element('button', { type: 'button', class: 'danger' }, 'Delete them too');
      const cancel = element('button', { type: 'button', class: 'secondary' }, 'Cancel');
      move.addEventListener('click', () => actions.deleteGroup(group.id, 'move'));
      wipe.addEventListener('click', () => actions.deleteGroup(group.id, 'delete'));
      cancel.addEventListener('click', () => {
        this.form = { id, deleting: false };
        this.render();
      });
      const buttons = element('p', { class: 'actions' });
      buttons.append(move, wipe, cancel);
      ask.append(buttons);
      form.append(ask);
    }
    return form;
  }

  // ---- dragging (editing only: entries are draggable then)
  private dragStart(event: DragEvent): void {
    const entry = (event.target as HTMLElement).closest<HTMLElement>('li[draggable="true"]');
    if (!entry || !event.dataTransfer) return;
    const item = entry.dataset.itemId;
    const group = entry.dataset.groupId;
    const found = group !== undefined ? groupOf(this.groups, group) : undefined;
    this.dragged = item !== undefined ? { kind: 'item', id: Number(item) } : found ? { kind: 'group', id: found.id } : undefined;
    if (!this.dragged) return;
    event.dataTransfer.effectAllowed = 'move';
    event.dataTransfer.setData('text/plain', entry.dataset.title ?? group ?? '');
    this.heading?.classList.add('drop-top');
  }

  private dragEnd(): void {
    this.dragged = undefined;
    this.heading?.classList.remove('drop-top');
    for (const node of document.querySelectorAll('.drop-into, .drop-before')) node.classList.remove('drop-into', 'drop-before');
  }

  /** Makes `target` take drops: `where` tells, from the pointer, what the drop would do. */
  private dropTarget(target: HTMLElement, where: (event: DragEvent) => 'top' | { into: MapGroup } | { before: MapGroup }): void {
    const allowed = (event: DragEvent) => {
      const dragged = this.dragged;
      if (!dragged) return undefined;
      const place = where(event);
      if (dragged.kind === 'group' && place !== 'top') {
        const other = 'into' in place ? place.into : place.before;
        // Not into itself or its own subgroups.
        if (withinGroup(this.groups, dragged.id).has(String(other.id))) return undefined;
      }
      return place;
    };
    target.addEventListener('dragover', (event) => {
      const place = allowed(event);
      target.classList.remove('drop-into', 'drop-before');
      if (!place) return;
      event.preventDefault();
      if (event.dataTransfer) event.dataTransfer.dropEffect = 'move';
      target.classList.add(place !== 'top' && 'before' in place ? 'drop-before' : 'drop-into');
    });
    target.addEventListener('dragleave', () => target.classList.remove('drop-into', 'drop-before'));
    target.addEventListener('drop', (event) => {
      const place = allowed(event);
      const dragged = this.dragged;
      this.dragEnd();
      if (!place || !dragged) return;
      event.preventDefault();
      if (dragged.kind === 'item') this.actions.moveItem(dragged.id, place === 'top' ? undefined : 'into' in place ? place.into.id : place.before.parent);
      else if (place === 'top') this.actions.moveGroup(dragged.id, undefined);
      else if ('into' in place) this.actions.moveGroup(dragged.id, place.into.id);
      else this.actions.moveGroup(dragged.id, place.before.parent !== undefined && groupOf(this.groups, place.before.parent) ? place.before.parent : undefined, place.before.id);
    });
  }
}
