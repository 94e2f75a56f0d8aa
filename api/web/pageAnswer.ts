// Answers a request with a server-rendered page: the page inside the Layout, as HTML with the
// security headers, at the status it means (404 is a 404, a refused form a 403).
import type { Context } from 'koa';
import type { ComponentChildren } from 'preact';
import { render } from 'preact-render-to-string';
import type { MapPageConfig } from '../../lib/mapPageConfig.js';
import { Layout } from '../../web/pages/layout.js';
import { csrfToken, PAGE_HEADERS } from './security.js';
import type { WebState } from './session.js';

export interface PageOptions {
  status?: number;
  title: string;
  body: ComponentChildren;
  styles?: string[];
  scripts?: string[];
  /** The page's oEmbed discovery address. */
  alternate?: string | undefined;
  /** A map page's front-end configuration (lib/mapPageConfig.ts). */
  mapConfig?: MapPageConfig | undefined;
}

export function answerPage(ctx: Context, options: PageOptions): void {
  const state = ctx.state as WebState;
  const viewer = state.viewer ? { username: state.viewer.username } : undefined;
  const html = render(Layout({ title: options.title, viewer, csrf: csrfToken(ctx), styles: options.styles, scripts: options.scripts, oembed: options.alternate, mapConfig: options.mapConfig, children: options.body }));
  ctx.set(PAGE_HEADERS);
  ctx.set('Cache-Control', 'no-store');
  ctx.status = options.status ?? 200;
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = `<!doctype html>${html}`;
}
