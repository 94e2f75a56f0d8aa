// A map's page at its address: title, owner, description, the map's picture (the interactive map
// comes with the browser front end), and the item list: groups and subgroups as a tree with their
// counts, hidden items marked.
import type { ItemGroup, ItemTree, ListedItem } from '../../lib/mapItems.js';

export interface MapPageProps {
  title: string;
  owner: string;
  description: string;
  /** The map's address (path). */
  path: string;
  tree: ItemTree;
}

const KIND_LABEL: Record<ListedItem['kind'], string> = { point: 'Point', line: 'Line', area: 'Area', item: 'Item' };

function Items({ group }: { group: ItemGroup }) {
  return (
    <>
      {group.groups.map((sub) => (
        <li key={`g${sub.id}`} class="group">
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
        <li key={`i${item.id}`} class={item.hidden ? 'item hidden' : 'item'}>
          <span class={`kind kind-${item.kind}`} aria-label={KIND_LABEL[item.kind]} role="img" />
          {item.title}
          {item.hidden ? <span class="badge">hidden</span> : null}
        </li>
      ))}
    </>
  );
}

export function MapPage(props: MapPageProps) {
  const { root, unlisted } = props.tree;
  return (
    <div class="map-page">
      <aside class="side-panel" aria-label="About this map">
        <h1>{props.title}</h1>
        <p class="meta">by {props.owner}</p>
        {props.description ? <p class="description">{props.description}</p> : null}
        <h2>
          Items <span class="count">({root.count})</span>
        </h2>
        {root.count === 0 ? <p>This map has no items yet.</p> : null}
        <ul class="item-list">
          <Items group={root} />
        </ul>
        {unlisted > 0 ? <p class="meta">…and {unlisted.toLocaleString('en')} more items.</p> : null}
      </aside>
      <figure class="map-view">
        <img src={`${props.path}/static.png`} width={1200} height={630} alt={`Map: ${props.title}`} />
      </figure>
    </div>
  );
}
