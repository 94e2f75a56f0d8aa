// A map's web page at its address, `/{owner}/{short name}`, for whoever may see the map (the
// API's access rules, the browser's session as the caller); an address the map had before a
// rename redirects to its new one; others get the 404 page, with a way to log in. Each page
// answered counts as a view of the map (the heavy-traffic rule of commercial basemaps).
import type Router from '@koa/router';
import type { Context } from 'koa';
import { h } from 'preact';
import { accessTo, canEdit, visibleToAnyone } from '../../lib/access.js';
import { iframeCode } from '../../lib/embed.js';
import { markdownHtml } from '../../lib/markdown.js';
import { mapPath, mapUrl } from '../../lib/mapSummary.js';
import { MessagePage } from '../../web/pages/accountPages.js';
import { MapPage } from '../../web/pages/mapPage.js';
import { lookUpMapAddress, redirectToMoved } from '../mapAddress.js';
import { viewerOf } from './forms.js';
import { viewedMapBasemap, type MapBasemapDeps } from './mapBasemap.js';
import { mapItemTree } from './mapView.js';
import { answerPage } from './pageAnswer.js';
import { csrfToken } from './security.js';

export function mountMapPage(router: Router, deps: MapBasemapDeps): void {
  const { db, config } = deps;
  router.get('/:owner/:shortName', async (ctx: Context) => {
    const viewer = viewerOf(ctx);
    const address = await lookUpMapAddress(db, ctx.params.owner ?? '', ctx.params.shortName ?? '', viewer?.id ?? null);
    if (address.kind === 'moved') return redirectToMoved(ctx, address.path);
    if (address.kind === 'none') {
      return answerPage(ctx, {
        status: 404,
        title: 'Map not found',
        body: h(MessagePage, {
          heading: 'Map not found',
          message: viewer ? 'There is no map at this address, or you may not see it.' : 'There is no map at this address, or it is not public: log in to see the maps shared with you.',
          ...(viewer ? {} : { link: { href: `/login?next=${encodeURIComponent(ctx.path)}`, text: 'Log in' } }),
        }),
      });
    }
    const { map, role } = address.found;
    const mayEdit = viewer !== undefined && canEdit(accessTo(map, viewer.id, role));
    const basemap = await viewedMapBasemap(deps, map);
    answerPage(ctx, {
      title: map.title,
      styles: ['/assets/maplibre/maplibre-gl.css', '/basemaps/fonts/noto-sans.css'],
      scripts: ['/assets/app.js'],
      body: h(MapPage, {
        title: map.title,
        owner: map.owner,
        descriptionHtml: markdownHtml(map.description),
        path: mapPath(map),
        styleUrl: basemap.styleUrl,
        // Only the owner is told why the map is not on its basemap (and can do something about it).
        ...(basemap.fallback && viewer?.id === map.ownerId ? { basemapNotice: basemap.fallback } : {}),
        tree: await mapItemTree(db, map.id),
        link: mapUrl(config.publicUrl, map),
        embedCode: iframeCode(config.publicUrl, map, { panel: false }),
        embedCodeWithPanel: iframeCode(config.publicUrl, map, { panel: true }),
        ...(mayEdit ? { edit: { saveUrl: `/maps/${map.id}/save`, csrf: csrfToken(ctx) } } : {}),
      }),
      alternate: visibleToAnyone(map) ? `${config.publicUrl}/oembed?url=${encodeURIComponent(mapUrl(config.publicUrl, map))}` : undefined,
    });
  });
}
