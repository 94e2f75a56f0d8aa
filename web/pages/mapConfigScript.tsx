// The map front end's configuration in the page's <head> (lib/mapPageConfig.ts).
import { configJson, MAP_CONFIG_ID, type MapPageConfig } from '../../lib/mapPageConfig.js';

export function MapConfigScript({ config }: { config: MapPageConfig }) {
  return <script type="application/json" id={MAP_CONFIG_ID} dangerouslySetInnerHTML={{ __html: configJson(config) }} />;
}

/**
 * What the map front end asks for first, asked for by the page's head: MapLibre's module (found
 * otherwise only once app.js has arrived), the map's GeoJSON and the basemap's style (asked for
 * otherwise only once both modules have run, one after the other). `crossorigin` (anonymous) is
 * the credentials mode `same-origin` that the front end's and MapLibre's `fetch` use, so the
 * browser hands them these answers instead of asking again. Not in an embed, which loads nothing
 * before Play is pressed.
 */
export function MapPreloads({ config }: { config: MapPageConfig }) {
  return (
    <>
      <link rel="modulepreload" href="/assets/maplibre/maplibre-gl.mjs" />
      <link rel="preload" href={config.geojson} as="fetch" crossorigin="anonymous" />
      <link rel="preload" href={config.style} as="fetch" crossorigin="anonymous" />
    </>
  );
}
