// The map front end's configuration in the page's <head> (lib/mapPageConfig.ts).
import { configJson, MAP_CONFIG_ID, type MapPageConfig } from '../../lib/mapPageConfig.js';

export function MapConfigScript({ config }: { config: MapPageConfig }) {
  return <script type="application/json" id={MAP_CONFIG_ID} dangerouslySetInnerHTML={{ __html: configJson(config) }} />;
}
