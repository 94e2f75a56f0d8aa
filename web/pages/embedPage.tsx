// A map inside another site's page (/embed/{id}): its static image with a Play button first, the
// interactive map once Play is pressed (the map page's front end), the item list beside it when
// the embed code asks for the side panel.
import type { ItemTree } from '../../lib/mapItems.js';
import { MapConfigScript } from './mapConfigScript.js';
import { ItemList } from './mapPage.js';

export interface EmbedPageProps {
  title: string;
  path: string;
  styleUrl: string;
  panel: boolean;
  tree: ItemTree;
  /** The map's own page, opened in a new tab from the embed. */
  pageUrl: string;
}

export function EmbedPage(props: EmbedPageProps) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{props.title}</title>
        <link rel="stylesheet" href="/assets/site.css" />
        <link rel="stylesheet" href="/assets/maplibre/maplibre-gl.css" />
        <link rel="stylesheet" href="/basemaps/fonts/noto-sans.css" />
        <MapConfigScript config={{ geojson: `${props.path}/map.geojson`, style: props.styleUrl }} />
        <script type="module" src="/assets/app.js" />
      </head>
      <body class="embed">
        <div class={props.panel ? 'embed-layout with-panel' : 'embed-layout'}>
          {props.panel ? (
            <aside class="side-panel" aria-label="Items">
              <h1>
                <a href={props.pageUrl} target="_blank" rel="noopener">
                  {props.title}
                </a>
              </h1>
              <ItemList tree={props.tree} />
            </aside>
          ) : null}
          <figure class="map-view embed-view">
            <img src={`${props.path}/static.png`} width={1200} height={630} alt={`Map: ${props.title}`} />
            <button type="button" class="play" aria-label={`Play: open the interactive map ${props.title}`}>
              ▶
            </button>
          </figure>
        </div>
      </body>
    </html>
  );
}
