// My maps (with New map), Explore, and deleting a map (its owner, after a confirmation page).
import type Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { h } from 'preact';
import { emitMapEvent, type WebhookDeps } from '../webhookEvents.js';
import { deleteMapOfOwner, findMapRecord, insertMap, listMapsOfUser, listPublicMaps } from '../../db/maps.js';
import { DEFAULT_BASEMAP } from '../../lib/basemaps.js';
import { emptyMapContent } from '../../lib/formats/documentContent.js';
import { shortNameBase } from '../../lib/shortName.js';
import type { BlobStore } from '../../lib/blobs/blobStore.js';
import { mapPath } from '../../lib/mapSummary.js';
import { DEFAULT_MAP_TITLE, type MapRecord } from '../../lib/maps.js';
import { MessagePage } from '../../web/pages/accountPages.js';
import { DeleteMapPage, ExplorePage, MyMapsPage, type MapCard } from '../../web/pages/mapListPages.js';
import { fields, requireViewer, viewerOf } from './forms.js';
import { answerPage } from './pageAnswer.js';
import { csrfToken } from './security.js';

const PER_PAGE = 24;

const cardOf = (map: MapRecord, role: string): MapCard => ({
  id: map.id,
  title: map.title,
  path: mapPath(map),
  owner: map.owner,
  visibility: map.visibility,
  role,
  modified: map.modifiedAt.toISOString(),
});

/** The one-time notice My maps shows after a post sent the browser there. */
const NOTICE_COOKIE = 'mps_notice';

export function mountMapListRoutes(router: Router, deps: WebhookDeps & { blobs: BlobStore }, form: Middleware[]): void {
  const loggedIn = requireViewer('/maps');
  const myMaps = async (ctx: Context, notice?: string) => {
    const { owned, member } = await listMapsOfUser(deps.db, viewerOf(ctx)!.id);
    const newestFirst = (a: MapCard, b: MapCard) => b.modified.localeCompare(a.modified);
    answerPage(ctx, {
      title: 'My maps',
      body: h(MyMapsPage, {
        csrf: csrfToken(ctx),
        owned: owned.map((map) => cardOf(map, 'owner')).sort(newestFirst),
        shared: member.map(({ map, role }) => cardOf(map, role)).sort(newestFirst),
        notice,
      }),
    });
  };
  router.get('/maps', loggedIn, (ctx) => {
    // A notice left by the post that sent the browser here (a deleted map): shown once.
    const notice = ctx.cookies.get(NOTICE_COOKIE);
    if (notice !== undefined) ctx.cookies.set(NOTICE_COOKIE, null, { path: '/maps' });
    return myMaps(ctx, notice ? decodeURIComponent(notice).slice(0, 300) : undefined);
  });

  router.get('/explore', async (ctx) => {
    const page = Math.max(1, Math.min(10_000, Number.parseInt(String(ctx.query.page ?? '1'), 10) || 1));
    const { maps, more } = await listPublicMaps(deps.db, (page - 1) * PER_PAGE, PER_PAGE);
    answerPage(ctx, { title: 'Explore', body: h(ExplorePage, { maps: maps.map((map) => cardOf(map, 'viewer')), page, more }) });
  });

  // New map: an empty map of the viewer's (private until they share it), opened in the editor.
  router.post('/maps/new', ...form, loggedIn, async (ctx) => {
    const viewer = viewerOf(ctx)!;
    const title = (fields(ctx).title ?? '').trim().slice(0, 200) || DEFAULT_MAP_TITLE;
    const map = await insertMap(deps.db, {
      ownerId: viewer.id,
      shortNameBase: shortNameBase(undefined, title),
      title,
      description: '',
      descriptionHtml: '',
      basemap: DEFAULT_BASEMAP,
      visibility: 'private',
      content: emptyMapContent(),
    });
    ctx.status = 303;
    ctx.redirect(`${mapPath(map)}?edit=1`);
  });

  const ownMap = async (ctx: Context): Promise<MapRecord | undefined> => {
    const id = Number(ctx.params.id);
    const map = Number.isSafeInteger(id) && id > 0 ? await findMapRecord(deps.db, id) : undefined;
    if (map && map.ownerId === viewerOf(ctx)!.id) return map;
    answerPage(ctx, { status: 404, title: 'Not found', body: h(MessagePage, { heading: 'No such map', message: 'You have no map with this number.', link: { href: '/maps', text: 'Your maps' } }) });
    return undefined;
  };
  router.get('/maps/:id/delete', loggedIn, async (ctx) => {
    const map = await ownMap(ctx);
    if (map) answerPage(ctx, { title: 'Delete a map', body: h(DeleteMapPage, { csrf: csrfToken(ctx), id: map.id, title: map.title }) });
  });
  router.post('/maps/:id/delete', ...form, loggedIn, async (ctx) => {
    const map = await ownMap(ctx);
    if (!map) return;
    const deleted = await deleteMapOfOwner(deps.db, map.id, map.ownerId);
    // After the delete: map.deleted to the owner's webhooks (the map's own and the all-maps ones).
    if (deleted) void emitMapEvent(deps, { type: 'map.deleted', mapId: map.id, ownerId: map.ownerId, data: {} });
    const files = deleted?.files;
    if (files) await Promise.all([files.static.key, files.thumbnail.key].map((key) => deps.blobs.delete(key)));
    // Back to My maps at its own address (a reload does not post again), the notice in a cookie of a minute.
    ctx.cookies.set(NOTICE_COOKIE, encodeURIComponent(`The map “${map.title}” is deleted.`), { path: '/maps', maxAge: 60_000, httpOnly: true, sameSite: 'lax', secure: ctx.secure });
    ctx.status = 303;
    ctx.redirect('/maps');
  });
}
