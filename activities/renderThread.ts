// Runs in a render thread (see renderPool.ts): builds a map's scene from the feature texts the
// activity sends page by page, says which markers and backgrounds it needs, then draws the
// static image and the thumbnail (lib/render) and hands back their PNG bytes. The street map's
// tiles come in as bytes (read from the archive by the activity) and are decoded here. The
// drawing, the JSON.parse of every feature and Skia's rasterising all happen here, off the event
// loop of the process that answers requests. Only structured-cloneable values cross the thread
// boundary.
import fs from 'node:fs';
import os from 'node:os';
import type { MessagePort } from 'node:worker_threads';
import { ImageData, loadImage, type Image } from '@napi-rs/canvas';
import type { Basemap } from '../lib/basemaps.js';
import type { WorldBounds } from '../lib/render/mercator.js';
import { renderMapImage, STATIC_IMAGE, THUMBNAIL, type BackgroundPainter, type ImageSize } from '../lib/render/renderMap.js';
import { Scene } from '../lib/render/scene.js';
import type { StreetTileBytes } from '../lib/render/streetMap.js';
import { releaseLargeBuffers } from './threadBuffers.js';

export interface RenderTask {
  /** The activity's end of a channel: feature pages come in, the scene's needs go out. */
  port: MessagePort;
  /** The catalogue's entry itself: the operator's basemaps are in the catalogue of the process that started the thread, not the thread's. */
  basemap: Basemap;
}

/** Activity → thread. */
export type ToRenderThread =
  | { type: 'features'; texts: string[] }
  | { type: 'end' }
  | {
      type: 'assets';
      markers: [string, Uint8Array][];
      /** The images of the scene's overlays, by image id. */
      overlays: [string, Uint8Array][];
      backgrounds: { static: Uint8Array; thumbnail: Uint8Array } | null;
      /** A built-in basemap's street map tiles for each image's view (none without a street archive). */
      streets: { static: StreetTileBytes[]; thumbnail: StreetTileBytes[] } | null;
    };

/** Thread → activity. */
export type FromRenderThread = { type: 'page-read' } | { type: 'scene'; markerIds: string[]; overlayImageIds: string[]; bounds: WorldBounds | null; features: number };

export interface RenderThreadResult {
  static: Uint8Array;
  thumbnail: Uint8Array;
}

/** The sizes drawn, in the order of RenderThreadResult. */
export const IMAGE_SIZES = { static: STATIC_IMAGE, thumbnail: THUMBNAIL } as const;

/** How nice this thread is made (Linux): the scheduler gives the process's other threads, which answer requests, the CPU first. */
const NICENESS = 10;
let niced = false;

/**
 * Lowers this thread's scheduling priority. On Linux, setpriority(PRIO_PROCESS) with a thread id
 * changes that thread alone; /proc/thread-self names the calling thread's id. Elsewhere a no-op.
 */
function lowerPriority(): void {
  if (niced) return;
  niced = true;
  try {
    const tid = Number(fs.readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0 && tid !== process.pid) os.setPriority(tid, Math.max(os.getPriority(tid), NICENESS));
  } catch {
    // not Linux, or not allowed: the thread still keeps the event loop free
  }
}

/** The other side of the channel closed it: it failed (its own error is the one to report) or gave up. */
export class AbandonedError extends Error {
  constructor() {
    super('The render was abandoned by the other side');
  }
}

/** The messages of one end of the channel, in order, one at a time; the other side closing it ends every wait. */
export class Inbox<T> {
  private readonly queue: T[] = [];
  private readonly waiting: { resolve(message: T): void; reject(error: Error): void }[] = [];
  private closed = false;

  constructor(port: MessagePort) {
    port.on('message', (message: T) => {
      const waiter = this.waiting.shift();
      if (waiter) waiter.resolve(message);
      else this.queue.push(message);
    });
    port.on('close', () => {
      this.closed = true;
      this.waiting.splice(0).forEach((waiter) => waiter.reject(new AbandonedError()));
    });
  }

  next(): Promise<T> {
    if (this.queue.length > 0) return Promise.resolve(this.queue.shift()!);
    if (this.closed) return Promise.reject(new AbandonedError());
    return new Promise<T>((resolve, reject) => this.waiting.push({ resolve, reject }));
  }
}

const painterOf = (bytes: Uint8Array, size: ImageSize): BackgroundPainter => async (ctx) => {
  ctx.putImageData(new ImageData(new Uint8ClampedArray(bytes.buffer, bytes.byteOffset, bytes.byteLength), size.width, size.height), 0, 0);
};

// After a job that made large buffers, the thread collects (threadBuffers.ts says why).
export async function renderInThread(task: RenderTask): Promise<RenderThreadResult> {
  try {
    return await render(task);
  } finally {
    await releaseLargeBuffers();
  }
}

async function render(task: RenderTask): Promise<RenderThreadResult> {
  lowerPriority();
  const { port } = task;
  const inbox = new Inbox<ToRenderThread>(port);
  try {
    const scene = new Scene();
    let features = 0;
    for (;;) {
      const message = await inbox.next();
      if (message.type === 'end') break;
      if (message.type !== 'features') throw new Error(`Unexpected message ${message.type}`);
      for (const text of message.texts) scene.addFeatureText(text);
      features += message.texts.length;
      port.postMessage({ type: 'page-read' } satisfies FromRenderThread);
    }
    const markerIds = [...new Set(scene.points.flatMap((point) => (point.markerId ? [point.markerId] : [])))];
    const overlayImageIds = [...new Set(scene.overlays.map((overlay) => overlay.imageId))];
    port.postMessage({ type: 'scene', markerIds, overlayImageIds, bounds: scene.bounds, features } satisfies FromRenderThread);
    const assets = await inbox.next();
    if (assets.type !== 'assets') throw new Error(`Unexpected message ${assets.type}`);
    const markers = new Map<string, Image>();
    for (const [id, bytes] of assets.markers) markers.set(id, await loadImage(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)));
    const overlays = new Map<string, Image>();
    for (const [id, bytes] of assets.overlays) {
      try {
        overlays.set(id, await loadImage(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)));
      } catch {
        // an image Skia cannot read: its overlay is left out
      }
    }
    const basemap = task.basemap;
    const draw = (name: keyof typeof IMAGE_SIZES) => {
      const size = IMAGE_SIZES[name];
      const background = assets.backgrounds?.[name];
      const streets = assets.streets?.[name];
      return renderMapImage({ scene, basemap, markers, overlays, ...(background ? { paintTiles: painterOf(background, size) } : {}), ...(streets ? { streets } : {}) }, size);
    };
    const images = { static: await draw('static'), thumbnail: await draw('thumbnail') };
    return images;
  } finally {
    port.close();
  }
}
