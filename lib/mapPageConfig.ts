// What the map page's front end (web/app/main.ts) is told by the server: the map's data and
// style, and for its owner and editors where the editor saves, imports and finds media, with the
// browser's form token. Written as JSON in one <script type="application/json"> in the page's
// <head> (web/pages/mapConfigScript.tsx), read from there only: nothing in the page's body — a
// description, an item's popup — can stand in for it (issue 24: a description holding
// `data-map-geojson` and `data-save-url` once made the page show another map, with the editor's
// toolbar, to a non-editor).

export const MAP_CONFIG_ID = 'map-config';

/** The figure the front end draws the map in: found by its fixed place in the page, never by an attribute a description could carry. */
export const MAP_HOLDER_SELECTOR = 'body > main > .map-page > figure.map-view, body > .embed-layout > figure.map-view';

export interface MapEditUrls {
  saveUrl: string;
  importUrl: string;
  imagesUrl: string;
  markersUrl: string;
  versionsUrl: string;
  csrf: string;
}

export interface MapPageConfig {
  /** The map's GeoJSON (`{map path}/map.geojson`). */
  geojson: string;
  /** The basemap's MapLibre style. */
  style: string;
  /** The owner's and editors' editor. */
  edit?: MapEditUrls;
}

/** The config as the text of a <script type="application/json">: no `<` in it can end the element. */
export const configJson = (config: MapPageConfig): string =>
  JSON.stringify(config).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
