// What one of the editor's JSON endpoints is (DESIGN.md habit 11, as an API operation is): its
// method and path, what it does, what it is sent and the lib/ type of its answer (which the
// browser imports), its body parser and its handler. Each endpoint's file under editorEndpoints/
// exports one; editorEndpoints/index.ts is their route table, mounted with what they all share.
import type { Context, Middleware } from 'koa';
import type { BlobStore } from '../../lib/blobs/blobStore.js';
import type { Config } from '../../lib/config.js';
import type { JobGateway } from '../jobs.js';
import type { EditorDeps } from './editorAccess.js';

/** What the endpoints are given: the editor's deps, with the blob store and whole config the uploads need. */
export interface EditorEndpointDeps extends EditorDeps {
  blobs: BlobStore;
  config: Config;
  jobs: JobGateway;
}

export interface EditorEndpoint {
  method: 'get' | 'post';
  /** The router's path: "/maps/:id/save". */
  path: string;
  summary: string;
  /** What the request carries. */
  sends: 'nothing' | 'json' | 'multipart';
  /** The answer's type in lib/ ("lib/webSave.ts WebSaveAnswer"), or what it is when not JSON. */
  answers: string;
  /** Reads the body before the handler (a JSON body's parser, sized from the settings). */
  body?: (deps: EditorEndpointDeps) => Middleware;
  handle(ctx: Context, deps: EditorEndpointDeps): Promise<void>;
}

/** Declares an endpoint: `export const endpoint = defineEditorEndpoint({…})`. */
export const defineEditorEndpoint = (endpoint: EditorEndpoint): EditorEndpoint => endpoint;
