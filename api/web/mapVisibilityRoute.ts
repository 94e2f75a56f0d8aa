// Share's "Make it unlisted" and "Make it public" on a private map's page (issue 26, defect 5):
// POST /maps/{id}/visibility with `visibility` unlisted or public, a classic form post with the
// CSRF check of every form, for the map's owner only. Written by the same code as the settings
// form and map/update (api/mapSettings.ts); 303 back to the map's address with Share open.
import type Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { h } from 'preact';
import { findMapWithRole } from '../../db/maps.js';
import type { Db } from '../../db/connection.js';
import { maySee } from '../../lib/access.js';
import { AppError } from '../../lib/errors.js';
import { mapPath } from '../../lib/mapSummary.js';
import { MessagePage } from '../../web/pages/accountPages.js';
import { changeMapSettings } from '../mapSettings.js';
import { emitMapEvent, mapUpdated, type WebhookDeps } from '../webhookEvents.js';
import { fields, requireViewer, viewerOf } from './forms.js';
import { answerPage } from './pageAnswer.js';

const OPENINGS = new Set(['unlisted', 'public']);

function messagePage(ctx: Context, status: number, heading: string, message: string, link: { href: string; text: string }): void {
  answerPage(ctx, { status, title: heading, body: h(MessagePage, { heading, message, link }) });
}

/** `events`: where the change's map.updated webhook event goes. */
export function mountMapVisibility(router: Router, db: Db, form: Middleware[], events: WebhookDeps): void {
  router.post('/maps/:id/visibility', ...form, requireViewer('/maps'), async (ctx) => {
    const viewer = viewerOf(ctx)!;
    const id = Number(ctx.params.id);
    const found = Number.isSafeInteger(id) && id > 0 ? await findMapWithRole(db, id, viewer.id) : undefined;
    if (!found || !maySee(found, viewer.id)) return messagePage(ctx, 404, 'No such map', 'There is no map with this number, or you may not see it.', { href: '/maps', text: 'Your maps' });
    const back = { href: mapPath(found.map), text: 'Back to the map' };
    if (found.map.ownerId !== viewer.id) return messagePage(ctx, 403, 'Not yours to change', 'Only the owner of this map may change who can open it.', back);
    const visibility = fields(ctx).visibility ?? '';
    if (!OPENINGS.has(visibility)) return messagePage(ctx, 400, 'Nothing was changed', 'Choose to make the map unlisted or public.', back);
    try {
      const updated = await changeMapSettings(db, viewer.id, id, { visibility: visibility as 'unlisted' | 'public' });
      void emitMapEvent(events, mapUpdated(updated.id, ['visibility']));
      ctx.status = 303;
      ctx.redirect(`${mapPath(updated)}#share`);
    } catch (error) {
      if (error instanceof AppError && (error.code === 'map_not_found' || error.code === 'permission_denied')) return messagePage(ctx, 404, 'No such map', 'There is no map with this number, or you may not see it.', { href: '/maps', text: 'Your maps' });
      throw error;
    }
  });
}
