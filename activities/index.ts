// Every activity, built over injected dependencies. Activity names are a persisted contract:
// the keys of this object are what workflows call.
import type { Client } from '@temporalio/client';
import { makeAppendDuringParse } from './appendDuringParse.js';
import { makeAppendToMap } from './appendToMap.js';
import { makeCreateMap } from './createMap.js';
import { makeDeleteBlobs } from './deleteBlobs.js';
import { makeDeleteUnusedMedia } from './deleteUnusedMedia.js';
import type { ActivityDeps } from './deps.js';
import { makeParseFile } from './parseFile.js';
import { makePruneMapVersions } from './pruneMapVersions.js';
import { makeRenderMapImage } from './renderMapImage.js';
import { makeStartMapImage } from './startMapImage.js';
import { makeUploadDuringParse } from './uploadDuringParse.js';
import { makeStoreMediaUpload } from './storeMediaUpload.js';
import { makeSweepOrphanBlobs } from './sweepOrphanBlobs.js';
import { makeEmitWebhookEvent, makeGiveUpWebhook, makeSendWebhook } from './webhooks.js';
import type { ParserPool } from './parserPool.js';
import type { RenderPool } from './renderPool.js';

/** `temporal`: the worker's client, for the activities that start workflows (startMapImage). */
export function createActivities(deps: ActivityDeps, parsers: ParserPool, temporal: Client) {
  return {
    parseFile: makeParseFile(deps, parsers),
    createMap: makeCreateMap(deps),
    uploadDuringParse: makeUploadDuringParse(deps, parsers),
    appendToMap: makeAppendToMap(deps),
    appendDuringParse: makeAppendDuringParse(deps, parsers),
    deleteBlobs: makeDeleteBlobs(deps),
    startMapImage: makeStartMapImage(temporal),
    sweepOrphanBlobs: makeSweepOrphanBlobs(deps),
    emitWebhook: makeEmitWebhookEvent(deps, temporal),
    sendWebhook: makeSendWebhook(deps),
    giveUpWebhook: makeGiveUpWebhook(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;

/** The activities of the `media` task queue: image and marker processing, the cleanup of unused media and of old map versions. */
export function createMediaActivities(deps: ActivityDeps) {
  return {
    storeMediaUpload: makeStoreMediaUpload(deps),
    deleteUnusedMedia: makeDeleteUnusedMedia(deps),
    pruneMapVersions: makePruneMapVersions(deps),
  };
}

export type MediaActivities = ReturnType<typeof createMediaActivities>;
export { ParserPool } from './parserPool.js';
export { RenderPool } from './renderPool.js';
export type { ActivityDeps } from './deps.js';

/** The activities of the `render` task queue: a map's static image and thumbnail. */
export function createRenderActivities(deps: ActivityDeps, renderer: RenderPool) {
  return {
    renderMapImage: makeRenderMapImage(deps, renderer),
  };
}

export type RenderActivities = ReturnType<typeof createRenderActivities>;
