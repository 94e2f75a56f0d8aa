// The web application's server side: the pages (server-rendered Preact, web/pages/), the embed
// and oEmbed, a map's data for its page, the static files, and the session and form checks the
// pages share. Mounted by api/app.ts before the map image routes.
import path from 'node:path';
import Router from '@koa/router';
import type { Context } from 'koa';
import { koaBody } from 'koa-body';
import { h } from 'preact';
import { accountRepository } from '../../db/accounts.js';
import type { Db } from '../../db/connection.js';
import { webAccountRepository } from '../../db/webAccounts.js';
import type { BlobStore } from '../../lib/blobs/blobStore.js';
import type { Config } from '../../lib/config.js';
import { createMailer } from '../../lib/mail.js';
import { logInternalError } from '../internalErrorLog.js';
import type { JobGateway } from '../jobs.js';
import { TileCache } from '../../lib/render/tileCache.js';
import type { TileSettings } from '../../lib/render/xyzBackground.js';
import { MessagePage } from '../../web/pages/accountPages.js';
import { HomePage } from '../../web/pages/homePage.js';
import { mountAccountRoutes } from './accountRoutes.js';
import { mountApiReference } from './apiReference.js';
import { mountAssets } from './assets.js';
import { mountBasemapPreviews, mountMapBasemapPreviews } from './basemapPreviews.js';
import { mountEmbedRoutes } from './embedRoutes.js';
import { mountMapBasemap } from './mapBasemap.js';
import { mountMapData } from './mapData.js';
import { mountEditorEndpoints } from './editorEndpoints/index.js';
import { mountMapDownloads } from './mapDownloads.js';
import { mountMapListRoutes } from './mapListRoutes.js';
import { mountMapPage } from './mapPageRoute.js';
import { mountMapSettings, SETTINGS_FORM_LIMIT } from './mapSettingsRoute.js';
import { mountMapVisibility } from './mapVisibilityRoute.js';
import { mountOgcRoutes } from './ogcRoutes.js';
import { mountPlaceSearch } from './placeSearchRoute.js';
import { answerPage } from './pageAnswer.js';
import { checkForm } from './security.js';
import { loadViewer, type WebState } from './session.js';
import { mountSettingsRoutes } from './settingsRoutes.js';

export interface WebDeps {
  config: Config;
  db: Db;
  blobs: BlobStore;
  jobs: JobGateway;
  /** Tests: commercial basemap tiles from a local tile server. */
  tiles?: Partial<TileSettings>;
}

function refused(ctx: Context): void {
  answerPage(ctx, {
    status: 403,
    title: 'Form refused',
    body: h(MessagePage, {
      heading: 'This form was refused',
      message: 'It came from another site, or it was open too long ago. Go back, reload the page and send it again.',
    }),
  });
}

export function mountWeb(router: Router, deps: WebDeps): void {
  const web = webAccountRepository(deps.db);
  // SMTP_URL, else the outbox folder (lib/mail.ts).
  const mailer = createMailer({ smtpUrl: deps.config.smtpUrl, from: deps.config.mailFrom, outboxDir: path.join(deps.config.dataDir, 'outbox') });
  const viewer = loadViewer(web);
  const form = [koaBody({ urlencoded: true, json: false, multipart: false, formLimit: '32kb' }), checkForm(deps.config.publicUrl, refused)];
  const pages = new Router();
  pages.use(viewer);
  pages.get('/', (ctx) => answerPage(ctx, { title: 'Maps', body: h(HomePage, { signedIn: !!(ctx.state as WebState).viewer }) }));
  const accounts = { accounts: accountRepository(deps.db), web, mailer, publicUrl: deps.config.publicUrl };
  mountAccountRoutes(pages, accounts, form);
  mountSettingsRoutes(pages, accounts, form, deps);
  mountMapListRoutes(pages, deps, form);
  const editing = { db: deps.db, config: deps.config, jobs: deps.jobs, log: logInternalError };
  mountEditorEndpoints(pages, { ...editing, blobs: deps.blobs });
  // The API process's own cache of commercial basemap tiles (the renderer keeps one too, in the same folder).
  const tiles: TileSettings = {
    cache: new TileCache({ dir: deps.config.tileCacheDir, maxBytes: deps.config.tileCacheMaxBytes }),
    timeoutMs: deps.config.tileTimeoutMs,
    allowPrivateAddresses: deps.config.basemapsAllowPrivate,
    ...deps.tiles,
  };
  const basemaps = { db: deps.db, config: deps.config, tiles };
  mountMapBasemap(router, basemaps);
  // Before the map pages: /places/… is never an owner's map ('places' is a reserved username).
  mountPlaceSearch(router);
  // Last: any other two-segment path is a map's address.
  // The map settings form: a description may be 100,000 characters, more than the other forms' limit.
  const settingsForm = [koaBody({ urlencoded: true, json: false, multipart: false, formLimit: SETTINGS_FORM_LIMIT }), checkForm(deps.config.publicUrl, refused)];
  mountMapSettings(pages, basemaps, settingsForm, deps);
  mountMapVisibility(pages, deps.db, form, deps);
  mountMapBasemapPreviews(pages, basemaps);
  mountMapPage(pages, basemaps);
  mountEmbedRoutes(router, basemaps);
  mountMapData(router, deps.db);
  mountMapDownloads(router, deps.db, deps.blobs, deps.config.publicUrl);
  mountOgcRoutes(router, deps.db, deps.config.publicUrl);
  mountAssets(router);
  mountApiReference(router);
  mountBasemapPreviews(router);
  router.use(pages.routes());
}

/** A page for any other address a browser asks for (after every route). */
export async function notFoundPage(ctx: Context, next: () => Promise<unknown>): Promise<void> {
  await next();
  if (ctx.status !== 404 || ctx.body !== undefined || !['GET', 'HEAD'].includes(ctx.method)) return;
  answerPage(ctx, {
    status: 404,
    title: 'Not found',
    body: h(MessagePage, { heading: 'Page not found', message: 'There is nothing at this address.', link: { href: '/', text: 'Go to the start page' } }),
  });
}
