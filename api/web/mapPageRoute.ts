// A map's web page at its address, `/{owner}/{short name}`, for whoever may see the map (the
// API's access rules, the browser's session as the caller); an address the map had before a
// rename redirects to its new one; others get the 404 page, with a way to log in. Each page
// answered counts as a view of the map (the heavy-traffic rule of commercial basemaps).
import type Router from '@koa/router';
import type { Context } from 'koa';
import { h } from 'preact';
import { accessTo, canEdit, visibleToAnyone } from '../../lib/access.js';
import { iframeCode } from '../../lib/embed.js';
import { mapPath, mapUrl } from '../../lib/mapSummary.js';
import { MessagePage } from '../../web/pages/accountPages.js';
import { MapPage } from '../../web/pages/mapPage.js';
import type { MapSettingsProps } from '../../web/pages/mapSettingsPanel.js';
import type { MapRecord, MemberRole } from '../../lib/maps.js';
import { lookUpMapAddress, redirectToMoved } from '../mapAddress.js';
import { descriptionHtmlOf } from './descriptionHtml.js';
import { viewerOf } from './forms.js';
import { viewedMapBasemap, type MapBasemapDeps } from './mapBasemap.js';
import { settingsOnPage } from './mapSettingsView.js';
import { mapItemTree } from './mapView.js';
import { answerPage } from './pageAnswer.js';
import { csrfToken } from './security.js';

/** What a map page may show besides the map: the settings section, and the answer's status (a refused settings form's 400). */
export interface MapPageExtra {
  settings?: MapSettingsProps | undefined;
  status?: number;
}

/** Answers a request with the map's page (the caller has checked that the viewer may see the map). */
export function mapPageAnswer(deps: MapBasemapDeps) {
  const { db, config } = deps;
  return async (ctx: Context, map: MapRecord, role: MemberRole | undefined, extra: MapPageExtra = {}): Promise<void> => {
    const viewer = viewerOf(ctx);
    const mayEdit = viewer !== undefined && canEdit(accessTo(map, viewer.id, role));
    // One round of queries after the map's lookup, not three in a row (issue 24: page views under load).
    const [basemap, descriptionHtml, tree] = await Promise.all([viewedMapBasemap(deps, map), descriptionHtmlOf(db, map), mapItemTree(db, map.id)]);
    answerPage(ctx, {
      status: extra.status,
      title: map.title,
      styles: ['/assets/maplibre/maplibre-gl.css', '/basemaps/fonts/noto-sans.css'],
      scripts: ['/assets/app.js'],
      body: h(MapPage, {
        title: map.title,
        owner: map.owner,
        descriptionHtml,
        path: mapPath(map),
        // Only the owner is told why the map is not on its basemap (and can do something about it).
        ...(basemap.fallback && viewer?.id === map.ownerId ? { basemapNotice: basemap.fallback } : {}),
        tree,
        link: mapUrl(config.publicUrl, map),
        unlisted: map.visibility === 'unlisted',
        visibility: map.visibility,
        ...(viewer?.id === map.ownerId && (map.visibility === 'private' || map.visibility === 'select') ? { openUp: { action: `/maps/${map.id}/visibility`, csrf: csrfToken(ctx) } } : {}),
        embedCode: iframeCode(config.publicUrl, map, { panel: false }),
        embedCodeWithPanel: iframeCode(config.publicUrl, map, { panel: true }),
        ...(mayEdit ? { settingsHref: `${mapPath(map)}?settings=1#map-settings` } : {}),
        ...(extra.settings ? { settings: extra.settings } : {}),
      }),
      mapConfig: {
        geojson: `${mapPath(map)}/map.geojson`,
        style: basemap.styleUrl,
        ...(mayEdit ? { edit: { saveUrl: `/maps/${map.id}/save`, importUrl: `/maps/${map.id}/import`, imagesUrl: `/maps/${map.id}/images`, markersUrl: `/maps/${map.id}/markers`, versionsUrl: `/maps/${map.id}/versions`, csrf: csrfToken(ctx) } } : {}),
      },
      alternate: visibleToAnyone(map) ? `${config.publicUrl}/oembed?url=${encodeURIComponent(mapUrl(config.publicUrl, map))}` : undefined,
    });
  };
}

export function mountMapPage(router: Router, deps: MapBasemapDeps): void {
  const answerMapPage = mapPageAnswer(deps);
  router.get('/:owner/:shortName', async (ctx: Context) => {
    const { db } = deps;
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
    await answerMapPage(ctx, map, role, { settings: await settingsOnPage(db, ctx, map, viewer?.id, role) });
  });
}
