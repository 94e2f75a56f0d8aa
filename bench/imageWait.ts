// Waiting for a map's static image: its `{map url}/static.png` answers a placeholder (ETag
// "placeholder-static") until the renderer has stored the first image (api/mapImages.ts).
import type { BenchService } from './service.js';

/** Polls the map's image every 20 ms until it is the rendered one; returns the milliseconds waited. */
export async function waitForImage(service: BenchService, mapUrl: string, timeoutMs = 180_000): Promise<number> {
  const started = performance.now();
  const address = `${service.base}${new URL(mapUrl).pathname}/static.png`;
  for (;;) {
    // A service whose event loop was held up may have dropped the idle connection: ask again.
    const response = await fetch(address, { method: 'HEAD', headers: { authorization: `Token ${service.key}` } }).catch(() => null);
    if (response?.status === 200 && !response.headers.get('etag')?.startsWith('"placeholder-')) return performance.now() - started;
    if (performance.now() - started > timeoutMs) throw new Error(`no static image for ${mapUrl} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
