// What a request costs from its rate-limit buckets, as the request learns it. The limiter
// (rateLimits.ts) gives each request a RateMeter with its buckets (the client address's; the API
// key's once it is known); an operation that finds out it is heavier — map/get a large map,
// map/update a whole new GeoJSON — charges the difference here. Kept light: operation modules
// (which argument threads load too) import only this.
import type { Context } from 'koa';
import type { RateLimits } from '../lib/limitsConfig.js';
import { RateLimited } from '../lib/rateLimited.js';
import type { BucketRule, TokenBucketStore } from '../lib/tokenBuckets.js';

const MB = 1024 * 1024;

export interface RateSubject {
  /** The bucket's name: "ip:203.0.113.7", "key:mps_AbCdEfGhIj". */
  subject: string;
  rule: BucketRule;
  /** How the refusal names it: "from this address", "with this API key". */
  who: string;
}

/** One request's buckets: each is charged the request's whole cost, once. */
export class RateMeter {
  private readonly charged = new Map<RateSubject, number>();
  /** The request's cost so far. */
  cost = 0;

  constructor(
    private readonly store: TokenBucketStore,
    readonly limits: RateLimits,
  ) {}

  /** Adds a bucket; it is charged what the request has cost so far at the next charge. */
  add(subject: RateSubject): void {
    this.charged.set(subject, 0);
  }

  /**
   * Brings the request's cost up to `cost` (never down), charging each bucket what it has not
   * paid, the last added (the key's) first: a key past its limit does not use up its address's
   * bucket too. Throws RateLimited when a bucket refuses.
   */
  async chargeUpTo(cost: number): Promise<void> {
    this.cost = Math.max(this.cost, cost);
    for (const [subject, paid] of [...this.charged].reverse()) {
      if (paid >= this.cost) continue;
      const grant = await this.store.take(subject.subject, subject.rule, this.cost - paid);
      if (!grant.granted) throw new RateLimited(grant.retryAfterMs, subject.who);
      this.charged.set(subject, this.cost);
    }
  }
}

export const meterOf = (ctx: Context): RateMeter | undefined => ctx.state.rateMeter as RateMeter | undefined;

/** A file operation's cost (what map/upload, map/append, image/upload and marker/upload cost). */
export const fileCost = (limits: RateLimits): number => limits.fileWeight;

/** map/get's cost: 1, plus mbWeight per whole MB of the map's GeoJSON (known from the maps row, without reading the map). */
export const mapReadCost = (limits: RateLimits, contentBytes: number): number => 1 + limits.mbWeight * Math.floor(contentBytes / MB);

/** map/get, once the map's size is known: charges the rest of its cost (RateLimited past the budget). */
export async function chargeMapRead(ctx: Context, contentBytes: number): Promise<void> {
  const meter = meterOf(ctx);
  if (meter) await meter.chargeUpTo(mapReadCost(meter.limits, contentBytes));
}

/** map/update with a geojson: the cost of a file operation (RateLimited past the budget). */
export async function chargeFileWrite(ctx: Context): Promise<void> {
  const meter = meterOf(ctx);
  if (meter) await meter.chargeUpTo(fileCost(meter.limits));
}
