// Embedding: /embed/{id} (the map in another site's iframe: its picture with a Play button, the
// interactive map on Play, the side panel with ?panel=1; an unlisted map's /embed/{id}~{link key})
// for whoever may see the map, and the oEmbed endpoint (/oembed?url={map url}) for public and
// unlisted maps (an unlisted map's url with its key), so sites that know oEmbed turn a pasted map
// link into the embed.
import type Router from '@koa/router';
import type { Context } from 'koa';
import { h } from 'preact';
import { render } from 'preact-render-to-string';
import { visibleToAnyone } from '../../lib/access.js';
import { EMBED_HEIGHT, EMBED_WIDTH, iframeCode } from '../../lib/embed.js';
import { mapPath, mapUrl } from '../../lib/mapSummary.js';
import { EmbedPage } from '../../web/pages/embedPage.js';
import { notFound } from '../fileAnswer.js';
import { findSeenMapByRef, lookUpMapAddress } from '../mapAddress.js';
import { viewerIdOf } from '../viewerId.js';
import { viewedMapBasemap, type MapBasemapDeps } from './mapBasemap.js';
import { mapItemTree } from './mapView.js';
import { EMBED_HEADERS } from './security.js';

export function mountEmbedRoutes(router: Router, deps: MapBasemapDeps): void {
  const { db } = deps;
  const publicUrl = deps.config.publicUrl;
  const viewerId = viewerIdOf(db);

  router.get('/embed/:id', async (ctx: Context) => {
    const found = await findSeenMapByRef(db, ctx.params.id, await viewerId(ctx));
    ctx.set(EMBED_HEADERS);
    if (!found) {
      ctx.status = 404;
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = '<!doctype html><html lang="en"><meta charset="utf-8"><title>Map not found</title><link rel="stylesheet" href="/assets/site.css"><body class="embed"><p class="embed-missing">This map does not exist, or it is not public.</p></body></html>';
      return;
    }
    const { map } = found;
    const html = render(
      h(EmbedPage, {
        title: map.title,
        path: mapPath(map),
        styleUrl: (await viewedMapBasemap(deps, map)).styleUrl,
        panel: ctx.query.panel === '1',
        tree: await mapItemTree(db, map.id),
        pageUrl: mapUrl(publicUrl, map),
      }),
    );
    ctx.set('Cache-Control', 'no-store');
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = `<!doctype html>${html}`;
  });

  router.get('/oembed', async (ctx: Context) => {
    const format = typeof ctx.query.format === 'string' ? ctx.query.format : 'json';
    if (format !== 'json') {
      ctx.status = 501;
      ctx.body = { error: 'Only format=json is answered.', error_code: 'unsupported_format' };
      return;
    }
    const address = typeof ctx.query.url === 'string' ? ctx.query.url : '';
    let parts: string[] = [];
    try {
      const url = new URL(address);
      if (url.origin === new URL(publicUrl).origin) parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    } catch {
      parts = [];
    }
    // An address from before a rename still finds its map.
    const lookup = parts.length === 2 ? await lookUpMapAddress(db, parts[0]!, parts[1]!, null) : undefined;
    const found = lookup?.kind === 'map' || lookup?.kind === 'moved' ? lookup.found : undefined;
    if (!found || !visibleToAnyone(found.map)) {
      return notFound(ctx, 'map_not_found', 'No public or unlisted map has this address.');
    }
    const { map } = found;
    const maxWidth = Number(ctx.query.maxwidth) || Infinity;
    const maxHeight = Number(ctx.query.maxheight) || Infinity;
    const scale = Math.min(1, maxWidth / EMBED_WIDTH, maxHeight / EMBED_HEIGHT);
    const width = Math.max(100, Math.floor(EMBED_WIDTH * scale));
    const height = Math.max(75, Math.floor(EMBED_HEIGHT * scale));
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.body = {
      type: 'rich',
      version: '1.0',
      title: map.title,
      author_name: map.owner,
      author_url: `${publicUrl}/`,
      provider_name: 'Maps',
      provider_url: `${publicUrl}/`,
      html: iframeCode(publicUrl, map, { panel: false, width, height }),
      width,
      height,
      thumbnail_url: `${mapUrl(publicUrl, map)}/thumbnail.png`,
      thumbnail_width: 400,
      thumbnail_height: 300,
    };
  });
}
