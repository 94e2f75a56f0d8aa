// The limits of the web application's account forms (log-in, sign-up, reset, verification
// mails): fixed windows counted in PostgreSQL (`rate_limit_hits`, migration 021), so every API
// process shares them. An attempt takes one of its window's places, or is refused without
// taking one; a log-in that succeeds gives its places back (only failures count: loginLimits.ts).
import { AppError } from './errors.js';

export interface RateLimit {
  name: string;
  limit: number;
  windowMs: number;
  /** What a refusal says, given how long to wait ("12 minutes"). */
  refusal?: (wait: string) => string;
}

const QUARTER_HOUR = 15 * 60_000;
const HOUR = 3_600_000;

export const RATE_LIMITS = {
  /** Failed log-ins from one address, whatever account they name. */
  loginPerAddress: { name: 'login-ip', limit: 30, windowMs: QUARTER_HOUR },
  /** Failed log-ins of one account (or unknown name) from addresses it has not logged in from, all together. */
  loginPerAccount: {
    name: 'login-account',
    limit: 10,
    windowMs: QUARTER_HOUR,
    refusal: (wait: string) =>
      `Too many failed log-ins to this account from places it has not logged in from: from here, please try again in ${wait}. ` +
      'Where you have logged in before, you can log in now; here too, once you have chosen a new password through "Forgot your password?".',
  },
  /** Failed log-ins of one account from one address it has logged in from. */
  loginPerKnownAddress: { name: 'login-known', limit: 10, windowMs: QUARTER_HOUR },
  signupPerIp: { name: 'signup-ip', limit: 10, windowMs: HOUR },
  /** Sign-ups naming one address (each mails it), whether or not an account has it. */
  signupPerEmail: { name: 'signup-email', limit: 3, windowMs: HOUR },
  resetPerIp: { name: 'reset-ip', limit: 10, windowMs: HOUR },
  /** Reset requests naming one address, whether or not an account has it (the same answers for both). */
  resetPerEmail: { name: 'reset-email', limit: 3, windowMs: HOUR },
  mailPerAccount: { name: 'mail-account', limit: 5, windowMs: HOUR },
} as const satisfies Record<string, RateLimit>;

/** One place taken in a window, to give back. */
export interface Hit {
  key: string;
  windowStart: Date;
}

/** What the limits need of storage (db/webAccounts.ts). */
export interface HitCounter {
  /** Takes one of the window's `limit` places of `key`; false when all are taken (then nothing changes). */
  takeHit(key: string, windowStart: Date, limit: number): Promise<boolean>;
  /** Gives a taken place back. */
  returnHit(key: string, windowStart: Date): Promise<void>;
  forgetHitsBefore(cutoff: Date): Promise<void>;
}

/** Takes an attempt's place in the rule's window for `subject`; rate_limited when the window is full. */
export async function limitRate(hits: HitCounter, rule: RateLimit, subject: string, now = Date.now()): Promise<Hit> {
  const windowStart = new Date(Math.floor(now / rule.windowMs) * rule.windowMs);
  const key = `${rule.name}:${subject.toLowerCase()}`;
  if (!(await hits.takeHit(key, windowStart, rule.limit))) {
    const minutes = Math.ceil((windowStart.getTime() + rule.windowMs - now) / 60_000);
    const wait = `${minutes} minute${minutes === 1 ? '' : 's'}`;
    throw new AppError('rate_limited', rule.refusal?.(wait) ?? `Too many attempts; please try again in ${wait}.`);
  }
  if (Math.random() < 0.01) await hits.forgetHitsBefore(new Date(now - 24 * HOUR));
  return { key, windowStart };
}

export async function giveBack(hits: HitCounter, hit: Hit): Promise<void> {
  await hits.returnHit(hit.key, hit.windowStart);
}
