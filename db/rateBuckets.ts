// The token buckets of the rate limits in PostgreSQL (RATE_LIMIT_STORE=postgres): every API
// process shares them. One statement per take: the bucket is refilled by the time since its
// last use (the database's clock, the same for every process), charged when it holds enough, and
// written back; the row lock makes concurrent takes of one subject queue, never overspend. A
// request refused by another of its buckets gives back what it took here (one more statement).
import type { BucketRule, Grant, TokenBucketStore } from '../lib/tokenBuckets.js';
import { boundedCost, waitFor } from '../lib/tokenBuckets.js';
import type { Db } from './connection.js';

const TAKE = `
  insert into rate_buckets as b (subject, tokens, refreshed_at, granted)
  values (:subject, :burst::float8 - :cost::float8, now(), true)
  on conflict (subject) do update set
    tokens = case when least(:burst::float8, b.tokens + :perSecond::float8 * extract(epoch from now() - b.refreshed_at)::float8) >= :cost::float8
                  then least(:burst::float8, b.tokens + :perSecond::float8 * extract(epoch from now() - b.refreshed_at)::float8) - :cost::float8
                  else least(:burst::float8, b.tokens + :perSecond::float8 * extract(epoch from now() - b.refreshed_at)::float8) end,
    granted = least(:burst::float8, b.tokens + :perSecond::float8 * extract(epoch from now() - b.refreshed_at)::float8) >= :cost::float8,
    refreshed_at = now()
  returning tokens, granted`;

const GIVE = `
  update rate_buckets set
    tokens = least(:burst::float8, tokens + :perSecond::float8 * extract(epoch from now() - refreshed_at)::float8 + :tokens::float8),
    refreshed_at = now()
  where subject = :subject`;

export class PostgresBuckets implements TokenBucketStore {
  private readonly sweeper: NodeJS.Timeout;

  /** `fullAfterMs`: the longest time any rule's bucket takes to fill up (rows older than it are dropped). */
  constructor(
    private readonly db: Db,
    fullAfterMs: number,
  ) {
    // A bucket that has filled up again is the same as none: one delete a minute per process.
    this.sweeper = setInterval(() => {
      void db.raw('delete from rate_buckets where refreshed_at < now() - make_interval(secs => ?)', [Math.ceil(fullAfterMs / 1000) + 1]).catch(() => {});
    }, 60_000);
    this.sweeper.unref();
  }

  async take(subject: string, rule: BucketRule, cost: number): Promise<Grant> {
    const wanted = boundedCost(cost, rule);
    const result = await this.db.raw(TAKE, { subject, burst: rule.burst, cost: wanted, perSecond: rule.perMinute / 60 });
    const row = (result.rows as { tokens: number; granted: boolean }[])[0]!;
    return row.granted ? { granted: true } : { granted: false, retryAfterMs: waitFor(row.tokens, wanted, rule) };
  }

  async give(subject: string, rule: BucketRule, tokens: number): Promise<void> {
    await this.db.raw(GIVE, { subject, burst: rule.burst, tokens: Math.max(0, tokens), perSecond: rule.perMinute / 60 });
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
  }
}
