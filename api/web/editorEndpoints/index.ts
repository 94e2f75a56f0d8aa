// The editor's JSON endpoints' route table (DESIGN.md habit 11): each endpoint's own file says
// what it is (editorEndpoint.ts); here they are mounted with what they all share. Each is for a
// logged-in owner or editor of the map (the handler asks: editorAccess.ts mapForEditor); a POST
// comes from the map's own page (same-origin, the page's form token in X-CSRF-Token); failures
// are answered as JSON {"error", "error_code"} with their HTTP status; nothing is cached.
import type Router from '@koa/router';
import type { Context, Next } from 'koa';
import { jsonErrors } from '../editorAccess.js';
import type { EditorEndpoint, EditorEndpointDeps } from '../editorEndpoint.js';
import { checkJsonRequest } from '../security.js';
import { endpoint as images } from './images.js';
import { endpoint as mapImport } from './mapImport.js';
import { endpoint as mapSave } from './mapSave.js';
import { endpoint as markers } from './markers.js';
import { endpoint as versionDocument } from './versionDocument.js';
import { endpoint as versionList } from './versionList.js';
import { endpoint as versionRestore } from './versionRestore.js';

export const EDITOR_ENDPOINTS: readonly EditorEndpoint[] = [mapSave, versionList, versionDocument, versionRestore, mapImport, images, markers];

async function noStore(ctx: Context, next: Next): Promise<void> {
  ctx.set('Cache-Control', 'no-store');
  await next();
}

export function mountEditorEndpoints(router: Router, deps: EditorEndpointDeps): void {
  for (const endpoint of EDITOR_ENDPOINTS) {
    const before = [...(endpoint.method === 'post' ? [checkJsonRequest(deps.config.publicUrl)] : []), jsonErrors, noStore, ...(endpoint.body ? [endpoint.body(deps)] : [])];
    router[endpoint.method](endpoint.path, ...before, (ctx: Context) => endpoint.handle(ctx, deps));
  }
}
