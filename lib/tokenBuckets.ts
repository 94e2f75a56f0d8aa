// Token buckets: a subject (an API key, a client address) may spend up to `burst` tokens at once,
// and gets `perMinute` back per minute, continuously. A request costs its weight; a bucket that
// holds less is refused without being charged, and told how long until it holds enough.
// The in-memory store lives here; the PostgreSQL one (shared by every API process) is
// db/rateBuckets.ts, behind the same interface.

export interface BucketRule {
  /** The most tokens a bucket holds (what a subject may spend at once). */
  burst: number;
  /** Tokens added per minute. */
  perMinute: number;
}

export type Grant = { granted: true } | { granted: false; retryAfterMs: number };

export interface TokenBucketStore {
  /**
   * Takes `cost` tokens from the subject's bucket, or none when it holds fewer (a cost above the
   * burst counts as the burst: a full bucket pays for anything).
   */
  take(subject: string, rule: BucketRule, cost: number): Promise<Grant>;
  /**
   * Gives back `tokens` a request took and did not use (it was refused by another of its
   * buckets): the bucket is as if they had not been taken, never above its burst.
   */
  give(subject: string, rule: BucketRule, tokens: number): Promise<void>;
  close(): Promise<void>;
}

/** Milliseconds until a bucket holding `tokens` holds `cost`. */
export const waitFor = (tokens: number, cost: number, rule: BucketRule): number => Math.max(0, ((cost - tokens) * 60_000) / rule.perMinute);

/** The cost a bucket is asked for: at least 0, at most the burst. */
export const boundedCost = (cost: number, rule: BucketRule): number => Math.min(Math.max(0, cost), rule.burst);

/** A bucket's tokens after `elapsedMs` of refilling. */
export const refilled = (tokens: number, elapsedMs: number, rule: BucketRule): number => Math.min(rule.burst, tokens + (elapsedMs * rule.perMinute) / 60_000);

interface Bucket {
  tokens: number;
  at: number;
  rule: BucketRule;
}

/**
 * Buckets in this process's memory. A bucket that has filled up again is the same as none, so
 * full buckets are dropped every minute; past `maxBuckets` subjects (a crowd of addresses) the
 * least recently used are dropped too, which only ever gives a subject more.
 */
export class MemoryBuckets implements TokenBucketStore {
  private readonly buckets = new Map<string, Bucket>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly now: () => number = Date.now,
    private readonly maxBuckets = 200_000,
  ) {
    this.sweeper = setInterval(() => this.sweep(), 60_000);
    this.sweeper.unref();
  }

  async take(subject: string, rule: BucketRule, cost: number): Promise<Grant> {
    return this.takeNow(subject, rule, cost);
  }

  /** take() without a promise (the limiter's cost per request is this). */
  takeNow(subject: string, rule: BucketRule, cost: number): Grant {
    const now = this.now();
    const wanted = boundedCost(cost, rule);
    const bucket = this.buckets.get(subject);
    const tokens = bucket ? refilled(bucket.tokens, now - bucket.at, rule) : rule.burst;
    if (tokens < wanted) {
      if (bucket) {
        bucket.tokens = tokens;
        bucket.at = now;
      }
      return { granted: false, retryAfterMs: waitFor(tokens, wanted, rule) };
    }
    // Re-inserted at the end: the Map's order is the order of last use.
    this.buckets.delete(subject);
    this.buckets.set(subject, { tokens: tokens - wanted, at: now, rule });
    if (this.buckets.size > this.maxBuckets) this.buckets.delete(this.buckets.keys().next().value!);
    return { granted: true };
  }

  async give(subject: string, rule: BucketRule, tokens: number): Promise<void> {
    this.giveNow(subject, rule, tokens);
  }

  giveNow(subject: string, rule: BucketRule, tokens: number): void {
    const bucket = this.buckets.get(subject);
    if (!bucket) return; // dropped meanwhile: a full bucket again
    const now = this.now();
    bucket.tokens = Math.min(rule.burst, refilled(bucket.tokens, now - bucket.at, rule) + Math.max(0, tokens));
    bucket.at = now;
  }

  /** Drops the buckets that have filled up again. */
  sweep(): void {
    const now = this.now();
    for (const [subject, bucket] of this.buckets) {
      if (refilled(bucket.tokens, now - bucket.at, bucket.rule) >= bucket.rule.burst) this.buckets.delete(subject);
    }
  }

  get size(): number {
    return this.buckets.size;
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
  }
}
