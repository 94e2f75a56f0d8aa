// A burst of appends to one map, as client programs send them while part of the service is
// down: each client appends its files one after the other, each with its own Idempotency-Key,
// and sends a failed append again (same key, any error answer or lost connection) until it is
// answered. Each file holds points titled after its key, so the test can count them in the map.
import { pointsFile, sendFile, type Answer } from './apiRequests.js';
import { sendWithRetries } from './retryingClient.js';

export interface BurstOptions {
  urls: string[];
  key: string;
  mapId: number;
  /** Keys are `<prefix>-c<client>-a<n>`. */
  prefix: string;
  clients: number;
  appendsPerClient: number;
  featuresPerAppend: number;
  /** Called after each answered append with how many are answered so far. */
  onAnswered?: (answered: number) => void;
}

export interface BurstAppend {
  key: string;
  answer: Answer;
  /** Answers and errors of the attempts that failed before it was answered. */
  failures: (Answer | Error)[];
  /** When its first attempt was sent and when it was answered (epoch ms). */
  sentAt: number;
  answeredAt: number;
}

export async function appendBurst(options: BurstOptions): Promise<BurstAppend[]> {
  let answered = 0;
  const clients = Array.from({ length: options.clients }, async (_, client) => {
    const appends: BurstAppend[] = [];
    for (let n = 0; n < options.appendsPerClient; n++) {
      const key = `${options.prefix}-c${client}-a${n}`;
      const args = { map_id: options.mapId, file_type: 'geojson' };
      const file = pointsFile(key, options.featuresPerAppend);
      const failures: (Answer | Error)[] = [];
      const sentAt = Date.now();
      const { answer } = await sendWithRetries(
        { urls: options.urls, first: client, maxAttempts: 120, pauseMs: 500, tryAgain: (a) => a.error !== undefined, onFailure: (f) => failures.push(f) },
        (url, signal) => sendFile(url, 'map/append', options.key, args, file, { idempotencyKey: key, signal }),
      );
      appends.push({ key, answer, failures, sentAt, answeredAt: Date.now() });
      options.onAnswered?.(++answered);
    }
    return appends;
  });
  return (await Promise.all(clients)).flat();
}

/** Resolves once `predicate` holds (checked every 50 ms). */
export async function until(predicate: () => boolean, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`condition not reached within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
