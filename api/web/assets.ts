// The web pages' static files: the stylesheet, the settings page's script, the map front end
// (web/app/, bundled by esbuild at its first request after start: never a file in the tree),
// MapLibre GL JS's own module files (the bundle imports them; MapLibre finds its worker beside
// its main module) and the Maki icons the map draws points with.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type Router from '@koa/router';
import type { Context } from 'koa';
import { build, type Plugin } from 'esbuild';
import { makiName, makiNames, makiSvg, whiteMakiSvg } from '../../lib/makiIcons.js';

const require = createRequire(import.meta.url);
const WEB = path.join(import.meta.dirname, '../../web');
const MAPLIBRE_DIR = path.dirname(require.resolve('maplibre-gl/package.json'));
const MAPLIBRE_FILES = new Set(['maplibre-gl.mjs', 'maplibre-gl-shared.mjs', 'maplibre-gl-worker.mjs', 'maplibre-gl.css']);

const CONTENT_TYPES: Record<string, string> = { '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.svg': 'image/svg+xml' };

/** MapLibre stays out of the bundle: the browser loads its own files from /assets/maplibre/. */
const maplibreExternal: Plugin = {
  name: 'maplibre-external',
  setup(builder) {
    builder.onResolve({ filter: /^maplibre-gl$/ }, () => ({ path: '/assets/maplibre/maplibre-gl.mjs', external: true }));
  },
};

let bundle: Promise<Buffer> | undefined;

/** The front end's bundle, built once per process. */
function appBundle(): Promise<Buffer> {
  bundle ??= build({
    entryPoints: [path.join(WEB, 'app/main.ts')],
    bundle: true,
    format: 'esm',
    target: 'es2022',
    minify: true,
    write: false,
    plugins: [maplibreExternal],
    logLevel: 'silent',
  }).then(
    (result) => Buffer.from(result.outputFiles[0]!.contents),
    (error) => {
      bundle = undefined; // a failed build is tried again at the next request
      throw error;
    },
  );
  return bundle;
}

function send(ctx: Context, file: string, bytes: Buffer, maxAge: number): void {
  ctx.set('Cache-Control', `public, max-age=${maxAge}`);
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.type = CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream';
  ctx.body = bytes;
}

const cached = new Map<string, Buffer>();
const readOnce = (file: string): Buffer => {
  let bytes = cached.get(file);
  if (!bytes) {
    bytes = fs.readFileSync(file);
    cached.set(file, bytes);
  }
  return bytes;
};

export function mountAssets(router: Router): void {
  router.get('/assets/site.css', (ctx) => send(ctx, 'site.css', readOnce(path.join(WEB, 'styles/site.css')), 3600));
  router.get('/assets/favicon.svg', (ctx) => send(ctx, 'favicon.svg', readOnce(path.join(WEB, 'assets/favicon.svg')), 86400));
  router.get('/assets/settings.js', (ctx) => send(ctx, 'settings.js', readOnce(path.join(WEB, 'assets/settings.js')), 3600));
  router.get('/assets/app.js', async (ctx) => send(ctx, 'app.js', await appBundle(), 300));
  router.get('/assets/maplibre/:file', (ctx) => {
    const file = ctx.params.file ?? '';
    if (!MAPLIBRE_FILES.has(file)) return;
    send(ctx, file, readOnce(path.join(MAPLIBRE_DIR, 'dist', file)), 86400);
  });
  // The icon names, for the editor's icon field.
  router.get('/assets/maki-names.json', (ctx) => {
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.body = makiNames();
  });
  // At 30 px: the map draws them at 15 CSS px. `{name}.svg` white (on a coloured circle, as the
  // static image does), `{name}-{rrggbb}.svg` in that colour (the street map's points of interest).
  router.get('/assets/maki/:file', (ctx) => {
    const [, name, colour] = /^([a-z0-9-]{1,40}?)(?:-([0-9a-f]{6}))?\.svg$/.exec(ctx.params.file ?? '') ?? [];
    if (!name || makiName(name) !== name) return;
    send(ctx, ctx.params.file!, colour ? makiSvg(name, 30, `#${colour}`) : whiteMakiSvg(name, 30), 86400);
  });
}
