// One workflow per map, `map-image:<id>`, renders its static image (activity on the `render`
// task queue). Renders asked for by map/refresh_image (an update, which answers) and by web saves
// (a signal, which does not wait) are at least `spacingMs` apart, start to start, kept by a workflow timer: the
// first renders at once; any number of requests during the cool-down coalesce into one render at
// its end. A new map's first image (map/upload) does not start the cool-down. The run continues
// as new when its history grows, and ends when nothing is asked of it: at the end of a cool-down
// with no request waiting, or after 30 minutes idle (a later request starts a new run, which
// cannot break the spacing: the last cool-down is over).
import { ActivityFailure, ApplicationFailure, allHandlersFinished, condition, continueAsNew, patched, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { RenderActivities } from '../activities/index.js';
import { writing } from './activityOptions.js';
import type { MapImageInput, RefreshImageAnswer, RenderMapImageResult } from '../lib/jobContracts.js';
import { mapSavedSignal, refreshImageUpdate } from './mapImageMessages.js';

const IDLE_MS = 30 * 60_000;
const DEFAULT_HISTORY_LIMIT = 2_000;

const mapGoneFailure = () => ApplicationFailure.create({ type: 'map_not_found', message: 'The map no longer exists.', nonRetryable: true });

/**
 * What a waiting map/refresh_image is told when its render failed: the renderer's own error
 * (a provider key missing or refused, tiles unavailable), else an internal error. An update must
 * fail with an ApplicationFailure; anything else would fail the workflow task instead.
 */
function refreshFailure(error: unknown): ApplicationFailure {
  const cause = error instanceof ActivityFailure ? error.cause : error;
  if (cause instanceof ApplicationFailure && cause.type) {
    return ApplicationFailure.create({ type: cause.type, message: cause.message, nonRetryable: true });
  }
  return ApplicationFailure.create({ type: 'internal_error', message: 'The image could not be rendered; please try again later.', nonRetryable: true });
}

interface Waiter {
  resolve(answer: RefreshImageAnswer): void;
  reject(error: unknown): void;
}

export async function mapImage(input: MapImageInput): Promise<void> {
  const { renderMapImage } = proxyActivities<RenderActivities>({
    taskQueue: input.renderTaskQueue,
    startToCloseTimeout: '2 minutes',
    // The activity heartbeats every 2 s: a worker that died mid-render is noticed within 30 s.
    heartbeatTimeout: '30 seconds',
    // A map that cannot be drawn (a missing or refused provider key) fails at once; a worker that
    // died mid-render is retried a few times.
    retry: { maximumAttempts: 3, initialInterval: '2 seconds' },
  });
  let coolDownUntil = input.coolDownUntil ?? null;
  let pending = input.pending ?? false;
  let initialRender = input.initialRender ?? false;
  let mapGone = false;
  const waiters: Waiter[] = [];
  const coolingDown = () => coolDownUntil !== null && Date.now() < coolDownUntil;

  setHandler(refreshImageUpdate, async (): Promise<RefreshImageAnswer> => {
    if (mapGone) throw mapGoneFailure();
    pending = true;
    if (coolingDown()) return { refreshed: false, nextRenderAt: coolDownUntil! };
    return new Promise<RefreshImageAnswer>((resolve, reject) => waiters.push({ resolve, reject }));
  });

  setHandler(mapSavedSignal, () => {
    if (!mapGone) pending = true;
  });

  const render = async (): Promise<RenderMapImageResult> => {
    const result = await renderMapImage({ mapId: input.mapId });
    if (!result.rendered) mapGone = true;
    // map.image_refreshed to the owner's webhooks (a local activity that records the deliveries and
    // starts their workflows; it never fails). Runs before this change replay without it.
    else if (patched('webhook-image-refreshed')) {
      await writing.emitWebhook({ type: 'map.image_refreshed', mapId: input.mapId, data: { rendered_at: result.renderedAt } });
    }
    return result;
  };

  for (;;) {
    if (initialRender) {
      initialRender = false;
      await render().catch(() => undefined); // a new map keeps its placeholder; the next refresh tries again
    }
    if (mapGone) break;
    const wait = coolingDown() ? coolDownUntil! - Date.now() : IDLE_MS;
    const due = await condition(() => pending && !coolingDown(), wait);
    if (!due) {
      // The cool-down ended with nothing asked for, or nothing was asked for a long time: done.
      // (A request waiting at the cool-down's end makes `due` true on the next turn.)
      if (pending || coolingDown()) continue;
      break;
    }
    pending = false;
    const batch = waiters.splice(0);
    coolDownUntil = Date.now() + input.spacingMs;
    try {
      const result = await render();
      for (const waiter of batch) {
        if (result.rendered) waiter.resolve({ refreshed: true, renderedAt: result.renderedAt });
        else waiter.reject(mapGoneFailure());
      }
    } catch (error) {
      coolDownUntil = null; // a failed render does not count
      batch.forEach((waiter) => waiter.reject(refreshFailure(error)));
    }
    if (mapGone) break;
    if (workflowInfo().historyLength >= (input.historyLimit ?? DEFAULT_HISTORY_LIMIT) || workflowInfo().continueAsNewSuggested) {
      await condition(allHandlersFinished);
      if (waiters.length === 0) {
        await continueAsNew<typeof mapImage>({ ...input, initialRender: false, coolDownUntil, pending });
      }
    }
  }
  waiters.splice(0).forEach((waiter) => waiter.reject(mapGoneFailure()));
  await condition(allHandlersFinished);
}
