// A map's web page at its address, `/{owner}/{short name}`, for whoever may see the map (the
// API's access rules, the browser's session as the caller); others get the 404 page, with a way
// to log in.
import type Router from '@koa/router';
import type { Context } from 'koa';
import { h } from 'preact';
import type { Db } from '../../db/connection.js';
import { findMapImageByAddress } from '../../db/maps.js';
import { maySee, visibleToAnyone } from '../../lib/access.js';
import { iframeCode } from '../../lib/embed.js';
import { mapPath, mapUrl } from '../../lib/mapSummary.js';
import { MessagePage } from '../../web/pages/accountPages.js';
import { MapPage } from '../../web/pages/mapPage.js';
import { viewerOf } from './forms.js';
import { browserStyleUrl, mapItemTree } from './mapView.js';
import { answerPage } from './pageAnswer.js';

export function mountMapPage(router: Router, db: Db, publicUrl: string): void {
  router.get('/:owner/:shortName', async (ctx: Context) => {
    const viewer = viewerOf(ctx);
    const found = await findMapImageByAddress(db, ctx.params.owner ?? '', ctx.params.shortName ?? '', viewer?.id ?? null);
    if (!found || !maySee(found, viewer?.id ?? null)) {
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
    answerPage(ctx, {
      title: map.title,
      styles: ['/assets/maplibre/maplibre-gl.css', '/basemaps/fonts/noto-sans.css'],
      scripts: ['/assets/app.js'],
      body: h(MapPage, {
        title: map.title,
        owner: map.owner,
        description: map.description,
        path: mapPath(map),
        styleUrl: browserStyleUrl(map),
        tree: await mapItemTree(db, map.id),
        link: mapUrl(publicUrl, map),
        embedCode: iframeCode(publicUrl, map, { panel: false }),
        embedCodeWithPanel: iframeCode(publicUrl, map, { panel: true }),
      }),
      alternate: visibleToAnyone(map) ? `${publicUrl}/oembed?url=${encodeURIComponent(mapUrl(publicUrl, map))}` : undefined,
    });
  });
}
