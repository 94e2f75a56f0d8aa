// The map page's interactive part: the map (through the adapter) over the built-in basemap, the
// item list's eye toggles and filter, popups. The page works without it (its static image and
// list are server-rendered); this replaces the image by the map once the data is in.
import { MAP_CONFIG_ID, MAP_HOLDER_SELECTOR, type MapPageConfig } from '../../lib/mapPageConfig.js';
import { createMapView, type MapFeature } from './mapAdapter.js';
import { startCopyButtons } from './copyButtons.js';
import { startDescriptionToggle } from './descriptionToggle.js';
import { startEditor } from './editor.js';
import type { MapGroup } from './groups.js';
import { startListKeyboard } from './listKeyboard.js';
import { PlaceSearch } from './placeSearch.js';
import { popupContent } from './popup.js';

/**
 * The page's configuration: the one JSON script in the head (lib/mapPageConfig.ts), never an
 * attribute in the body, where a description or a popup could put one of its own.
 */
function pageConfig(): MapPageConfig | undefined {
  const script = document.head.querySelector<HTMLScriptElement>(`script#${MAP_CONFIG_ID}[type="application/json"]`);
  return script?.textContent ? (JSON.parse(script.textContent) as MapPageConfig) : undefined;
}

async function start(): Promise<void> {
  const config = pageConfig();
  const holder = document.querySelector<HTMLElement>(MAP_HOLDER_SELECTOR);
  if (!config || !holder) return;
  // An embed shows its picture until Play is pressed: nothing more is loaded before.
  const play = holder.querySelector<HTMLButtonElement>(':scope > button.play');
  if (play) await new Promise((resolve) => play.addEventListener('click', resolve, { once: true }));
  const [response] = await Promise.all([fetch(config.geojson, { credentials: 'same-origin' }), document.fonts.load('12px "Noto Sans"').catch(() => undefined)]);
  if (!response.ok) return;
  const document_ = (await response.json()) as { features: MapFeature[]; groups?: MapGroup[] };
  const container = document.createElement('div');
  container.className = 'map-canvas';
  container.setAttribute('role', 'region');
  container.setAttribute('aria-label', 'Interactive map');
  holder.replaceChildren(container);
  const view = await createMapView(container, config.style, document_.features);
  const hidden = new Set(document_.features.filter((f) => f.properties?.visible === false || f.properties?.visible === 0).map((f) => f.id));
  view.setHidden(hidden);
  // Eye toggles: an item's button hides or shows it; a group's, everything inside it.
  const idsOf = (button: HTMLElement): number[] => {
    const item = button.closest<HTMLElement>('[data-item-id]');
    if (item && button.dataset.toggle === 'item') return [Number(item.dataset.itemId)];
    return [...(button.closest('li')?.querySelectorAll<HTMLElement>('[data-item-id]') ?? [])].map((node) => Number(node.dataset.itemId));
  };
  const refresh = () => {
    for (const button of document.querySelectorAll<HTMLElement>('[data-toggle]')) {
      const ids = idsOf(button);
      const visible = ids.some((id) => !hidden.has(id));
      button.setAttribute('aria-pressed', String(visible));
    }
    view.setHidden(hidden);
  };
  document.addEventListener('click', (event) => {
    const target = event.target as HTMLElement;
    const toggle = target.closest<HTMLElement>('[data-toggle]');
    if (toggle) {
      const ids = idsOf(toggle);
      const show = ids.every((id) => hidden.has(id));
      for (const id of ids) {
        if (show) hidden.delete(id);
        else hidden.add(id);
      }
      return refresh();
    }
    const open = target.closest<HTMLElement>('[data-open-item]');
    if (open) {
      const id = Number(open.closest<HTMLElement>('[data-item-id]')!.dataset.itemId);
      hidden.delete(id);
      refresh();
      view.focus(id);
    }
  });
  for (const button of document.querySelectorAll<HTMLButtonElement>('[data-toggle]')) button.hidden = false;
  const itemList = document.querySelector<HTMLElement>('.item-list');
  if (itemList) startListKeyboard(itemList);
  refresh();
  // Drawn with all its features: the figure says so (`data-map-drawn`) and a User Timing mark
  // `map-drawn` keeps when, from the navigation's start (benchmarks and tests wait for these).
  void view.drawn().then(() => {
    performance.mark('map-drawn');
    holder.dataset.mapDrawn = '';
  });

  // The filter: list entries whose title does not contain the text are hidden (the map keeps them).
  const filter = document.querySelector<HTMLInputElement>('#item-filter');
  function applyFilter(): void {
    const wanted = filter?.value.trim().toLowerCase() ?? '';
    for (const item of document.querySelectorAll<HTMLElement>('[data-item-id]')) {
      item.hidden = wanted !== '' && !(item.dataset.title ?? '').toLowerCase().includes(wanted);
    }
  }
  if (filter) {
    filter.hidden = false;
    filter.closest('p')!.hidden = false;
    filter.addEventListener('input', applyFilter);
  }
  // Over the map's top left: Find a place (not in an embed), and the editor's toolbar below it.
  const mapBar = document.createElement('div');
  mapBar.className = 'map-bar';
  const places = play ? undefined : new PlaceSearch(view);
  if (places) mapBar.append(places.root);
  holder.prepend(mapBar);
  /** The map opened framed on its items; those `element` covers are framed below it, until the map is moved. */
  const keepClearOf = (element: HTMLElement) =>
    new ResizeObserver(() => view.keepClearOfTop(element.getBoundingClientRect().bottom - container.getBoundingClientRect().top)).observe(element);
  if (config.edit) {
    // The owner or an editor: the editor's toolbar over the map, the item panel in the side panel.
    const editor = startEditor({
      view,
      features: document_.features,
      groups: document_.groups ?? [],
      revision: Number(response.headers.get('x-map-revision') ?? 0),
      ...config.edit,
      toolbarHost: mapBar,
      places,
      panelHost: document.querySelector<HTMLElement>('.side-panel') ?? document.body,
      listChanged: () => {
        for (const button of document.querySelectorAll<HTMLButtonElement>('[data-toggle]')) button.hidden = false;
        refresh();
        applyFilter();
      },
    });
    // Below the toolbar (at once, or once Edit map shows the tools), under Find a place. The
    // toolbar alone: the status line under it comes and goes, and must not move the map.
    keepClearOf(mapBar.querySelector<HTMLElement>('[role="toolbar"]')!);
    view.onSelect((feature, at) => (editor.active() ? editor.select(feature.id) : view.showPopup(at, popupContent(feature))));
  } else {
    if (places) keepClearOf(places.root);
    view.onSelect((feature, at) => view.showPopup(at, popupContent(feature)));
  }
}

startCopyButtons();
startDescriptionToggle();
void start();
