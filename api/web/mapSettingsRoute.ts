// The map settings form's post, POST /maps/{id}/settings (web/pages/mapSettingsPanel.tsx): a
// classic form post from the map's own page (the CSRF check of every form), for its owner and,
// with the title, description and basemap only, its editors. The fields are checked by the same
// schemas as map/update and written by the same code (api/mapSettings.ts), so map/get and
// map/list show the change at once. Saved: 303 to the map's address (the new one after a change
// of short name) with the section open and a notice. Refused: the map's page again, 400, each
// message next to its field and what was typed kept. "Preview the description" answers the
// page with the description rendered as the page renders it, saving nothing.
import type Router from '@koa/router';
import type { Context, Middleware, Next } from 'koa';
import { h } from 'preact';
import { findMapWithRole } from '../../db/maps.js';
import { maySee } from '../../lib/access.js';
import { AppError } from '../../lib/errors.js';
import { renderDescription } from '../../lib/markdown/index.js';
import { mapPath } from '../../lib/mapSummary.js';
import { shortNameSlug } from '../../lib/shortName.js';
import { MessagePage } from '../../web/pages/accountPages.js';
import { changeMapSettings, SettingRefused } from '../mapSettings.js';
import { changedSettings, emitMapEvent, mapUpdated, type WebhookDeps } from '../webhookEvents.js';
import { fields, requireViewer, STATUS, viewerOf } from './forms.js';
import type { MapBasemapDeps } from './mapBasemap.js';
import { mapPageAnswer } from './mapPageRoute.js';
import { checkSettingsForm, valuesOf } from './mapSettingsForm.js';
import { mapSettingsProps, settingsRoleOf, type SettingsFormState } from './mapSettingsView.js';
import { answerPage } from './pageAnswer.js';

/**
 * The form's body limit: a description of 100,000 characters, each up to 9 bytes once
 * URL-encoded (a 3-byte UTF-8 character as three %XX), and the rest of the form.
 */
export const SETTINGS_FORM_LIMIT = '1000kb';

function messagePage(ctx: Context, status: number, heading: string, message: string, link: { href: string; text: string }): void {
  answerPage(ctx, { status, title: heading, body: h(MessagePage, { heading, message, link }) });
}

/** A body over the limit (koa-body's 413) gets a page saying what to do, not Koa's plain text. */
function tooLargeForm(deps: MapBasemapDeps) {
  return async (ctx: Context, next: Next) => {
    try {
      await next();
    } catch (error) {
      if ((error as { status?: number }).status !== 413) throw error;
      const viewer = viewerOf(ctx);
      const id = Number(ctx.params.id);
      const map = viewer && Number.isSafeInteger(id) && id > 0 ? await findMapWithRole(deps.db, id, viewer.id) : undefined;
      const back = map && maySee(map, viewer!.id) ? { href: `${mapPath(map.map)}?settings=1#map-settings`, text: 'Back to the map settings' } : { href: '/maps', text: 'Your maps' };
      messagePage(ctx, 413, 'The settings were too large', 'Nothing was saved: a description has at most 100,000 characters. Shorten it and save again.', back);
    }
  };
}

/** `events`: where a saved form's map.updated webhook event goes. */
export function mountMapSettings(router: Router, deps: MapBasemapDeps, form: Middleware[], events: WebhookDeps): void {
  const answerMapPage = mapPageAnswer(deps);
  router.post('/maps/:id/settings', tooLargeForm(deps), ...form, requireViewer('/maps'), async (ctx) => {
    const viewer = viewerOf(ctx)!;
    const id = Number(ctx.params.id);
    const found = Number.isSafeInteger(id) && id > 0 ? await findMapWithRole(deps.db, id, viewer.id) : undefined;
    const role = found && settingsRoleOf(found.map, viewer.id, found.role);
    if (!found || !role) {
      // As map/update answers: a map the viewer may see is theirs to read, not to change; another is not there.
      return found && maySee(found, viewer.id)
        ? messagePage(ctx, 403, 'Not yours to change', 'Only the owner and the editors of this map may change its settings.', { href: mapPath(found.map), text: 'Back to the map' })
        : messagePage(ctx, 404, 'No such map', 'There is no map with this number, or you may not see it.', { href: '/maps', text: 'Your maps' });
    }
    const sent = fields(ctx);
    const values = valuesOf(sent);
    const again = async (status: number, state: SettingsFormState) =>
      answerMapPage(ctx, found.map, found.role, { status, settings: await mapSettingsProps(deps.db, ctx, found.map, role, { values, ...state }) });
    if (sent.preview) return again(200, { descriptionPreview: (await renderDescription(values.description)).html });
    // The owner's form says so (an unticked box sends nothing); from an editor, changeMapSettings refuses it.
    const check = checkSettingsForm(values, sent.sharing ? 'owner' : 'editor');
    if (!check.ok) return again(400, { errors: check.errors, error: 'Nothing was saved: see the messages next to the fields.' });
    try {
      const before = shortNameSlug(check.changes.shortName ?? '');
      const updated = await changeMapSettings(deps.db, viewer.id, id, check.changes);
      void emitMapEvent(events, mapUpdated(updated.id, changedSettings(check.changes)));
      // Another of the owner's maps had the short name asked for: the notice says so.
      const wanted = before && before !== updated.shortName ? `&wanted=${encodeURIComponent(before)}` : '';
      ctx.status = 303;
      ctx.redirect(`${mapPath(updated)}?settings=saved${wanted}#map-settings`);
    } catch (error) {
      if (error instanceof SettingRefused) {
        return again(STATUS[error.code] ?? 400, { errors: { [error.argument]: error.message }, error: 'Nothing was saved: see the messages next to the fields.' });
      }
      if (!(error instanceof AppError)) throw error;
      if (error.code === 'permission_denied') return messagePage(ctx, 403, 'Not yours to change', error.message, { href: mapPath(found.map), text: 'Back to the map' });
      if (error.code === 'map_not_found') {
        // Deleted or unshared in the meantime.
        return messagePage(ctx, 404, 'No such map', 'There is no map with this number, or you may not see it.', { href: '/maps', text: 'Your maps' });
      }
      // Anything else the write refuses (none is expected of settings): the form again with the message.
      return again(STATUS[error.code] ?? 400, { error: error.message });
    }
  });
}
