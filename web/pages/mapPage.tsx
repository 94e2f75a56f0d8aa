// A map's page at its address: title, owner, description, the map's picture (the interactive map
// comes with the browser front end), and the item list: groups and subgroups as a tree with their
// counts, hidden items marked.
import { h } from 'preact';
import type { Fallback } from '../../lib/browserBasemap.js';
import { swatchShapes, type ItemSwatch } from '../../lib/itemSwatch.js';
import type { ItemGroup, ItemTree, ListedItem } from '../../lib/mapItems.js';
import { PROVIDER_KIND_LABELS } from '../../lib/providerKeys.js';
import { CsrfField } from './layout.js';
import { MapSettingsPanel, type MapSettingsProps } from './mapSettingsPanel.js';

export interface MapPageProps {
  title: string;
  owner: string;
  /** The description's Markdown as sanitised HTML (lib/markdown.ts). */
  descriptionHtml: string;
  /** The map's address (path). */
  path: string;
  /** Why the map shows on classic instead of its commercial basemap: told to its owner only. */
  basemapNotice?: Fallback;
  tree: ItemTree;
  /** Share: the map's link, and its iframe codes (an unlisted map's with its link key). */
  link: string;
  /** The map is unlisted: Share says that its link is all it takes. */
  unlisted?: boolean;
  /** Who may open the map: Share and the page say when nobody else can (private, select). */
  visibility?: 'public' | 'unlisted' | 'private' | 'select';
  /** For the owner of a private map: where Share's "Make it unlisted / public" posts, with the form token. */
  openUp?: { action: string; csrf: string };
  embedCode: string;
  embedCodeWithPanel: string;
  /** For the map's owner and editors: the address that opens the Map settings section. */
  settingsHref?: string;
  /** The Map settings section, when open (web/pages/mapSettingsPanel.tsx). */
  settings?: MapSettingsProps;
}

const KIND_LABEL: Record<ListedItem['kind'], string> = { point: 'Point', line: 'Line', area: 'Area', text: 'Text label', item: 'Item' };

/** An eye, drawn (no emoji font needed); crossed out by CSS when the button is not pressed. */
function EyeIcon() {
  return (
    <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
      <path d="M12 5C6.5 5 2.7 9.1 1.5 12c1.2 2.9 5 7 10.5 7s9.3-4.1 10.5-7C21.3 9.1 17.5 5 12 5zm0 11.5a4.5 4.5 0 1 1 0-9 4.5 4.5 0 0 1 0 9zm0-2.3a2.2 2.2 0 1 0 0-4.4 2.2 2.2 0 0 0 0 4.4z" fill="currentColor" />
      <path class="strike" d="M3 3l18 18" stroke="currentColor" stroke-width="2" />
    </svg>
  );
}

/** An item's kind in its colour, with its icon: what it looks like on the map. */
function Swatch({ swatch, label }: { swatch: ItemSwatch; label: string }) {
  const { shape, image } = swatchShapes(swatch);
  return (
    <svg class={`kind kind-${swatch.kind}`} viewBox="0 0 14 14" width="14" height="14" role="img" aria-label={label}>
      {h(shape.tag, shape.attributes, shape.tag === 'text' ? 'T' : null)}
      {image ? <image {...image} /> : null}
    </svg>
  );
}

function Items({ group }: { group: ItemGroup }) {
  return (
    <>
      {group.groups.map((sub) => (
        <li key={`g${sub.id}`} class="group">
          {/* Beside the summary, not in it: a button inside a summary would be a control within a control. */}
          <button type="button" class="eye" data-toggle="group" aria-pressed="true" aria-label={`Show or hide the group ${sub.title}`} hidden>
            <EyeIcon />
          </button>
          <details open>
            <summary>
              {sub.title} <span class="count">({sub.count})</span>
            </summary>
            <ul>
              <Items group={sub} />
            </ul>
          </details>
        </li>
      ))}
      {group.items.map((item) => (
        <li key={`i${item.id}`} class={item.hidden ? 'item hidden' : 'item'} data-item-id={String(item.id)} data-title={item.title}>
          <button type="button" class="eye" data-toggle="item" aria-pressed={item.hidden ? 'false' : 'true'} aria-label={`Show or hide ${item.title}`} hidden>
            <EyeIcon />
          </button>
          <Swatch swatch={item.swatch} label={KIND_LABEL[item.kind]} />
          <button type="button" class="link item-title" data-open-item="">
            {item.title}
          </button>
          {item.hidden ? <span class="badge">hidden</span> : null}
        </li>
      ))}
    </>
  );
}

/** The item list: a filter (shown by the front end), the tree, and how many items are not listed. */
export function ItemList({ tree }: { tree: ItemTree }) {
  const { root, unlisted } = tree;
  return (
    <>
      <h2 id="items" tabindex={-1}>
        Items{' '}
        <span class="count" data-items-count="">
          ({root.count})
        </span>
      </h2>
      <p data-items-empty="" hidden={root.count !== 0}>
        This map has no items yet.
      </p>
      <p class="field" hidden>
        <label for="item-filter">Filter items</label>
        <input id="item-filter" type="search" placeholder="Title contains…" hidden />
      </p>
      <ul class="item-list">
        <Items group={root} />
      </ul>
      <p class="meta" data-items-more="" hidden={unlisted === 0}>
        …and {unlisted.toLocaleString('en')} more items.
      </p>
    </>
  );
}

/** Download: the whole map as GeoJSON or KML, its points as CSV or XLSX (the table import's columns), points and lines as GPX, its picture. */
function Downloads({ path }: { path: string }) {
  return (
    <details class="share">
      <summary>Download</summary>
      <ul class="downloads">
        <li>
          <a href={`${path}/download.geojson`} download="">
            GeoJSON
          </a>{' '}
          — everything, as the API has it
        </li>
        <li>
          <a href={`${path}/download.csv`} download="">
            CSV
          </a>{' '}
          — the points, in the columns a table import reads
        </li>
        <li>
          <a href={`${path}/download.xlsx`} download="">
            Excel
          </a>{' '}
          — the same table as an XLSX workbook
        </li>
        <li>
          <a href={`${path}/download.kml`} download="">
            KML
          </a>{' '}
          — everything, groups as folders, with colours
        </li>
        <li>
          <a href={`${path}/download.kmz`} download="">
            KMZ
          </a>{' '}
          — the KML with the images of its overlays inside
        </li>
        <li>
          <a href={`${path}/download.gpx`} download="">
            GPX
          </a>{' '}
          — points and lines, for GPS devices
        </li>
        <li>
          <a href={`${path}/static.png`} download="">
            Image
          </a>{' '}
          — the map's picture (PNG)
        </li>
      </ul>
    </details>
  );
}

/** Who can open a map that not everyone can: said on the page and in Share. */
const CLOSED_NOTE: Partial<Record<NonNullable<MapPageProps['visibility']>, string>> = {
  private: 'This map is private: only its owner and editors can open it. Anyone else who follows its link or embed code is told there is no such map.',
  select: 'This map is shared with chosen people only: they open it after logging in. Anyone else who follows its link or embed code is told there is no such map.',
};

/**
 * A copy button for a field of Share (web/app/copyButtons.ts makes it work; without script it
 * stays hidden), named by its text and the field's label: "Copy Link", then "Copied Link".
 */
function CopyButton({ field }: { field: string }) {
  return (
    <button type="button" class="secondary copy" id={`${field}-copy`} data-copy={field} aria-labelledby={`${field}-copy ${field}-label`} hidden>
      Copy
    </button>
  );
}

/** Share: the map's link and the code that embeds it (default 768×576, with or without the side panel). */
function Share(props: Pick<MapPageProps, 'link' | 'embedCode' | 'embedCodeWithPanel' | 'unlisted' | 'visibility' | 'openUp'>) {
  const closed = props.visibility ? CLOSED_NOTE[props.visibility] : undefined;
  return (
    <details class="share" id="share">
      <summary>Share</summary>
      {props.unlisted ? <p class="hint">Only people who have this link or an embed code can open this map.</p> : null}
      {closed ? (
        <p class="notice" id="share-closed">
          {closed}
        </p>
      ) : null}
      {props.openUp ? (
        <form method="post" action={props.openUp.action} class="share-open-up">
          <CsrfField token={props.openUp.csrf} />
          <p class="hint" id="share-open-up-hint">
            To share it, make it unlisted (anyone with the link can open it; it is not listed anywhere) or public (listed in Explore).
          </p>
          <p class="share-open-up-buttons">
            <button type="submit" name="visibility" value="unlisted" class="secondary" aria-describedby="share-open-up-hint">
              Make it unlisted
            </button>{' '}
            <button type="submit" name="visibility" value="public" class="secondary" aria-describedby="share-open-up-hint">
              Make it public
            </button>
          </p>
        </form>
      ) : null}
      <p class="field">
        <label for="share-link" id="share-link-label">Link</label>
        <span class="copy-row">
          <input id="share-link" type="text" readonly value={props.link} {...(closed ? { 'aria-describedby': 'share-closed' } : {})} />
          <CopyButton field="share-link" />
        </span>
      </p>
      <p class="field">
        <label for="share-embed" id="share-embed-label">Embed code (768×576)</label>
        <textarea id="share-embed" readonly rows={4} {...(closed ? { 'aria-describedby': 'share-closed' } : {})}>
          {props.embedCode}
        </textarea>
        <CopyButton field="share-embed" />
      </p>
      <p class="field">
        <label for="share-embed-panel" id="share-embed-panel-label">Embed code with the side panel</label>
        <textarea id="share-embed-panel" readonly rows={4} {...(closed ? { 'aria-describedby': 'share-closed' } : {})}>
          {props.embedCodeWithPanel}
        </textarea>
        <CopyButton field="share-embed-panel" />
      </p>
    </details>
  );
}

/** "1 view", "1,200 views". */
const counted = (n: number, noun: string): string => `${n.toLocaleString('en')} ${noun}${n === 1 ? '' : 's'}`;

const dateTime = (date: Date): string => `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** The owner's notice: the map is on classic, why, until when, and where the key goes. */
function BasemapNotice({ fallback }: { fallback: Fallback }) {
  const { basemap } = fallback;
  const kind = basemap.providerKind ? PROVIDER_KIND_LABELS[basemap.providerKind] : 'provider';
  return (
    <div class="notice" role="status">
      {fallback.reason === 'heavy_traffic' ? (
        <p>
          This map had {counted(fallback.views, 'view')}{fallback.tiles > 0 ? ` and ${counted(fallback.tiles, 'basemap tile')}` : ''} today, more than a map on {basemap.name} may have without its owner's key, so visitors see it on the
          Classic basemap until {dateTime(fallback.until)}.
        </p>
      ) : (
        <p>
          Visitors see this map on the Classic basemap: {basemap.name} needs your {kind} key.
        </p>
      )}
      <p>
        <a href="/settings#provider-keys">Add your {kind} key</a> to show it on {basemap.name}
        {fallback.reason === 'heavy_traffic' ? ' again now' : ''}.
      </p>
    </div>
  );
}

export function MapPage(props: MapPageProps) {
  return (
    <div class="map-page">
      {/* The title and the description above the map on a phone, at the top of the side panel on a wider screen (site.css). */}
      <header class="map-heading">
        <h1>{props.title}</h1>
        <p class="meta">
          {props.visibility === 'private' || props.visibility === 'select' ? (
            <>
              <span class="badge warn">{props.visibility === 'private' ? 'Private' : 'Shared with chosen people'}</span>{' '}
            </>
          ) : null}
          by {props.owner}
          {props.settingsHref && !props.settings ? (
            <>
              {' · '}
              <a href={props.settingsHref}>Map settings</a>
            </>
          ) : null}
        </p>
        {/* Above the map on a phone too: its first lines, the rest behind "Read more" (web/app/descriptionToggle.ts). */}
        {props.descriptionHtml ? <div class="description" dangerouslySetInnerHTML={{ __html: props.descriptionHtml }} /> : null}
      </header>
      {/* The map (and the editor's toolbar over it) before the side panel in the reading order; site.css places them. */}
      <a class="skip-link" href="#items">
        Skip to the items
      </a>
      {/* Found by its place in the page; what it shows and who edits it is in the head's config (lib/mapPageConfig.ts). */}
      <figure class="map-view">
        <img src={`${props.path}/static.png`} width={1200} height={630} alt={`Map: ${props.title}`} />
      </figure>
      <aside class="side-panel" aria-label="About this map">
        {props.settings ? <MapSettingsPanel {...props.settings} /> : null}
        {props.basemapNotice ? <BasemapNotice fallback={props.basemapNotice} /> : null}
        <ItemList tree={props.tree} />
        <Share link={props.link} embedCode={props.embedCode} embedCodeWithPanel={props.embedCodeWithPanel} unlisted={props.unlisted} visibility={props.visibility} openUp={props.openUp} />
        <Downloads path={props.path} />
      </aside>
    </div>
  );
}
