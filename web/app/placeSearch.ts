// The Find a place box over the map (the map page and the editor): type a city or town name (any
// case, accents optional, a few letters), pick one of the suggestions (name, region, country),
// and the map flies there and marks it. In the editor, while editing, **Add** puts a point there
// titled with the place's name (the editor's `addPlace`, one undoable edit). The suggestions come
// from the site's GET /places/search (api/web/placeSearchRoute.ts; the answer type is lib's).
//
// An editable combobox with list autocomplete, as WAI-ARIA 1.2's pattern has it: the focus stays
// in the text field and the active suggestion is its aria-activedescendant; Down and Up move
// through the suggestions (and open them), Enter takes the active one (the first when none is),
// Escape closes them, then clears the field; how many were found is told in a status region.
import { GAZETTEER_CREDIT, PLACE_QUERY_MAX_LENGTH, type Place, type PlaceSearchAnswer } from '../../lib/places/placeSearch.js';
import { element } from './element.js';
import type { MapView } from './mapAdapter.js';

const SEARCH_URL = '/places/search';
const SUGGESTIONS = 8;
/** Typing pauses this long before a search is sent (each letter does not need its own). */
const TYPING_PAUSE_MS = 150;

/** How close the map comes: a city's whole, a town's streets. */
export function placeZoom(population: number): number {
  return population >= 1_000_000 ? 10 : population >= 100_000 ? 11 : population >= 10_000 ? 12 : 13;
}

/** "Lisbon, Portugal": the place's region and country, for its suggestion and what is told about it. */
export const whereIs = (place: Place): string => [place.region, place.country].filter((part) => part !== '').join(', ');

export class PlaceSearch {
  readonly root = element('div', { class: 'place-search', role: 'search', 'aria-label': 'Places' });
  private readonly input = element('input', {
    id: 'place-query',
    type: 'text',
    role: 'combobox',
    'aria-autocomplete': 'list',
    'aria-expanded': 'false',
    'aria-controls': 'place-suggestions',
    autocomplete: 'off',
    spellcheck: 'false',
    maxlength: String(PLACE_QUERY_MAX_LENGTH),
    placeholder: 'Find a place…',
  });
  private readonly addButton = element('button', { type: 'button', class: 'place-add', hidden: '' }, 'Add');
  private readonly popup = element('div', { class: 'place-popup', hidden: '' });
  private readonly listbox = element('ul', { id: 'place-suggestions', role: 'listbox', 'aria-label': 'Places found' });
  private readonly message = element('p', { class: 'place-message' });
  private readonly status = element('p', { class: 'visually-hidden', role: 'status' });
  private places: Place[] = [];
  /** The text the suggestions are for (undefined: none asked for yet). */
  private shownFor: string | undefined;
  private active = -1;
  private chosen: Place | undefined;
  private add: ((place: Place) => void) | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private request: { text: string; answered: Promise<void>; controller: AbortController } | undefined;

  constructor(private readonly view: Pick<MapView, 'showPlace'>) {
    const label = element('label', { for: 'place-query', class: 'visually-hidden' }, 'Find a place');
    const field = element('div', { class: 'place-field' });
    field.append(this.input, this.addButton);
    const credit = element('p', { class: 'place-credit' });
    const link = element('a', { href: GAZETTEER_CREDIT.url, target: '_blank', rel: 'noopener' }, GAZETTEER_CREDIT.name);
    credit.append('Places: ', link, ` (${GAZETTEER_CREDIT.licence})`);
    this.popup.append(this.listbox, this.message, credit);
    this.root.append(label, field, this.popup, this.status);

    this.input.addEventListener('input', () => this.typed());
    this.input.addEventListener('keydown', (event) => void this.key(event));
    this.input.addEventListener('blur', () => this.close());
    // A click in the suggestions keeps the focus in the field (and so the suggestions open).
    this.popup.addEventListener('mousedown', (event) => {
      if (!(event.target as HTMLElement).closest('a')) event.preventDefault();
    });
    this.listbox.addEventListener('click', (event) => {
      const option = (event.target as HTMLElement).closest<HTMLElement>('[role="option"]');
      if (option) void this.choose(this.places[Number(option.dataset.index)]!);
    });
    this.addButton.addEventListener('click', () => {
      if (this.chosen && this.add) this.add(this.chosen);
    });
  }

  /** The editor while editing: Add puts the chosen place on the map (undefined: no Add button). */
  setAdd(add: ((place: Place) => void) | undefined): void {
    this.add = add;
    this.refreshAdd();
  }

  private refreshAdd(): void {
    this.addButton.hidden = !this.add;
    this.addButton.disabled = !this.chosen;
    this.addButton.setAttribute('aria-label', this.chosen ? `Add ${this.chosen.name} to the map as a point` : 'Add the place found to the map as a point');
  }

  private text(): string {
    return this.input.value.trim();
  }

  private typed(): void {
    this.chosen = undefined;
    this.refreshAdd();
    clearTimeout(this.timer);
    if (this.text() === '') {
      this.request?.controller.abort();
      this.request = undefined;
      this.show([], undefined);
      return;
    }
    this.timer = setTimeout(() => void this.search(), TYPING_PAUSE_MS);
  }

  /** The suggestions for the field's text, asked for unless they are there or on their way. */
  private search(): Promise<void> {
    clearTimeout(this.timer);
    const text = this.text();
    if (text === this.shownFor) return Promise.resolve();
    if (this.request?.text === text) return this.request.answered;
    this.request?.controller.abort();
    const controller = new AbortController();
    const url = `${SEARCH_URL}?${new URLSearchParams({ query: text, limit: String(SUGGESTIONS) })}`;
    const answered = fetch(url, { credentials: 'same-origin', signal: controller.signal })
      .then(async (response) => {
        const answer = (await response.json()) as PlaceSearchAnswer & { error?: string };
        if (this.request?.controller !== controller) return;
        if (!response.ok) return this.show([], text, `The place search failed: ${answer.error ?? `error ${response.status}`}`);
        this.show(answer.places, text);
      })
      .catch(() => {
        if (this.request?.controller === controller) this.show([], text, 'The place search did not answer; try again.');
      })
      .finally(() => {
        if (this.request?.controller === controller) this.request = undefined;
      });
    this.request = { text, answered, controller };
    return answered;
  }

  /** Shows suggestions (and a message: none found, a failure) for `text`, the list open while the field has the focus. */
  private show(places: Place[], text: string | undefined, failure?: string): void {
    this.places = places;
    this.shownFor = text;
    this.active = -1;
    this.listbox.replaceChildren(
      ...places.map((place, index) => {
        const option = element('li', { role: 'option', id: `place-option-${index}`, 'aria-selected': 'false', 'data-index': String(index) });
        option.append(element('span', { class: 'place-name' }, place.name), element('span', { class: 'visually-hidden' }, ', '), element('span', { class: 'place-where' }, whereIs(place)));
        return option;
      }),
    );
    this.listbox.hidden = places.length === 0;
    const told = failure ?? (text === undefined ? '' : places.length === 0 ? `No city or town found for “${text}”.` : '');
    this.message.textContent = told;
    this.message.hidden = told === '';
    this.status.textContent = told || (places.length === 0 ? '' : `${places.length === 1 ? '1 place' : `${places.length} places`} found; the Down arrow goes through them, Enter chooses.`);
    if (text === undefined || document.activeElement !== this.input) this.close();
    else this.open();
  }

  private open(): void {
    this.popup.hidden = false;
    this.input.setAttribute('aria-expanded', 'true');
  }

  private close(): void {
    this.popup.hidden = true;
    this.input.setAttribute('aria-expanded', 'false');
    this.activate(-1);
  }

  private isOpen(): boolean {
    return !this.popup.hidden;
  }

  private activate(index: number): void {
    this.active = index;
    for (const option of this.listbox.children) option.setAttribute('aria-selected', String(Number((option as HTMLElement).dataset.index) === index));
    const option = index >= 0 ? this.listbox.children[index] : undefined;
    if (option) {
      this.input.setAttribute('aria-activedescendant', option.id);
      option.scrollIntoView({ block: 'nearest' });
    } else this.input.removeAttribute('aria-activedescendant');
  }

  private async key(event: KeyboardEvent): Promise<void> {
    const count = this.places.length;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (this.text() === '') return;
      if (this.shownFor !== this.text()) return void (await this.search());
      if (!this.isOpen()) this.open();
      if (count === 0 || event.altKey) return;
      const down = event.key === 'ArrowDown';
      this.activate(this.active === -1 ? (down ? 0 : count - 1) : (this.active + (down ? 1 : count - 1)) % count);
    } else if (event.key === 'Enter') {
      if (this.text() === '') return;
      event.preventDefault();
      // Typed and Enter at once: the suggestions for what was typed first.
      if (this.shownFor !== this.text()) await this.search();
      const place = this.places[this.active === -1 ? 0 : this.active];
      if (place && this.shownFor === this.text()) await this.choose(place);
    } else if (event.key === 'Escape') {
      // The box's own Escape: the editor's (which ends a selection) is not for it.
      if (this.isOpen()) this.close();
      else if (this.input.value !== '') {
        this.input.value = '';
        this.typed();
      } else return;
      event.preventDefault();
      event.stopPropagation();
    }
  }

  private async choose(place: Place): Promise<void> {
    // A search still on its way is for text the field no longer holds.
    clearTimeout(this.timer);
    this.request?.controller.abort();
    this.request = undefined;
    this.input.value = place.name;
    this.shownFor = undefined; // the field's text changed: the suggestions are for before
    this.close();
    this.chosen = place;
    this.refreshAdd();
    await this.view.showPlace({ lon: place.lon, lat: place.lat, zoom: placeZoom(place.population) });
    if (this.chosen === place) this.status.textContent = `The map shows ${place.name}, ${whereIs(place)}.`;
  }
}
