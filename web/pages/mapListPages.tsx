// My maps (the maps you own and those shared with you, as cards with their thumbnails; a lock on
// private ones; delete with a confirmation) and Explore (public maps, newest first, by pages).
import { CsrfField } from './layout.js';

export interface MapCard {
  id: number;
  title: string;
  /** The map's address (path), e.g. /alice/walks. */
  path: string;
  owner: string;
  visibility: 'public' | 'unlisted' | 'private' | 'select';
  /** 'owner', 'editor' or 'viewer'. */
  role: string;
  modified: string;
}

const VISIBILITY_LABEL: Record<MapCard['visibility'], string> = {
  public: 'Public',
  unlisted: 'Unlisted',
  private: 'Private',
  select: 'Selected people',
};

function Card({ map, csrf, showOwner }: { map: MapCard; csrf?: string; showOwner: boolean }) {
  const locked = map.visibility === 'private' || map.visibility === 'select';
  return (
    <li class="map-card">
      {/* The picture repeats the title's link: one tab stop and one name per card. */}
      <a href={map.path} class="thumb" tabIndex={-1} aria-hidden="true">
        <img src={`${map.path}/thumbnail.png`} width={400} height={300} alt="" loading="lazy" />
      </a>
      <div class="map-card-body">
        <h3>
          <a href={map.path}>{map.title}</a>
        </h3>
        <p class="meta">
          {locked ? (
            <svg class="lock" role="img" aria-label={VISIBILITY_LABEL[map.visibility]} viewBox="0 0 16 16" width="14" height="14">
              <title>{VISIBILITY_LABEL[map.visibility]}</title>
              <path d="M4 7V5a4 4 0 1 1 8 0v2h1v8H3V7h1zm2 0h4V5a2 2 0 1 0-4 0v2z" fill="currentColor" />
            </svg>
          ) : null}{' '}
          {showOwner ? `by ${map.owner} · ` : ''}
          {VISIBILITY_LABEL[map.visibility]} · {map.modified.slice(0, 10)}
        </p>
        {csrf && map.role === 'owner' ? (
          <form method="get" action={`/maps/${map.id}/delete`}>
            <button type="submit" class="secondary" aria-label={`Delete the map ${map.title}`}>
              Delete
            </button>
          </form>
        ) : null}
      </div>
    </li>
  );
}

export function MyMapsPage(props: { csrf: string; owned: MapCard[]; shared: MapCard[]; notice?: string }) {
  return (
    <section class="wide-list">
      <h1>My maps</h1>
      <form method="post" action="/maps/new" class="new-map">
        <CsrfField token={props.csrf} />
        <label for="new-map-title">Title of a new map</label>
        <input id="new-map-title" name="title" type="text" maxLength={200} placeholder="Untitled map" />
        <button type="submit">New map</button>
      </form>
      {props.notice ? (
        <p class="notice" role="status">
          {props.notice}
        </p>
      ) : null}
      {props.owned.length === 0 ? <p>You have no maps yet: make one with New map, or upload one through the API (map/upload).</p> : null}
      <ul class="map-grid">
        {props.owned.map((map) => (
          <Card key={map.id} map={map} csrf={props.csrf} showOwner={false} />
        ))}
      </ul>
      {props.shared.length > 0 ? (
        <>
          <h2>Shared with you</h2>
          <ul class="map-grid">
            {props.shared.map((map) => (
              <Card key={map.id} map={map} showOwner={true} />
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}

export function ExplorePage(props: { maps: MapCard[]; page: number; more: boolean }) {
  return (
    <section class="wide-list">
      <h1>Explore</h1>
      {props.maps.length === 0 ? <p>No public maps here yet.</p> : null}
      <ul class="map-grid">
        {props.maps.map((map) => (
          <Card key={map.id} map={map} showOwner={true} />
        ))}
      </ul>
      <nav class="pages" aria-label="Pages">
        {props.page > 1 ? (
          <a href={`/explore?page=${props.page - 1}`} rel="prev">
            ← Newer
          </a>
        ) : null}
        {props.more ? (
          <a href={`/explore?page=${props.page + 1}`} rel="next">
            Older →
          </a>
        ) : null}
      </nav>
    </section>
  );
}

export function DeleteMapPage(props: { csrf: string; id: number; title: string }) {
  return (
    <section class="card">
      <h1>Delete “{props.title}”?</h1>
      <p>The map, its items and its images are deleted for good: its address stops working for everyone.</p>
      <form method="post" action={`/maps/${props.id}/delete`}>
        <CsrfField token={props.csrf} />
        <button type="submit" class="danger">
          Delete the map
        </button>{' '}
        <a href="/maps">Keep it</a>
      </form>
    </section>
  );
}
