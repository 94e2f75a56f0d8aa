// A map's web page at its address, `/{owner}/{short name}`, for whoever may see the map (the
// API's access rules, the browser's session as the caller); others get the 404 page, with a way
// to log in.
import type Router from '@koa/router';
import type { Context } from 'koa';
import { h } from 'preact';
import type { Db } from '../../db/connection.js';
import { readMapPageContent } from '../../db/mapPage.js';
import { findMapImageByAddress } from '../../db/maps.js';
import { accessTo, canView } from '../../lib/access.js';
import { iframeCode } from '../../lib/embed.js';
import { itemTree } from '../../lib/mapItems.js';
import { mapUrl } from '../../lib/mapSummary.js';
import { MessagePage } from '../../web/pages/accountPages.js';
import { MapPage } from '../../web/pages/mapPage.js';
import { viewerOf } from './forms.js';
import { answerPage } from './pageAnswer.js';

/** Items listed on the page; a larger map lists its first ones and says how many more it has. */
const LISTED_ITEMS = 2_000;

export function mountMapPage(router: Router, db: Db, publicUrl: string): void {
  router.get('/:owner/:shortName', async (ctx: Context) => {
    const viewer = viewerOf(ctx);
    const found = await findMapImageByAddress(db, ctx.params.owner ?? '', ctx.params.shortName ?? '', viewer?.id ?? null);
    if (!found || !canView(accessTo(found.map, viewer?.id ?? 0, found.role))) {
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
    const { map } = found;
    const content = await readMapPageContent(db, map.id, LISTED_ITEMS);
    const path = `/${encodeURIComponent(map.owner)}/${encodeURIComponent(map.shortName)}`;
    // The built-in basemaps draw in the browser; a commercial one shows on `classic` there for now.
    const basemap = ['classic', 'light', 'dark'].includes(map.basemap) ? map.basemap : 'classic';
    answerPage(ctx, {
      title: map.title,
      styles: ['/assets/maplibre/maplibre-gl.css', '/basemaps/fonts/noto-sans.css'],
      scripts: ['/assets/app.js'],
      body: h(MapPage, {
        title: map.title,
        owner: map.owner,
        description: map.description,
        path,
        styleUrl: `/basemaps/${basemap}/style.json`,
        tree: itemTree(content.head, content.features, content.groupCounts, content.total),
        link: mapUrl(publicUrl, map),
        embedCode: iframeCode(publicUrl, map, { panel: false }),
        embedCodeWithPanel: iframeCode(publicUrl, map, { panel: true }),
      }),
      alternate: map.visibility === 'public' || map.visibility === 'unlisted' ? `${publicUrl}/oembed?url=${encodeURIComponent(mapUrl(publicUrl, map))}` : undefined,
    });
  });
}
