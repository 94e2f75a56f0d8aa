// What a request costs from its rate-limit buckets, as the request learns it. The limiter
// (rateLimits.ts) gives each request a RateMeter with its buckets (the client address's; the API
// key's once it is known); an operation that finds out it is heavier — map/get a large map, a
// file job's body larger than it said — charges the difference here. Kept light: operation
// modules (which argument threads load too) import only this.
//
// A file job (map/upload, map/append, image/upload, marker/upload, map/update with a geojson,
// the editor's Import and uploads) is weighed by the work it causes, not counted: its bytes, and
// how many jobs its client already has running. The first `freeFileJobs` at once pay only their
// size, so a client that sends one or two files at a time never runs its bucket dry however fast
// the service answers; each job past them pays `fileWeight` more per job running, so a hundred
// sent at once cost thousands of tokens and most are refused.
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

/**
 * The file jobs each client (a bucket's subject) has running in this process. Per process, as
 * the memory buckets: with several API processes a client's jobs are counted where they run, so a
 * flood spread over N processes gets N × freeFileJobs at the plain price, and still pays for the rest.
 */
export class JobsInFlight {
  private readonly running = new Map<string, number>();

  /** Counts a job of `subject` in; answers how many were running before it. */
  start(subject: string): number {
    const before = this.running.get(subject) ?? 0;
    this.running.set(subject, before + 1);
    return before;
  }

  end(subject: string): void {
    const left = (this.running.get(subject) ?? 1) - 1;
    if (left > 0) this.running.set(subject, left);
    else this.running.delete(subject);
  }
}

/** What a file job of `bytes` costs when `running` jobs of its client are already running. */
export const fileJobCost = (limits: RateLimits, bytes: number, running: number): number =>
  limits.mbWeight * Math.floor(bytes / MB) + limits.fileWeight * Math.max(0, running + 1 - limits.freeFileJobs);

/**
 * One request's buckets: each is brought up to the request's cost, once. A refused request gets
 * back what it paid (all but its admission, the 1 every request costs its address), so it costs
 * nothing more than that, and its `retry_after` is the time until every bucket that refused it
 * holds the whole request again: a client that waits that long and asks again passes.
 */
export class RateMeter {
  private readonly paid = new Map<RateSubject, number>();
  /** What each bucket keeps of a refused request (the address's admission). */
  private readonly kept = new Map<RateSubject, number>();
  /** The request's file job: whose it is, and how many of theirs were running when it started. */
  private job: { client: string; running: number } | undefined;

  constructor(
    private readonly store: TokenBucketStore,
    readonly limits: RateLimits,
    private readonly jobs: JobsInFlight,
  ) {}

  /** Adds a bucket; it pays the request's cost at the next charge. */
  add(subject: RateSubject): void {
    this.paid.set(subject, 0);
  }

  /** Charges every bucket `cost` that it keeps even when the request is refused later (the address's 1 per request). */
  async admit(cost: number): Promise<void> {
    await this.chargeUpTo(cost);
    for (const [subject, paid] of this.paid) this.kept.set(subject, paid);
  }

  /**
   * Brings each bucket's charge up to `cost` (never down; at most its burst: a full bucket pays
   * for anything, also when the request paid part of it before), the last added (the key's)
   * first. When any bucket refuses, what the others took is given back and RateLimited names the
   * longest wait among the refusing buckets: after it, every one of them holds the request.
   */
  async chargeUpTo(cost: number): Promise<void> {
    let refusal: { waitMs: number; who: string } | undefined;
    for (const [subject, paid] of [...this.paid].reverse()) {
      const due = Math.min(cost, subject.rule.burst);
      if (paid >= due) continue;
      const grant = await this.store.take(subject.subject, subject.rule, due - paid);
      if (grant.granted) {
        this.paid.set(subject, due);
        continue;
      }
      // It will hold what it holds plus what it gets back; a retry costs it `due` again, its kept part included.
      const waitMs = grant.retryAfterMs + ((this.kept.get(subject) ?? 0) * 60_000) / subject.rule.perMinute;
      if (!refusal || waitMs > refusal.waitMs) refusal = { waitMs, who: subject.who };
    }
    if (refusal) {
      await this.giveBack();
      throw new RateLimited(refusal.waitMs, refusal.who);
    }
  }

  /**
   * A file job of (at least) `bytes`: counted among its client's running jobs (the key's, or the
   * address's when no key is known) until the request ends, and charged its cost. Called again
   * when more bytes arrived than were declared: the cost only grows.
   */
  async chargeFileJob(bytes: number): Promise<void> {
    if (!this.job) {
      const client = [...this.paid.keys()].at(-1)!.subject;
      this.job = { client, running: this.jobs.start(client) };
    }
    try {
      await this.chargeUpTo(fileJobCost(this.limits, bytes, this.job.running));
    } catch (error) {
      this.finish(); // a refused job does not run: it must not raise the others' cost
      throw error;
    }
  }

  /** The request has ended: its file job, if any, no longer runs. */
  finish(): void {
    if (this.job) this.jobs.end(this.job.client);
    this.job = undefined;
  }

  private async giveBack(): Promise<void> {
    for (const [subject, paid] of this.paid) {
      const back = paid - (this.kept.get(subject) ?? 0);
      if (back > 0) await this.store.give(subject.subject, subject.rule, back);
      this.paid.set(subject, paid - back);
    }
  }
}

export const meterOf = (ctx: Context): RateMeter | undefined => ctx.state.rateMeter as RateMeter | undefined;

/** map/get's cost: 1, plus mbWeight per whole MB of the map's GeoJSON (known from the maps row, without reading the map). */
export const mapReadCost = (limits: RateLimits, contentBytes: number): number => 1 + limits.mbWeight * Math.floor(contentBytes / MB);

/** map/get, once the map's size is known: charges the rest of its cost (RateLimited past the budget). */
export async function chargeMapRead(ctx: Context, contentBytes: number): Promise<void> {
  const meter = meterOf(ctx);
  if (meter) await meter.chargeUpTo(mapReadCost(meter.limits, contentBytes));
}

/**
 * A file job's bytes, once known (a file stored, a whole new GeoJSON read): charges what they
 * cost beyond what was declared (RateLimited past the budget). Also makes map/update with a
 * geojson a file job.
 */
export async function chargeFileBytes(ctx: Context, bytes: number): Promise<void> {
  const meter = meterOf(ctx);
  if (meter) await meter.chargeFileJob(bytes);
}
