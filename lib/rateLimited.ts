// The refusal of a rate limit: the error a client sees (`rate_limited`), with the whole seconds to
// wait that its answer carries as `retry_after` and in a Retry-After header.
import { AppError } from './errors.js';

/** "1 second", "40 seconds", "3 minutes". */
export function waitWording(seconds: number): string {
  if (seconds < 120) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  return `${Math.ceil(seconds / 60)} minutes`;
}

export class RateLimited extends AppError {
  /** Whole seconds until the request would pass (at least 1). */
  readonly retryAfterSeconds: number;

  /** `who`: "with this API key", "from this address". */
  constructor(retryAfterMs: number, who: string) {
    const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
    super('rate_limited', `Too many requests ${who}; please try again in ${waitWording(seconds)}.`);
    this.retryAfterSeconds = seconds;
  }

  /** The JSON answer: the API's {error, error_code} and the seconds to wait. */
  body(): { error: string; error_code: 'rate_limited'; retry_after: number } {
    return { error: this.message, error_code: 'rate_limited', retry_after: this.retryAfterSeconds };
  }
}
