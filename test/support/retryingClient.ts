// A client program's side of the fault and scale-out tests: a request sent through one API
// process and, when it fails or is given up on purpose, sent again through another with the same
// Idempotency-Key, until it gets an answer that is not "try again". Also a seeded random source,
// so a run's choices (which requests are given up, which repeated) are the same every time.
import type { Answer } from './apiRequests.js';

/** Error codes that mean "try again later" (the service's own words in README's error table). */
const TRY_AGAIN = new Set(['service_unavailable', 'server_busy']);

export interface Attempts {
  answer: Answer;
  /** Requests sent, the successful one included. */
  sent: number;
}

export interface RetryPlan {
  /** API base URLs; attempt n goes to urls[(first + n) % urls.length]. */
  urls: string[];
  first: number;
  /** Gives the first attempt up after this long (a client timing out while the server works on). */
  giveUpFirstAfterMs?: number;
  /** Attempts before the request counts as failed. */
  maxAttempts?: number;
  /** Pause between attempts. */
  pauseMs?: number;
  /** How long an attempt may last before the client gives it up (default 3 minutes). */
  attemptTimeoutMs?: number;
  /** Which answers are tried again (default: service_unavailable and server_busy). */
  tryAgain?: (answer: Answer) => boolean;
  /** Called with each failed attempt's answer or error (a test may judge them). */
  onFailure?: (failure: Answer | Error) => void;
}

/** Sends until an answer that is not "try again" comes back; a transport failure or give-up is retried. HTTP errors other than 200 are thrown at once (never expected). */
export async function sendWithRetries(plan: RetryPlan, send: (url: string, signal: AbortSignal) => Promise<Answer>): Promise<Attempts> {
  const maxAttempts = plan.maxAttempts ?? 8;
  let last: unknown;
  for (let n = 0; n < maxAttempts; n++) {
    const url = plan.urls[(plan.first + n) % plan.urls.length]!;
    const timeout = n === 0 && plan.giveUpFirstAfterMs !== undefined ? plan.giveUpFirstAfterMs : (plan.attemptTimeoutMs ?? 180_000);
    try {
      const answer = await send(url, AbortSignal.timeout(timeout));
      if (!(plan.tryAgain ?? ((a: Answer) => TRY_AGAIN.has(a.error_code)))(answer)) return { answer, sent: n + 1 };
      plan.onFailure?.(answer);
      last = `${answer.error_code}: ${answer.error}`;
    } catch (error) {
      if (/^HTTP \d+/.test((error as Error).message)) throw error;
      plan.onFailure?.(error as Error);
      last = error;
    }
    if (plan.pauseMs) await new Promise((resolve) => setTimeout(resolve, plan.pauseMs));
  }
  throw new Error(`no answer after ${maxAttempts} attempts; the last: ${String(last)}`);
}

/** A seeded pseudo-random source in [0, 1) (mulberry32). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
