// The web application's account functions (issue 12): sign-up with e-mail verification, log-in
// sessions, password reset, e-mail change, and the rate limits that guard them. They share
// createUser with the API's operator CLI (lib/accounts.ts) and work through repositories the
// caller passes in (db/webAccounts.ts, db/accounts.ts) and a Mailer (lib/mail.ts).
import { createHash, randomBytes } from 'node:crypto';
import { hash as argon2Hash, verify as argon2Verify } from '@node-rs/argon2';
import { z } from 'zod';
import { createUser, type AccountRepository } from './accounts.js';
import { AppError } from './errors.js';
import type { Mailer } from './mail.js';
import type { User } from './users.js';

export const VERIFY_TTL_MS = 24 * 3_600_000;
export const RESET_TTL_MS = 3_600_000;
export const SESSION_TTL_MS = 30 * 24 * 3_600_000;
/** A session's expiry moves on with use, at most this often (one write per hour of use). */
const TOUCH_EVERY_MS = 3_600_000;

export type TokenPurpose = 'verify_email' | 'reset_password';

export interface WebAccountRepository {
  findUserById(id: number): Promise<User | undefined>;
  findUserByUsername(username: string): Promise<User | undefined>;
  findUserByEmail(email: string): Promise<User | undefined>;
  passwordHashOf(userId: number): Promise<string | undefined>;
  setPassword(userId: number, passwordHash: string): Promise<void>;
  setPendingEmail(userId: number, email: string): Promise<void>;
  /** The address the account is changing to, until its link is followed. */
  pendingEmailOf(userId: number): Promise<string | null>;
  /** false when another account has the address by now. */
  confirmEmail(userId: number, email: string): Promise<boolean>;
  insertSession(session: { id: string; userId: number; expiresAt: Date }): Promise<void>;
  findSession(id: string): Promise<{ userId: number; lastSeenAt: Date } | undefined>;
  touchSession(id: string, expiresAt: Date): Promise<void>;
  deleteSession(id: string): Promise<void>;
  deleteSessionsOfUser(userId: number): Promise<void>;
  insertToken(token: { hash: string; userId: number; purpose: TokenPurpose; email: string; expiresAt: Date }): Promise<void>;
  /** Marks the token used and answers whose it was, if it is valid, unused and unexpired. */
  useToken(hash: string, purpose: TokenPurpose): Promise<{ userId: number; email: string } | undefined>;
  /** Counts one hit of `key` in the window starting then; answers the window's count. */
  countHit(key: string, windowStart: Date): Promise<number>;
  forgetHitsBefore(cutoff: Date): Promise<void>;
}

export interface WebAccountDeps {
  accounts: AccountRepository;
  web: WebAccountRepository;
  mailer: Mailer;
  publicUrl: string;
}

const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');
const newSecret = (): string => randomBytes(32).toString('base64url');

const passwordSchema = z.string().min(8, 'a password has at least 8 characters').max(1024, 'a password has at most 1,024 characters');
const emailSchema = z.email('not a valid e-mail address').max(320);

function checked<T>(schema: z.ZodType<T>, value: unknown, field: string): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new AppError('invalid_arguments', `${field}: ${parsed.error.issues[0]!.message}`);
  return parsed.data;
}

// --- rate limits -----------------------------------------------------------------------------

export interface RateLimit {
  name: string;
  limit: number;
  windowMs: number;
}

export const RATE_LIMITS = {
  loginPerIp: { name: 'login-ip', limit: 30, windowMs: 15 * 60_000 },
  loginPerAccount: { name: 'login-account', limit: 10, windowMs: 15 * 60_000 },
  signupPerIp: { name: 'signup-ip', limit: 10, windowMs: 3_600_000 },
  resetPerIp: { name: 'reset-ip', limit: 10, windowMs: 3_600_000 },
  resetPerAccount: { name: 'reset-account', limit: 3, windowMs: 3_600_000 },
  mailPerAccount: { name: 'mail-account', limit: 5, windowMs: 3_600_000 },
} as const satisfies Record<string, RateLimit>;

/** Counts an attempt; rate_limited when the window already had `limit` of them. */
export async function limitRate(web: WebAccountRepository, rule: RateLimit, subject: string, now = Date.now()): Promise<void> {
  const windowStart = new Date(Math.floor(now / rule.windowMs) * rule.windowMs);
  const count = await web.countHit(`${rule.name}:${subject.toLowerCase()}`, windowStart);
  if (count > rule.limit) {
    const minutes = Math.ceil((windowStart.getTime() + rule.windowMs - now) / 60_000);
    throw new AppError('rate_limited', `Too many attempts; please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`);
  }
  if (Math.random() < 0.01) await web.forgetHitsBefore(new Date(now - 24 * 3_600_000));
}

// --- e-mail verification -----------------------------------------------------------------------

async function sendToken(deps: WebAccountDeps, user: User, purpose: TokenPurpose, email: string): Promise<void> {
  const token = newSecret();
  const ttl = purpose === 'verify_email' ? VERIFY_TTL_MS : RESET_TTL_MS;
  await deps.web.insertToken({ hash: sha256(token), userId: user.id, purpose, email, expiresAt: new Date(Date.now() + ttl) });
  if (purpose === 'verify_email') {
    await deps.mailer.send({
      to: email,
      subject: 'Verify your e-mail address',
      text:
        `Hello ${user.username},\n\nplease confirm that ${email} is your address by opening this link within 24 hours:\n\n` +
        `${deps.publicUrl}/verify?token=${token}\n\nIf you did not ask for this, ignore this message.\n`,
    });
  } else {
    await deps.mailer.send({
      to: email,
      subject: 'Reset your password',
      text:
        `Hello ${user.username},\n\nsomeone (hopefully you) asked to reset the password of your account. Choose a new one within an hour here:\n\n` +
        `${deps.publicUrl}/reset/${token}\n\nIf you did not ask for this, ignore this message: your password stays as it is.\n`,
    });
  }
}

/** A new account (unverified) and its verification e-mail. */
export async function signUp(deps: WebAccountDeps, input: { username: string; email: string; password: string }): Promise<User> {
  const user = await createUser(deps.accounts, { ...input, verified: false });
  await sendToken(deps, user, 'verify_email', user.email);
  return user;
}

/** Sends the verification e-mail again (to the pending address when the account is changing it). */
export async function resendVerification(deps: WebAccountDeps, user: User, pendingEmail: string | null): Promise<void> {
  await limitRate(deps.web, RATE_LIMITS.mailPerAccount, String(user.id));
  if (pendingEmail) return sendToken(deps, user, 'verify_email', pendingEmail);
  if (!user.emailVerified) return sendToken(deps, user, 'verify_email', user.email);
}

const INVALID_LINK = 'This link is not valid: it was used already, it expired, or it was copied incompletely. Ask for a new one.';

/** Follows a verification link: the address it names becomes the account's, verified. */
export async function verifyEmailToken(deps: WebAccountDeps, token: string): Promise<User> {
  const used = await deps.web.useToken(sha256(token), 'verify_email');
  if (!used) throw new AppError('invalid_token', INVALID_LINK);
  if (!(await deps.web.confirmEmail(used.userId, used.email))) {
    throw new AppError('email_taken', `The e-mail address ${used.email} belongs to another account by now.`);
  }
  return (await deps.web.findUserById(used.userId))!;
}

/** Starts a change of address: the new one is used once its verification link is followed. */
export async function changeEmail(deps: WebAccountDeps, user: User, newEmail: string): Promise<void> {
  const email = checked(emailSchema, newEmail.trim(), 'email');
  const other = await deps.web.findUserByEmail(email);
  if (other && other.id !== user.id) throw new AppError('email_taken', `The e-mail address ${email} already belongs to an account.`);
  await limitRate(deps.web, RATE_LIMITS.mailPerAccount, String(user.id));
  await deps.web.setPendingEmail(user.id, email);
  await sendToken(deps, user, 'verify_email', email);
}

// --- sessions ----------------------------------------------------------------------------------

/** A precomputed hash, so a log-in with an unknown name costs as long as one with a wrong password. */
let dummyHash: Promise<string> | undefined;

const WRONG_LOGIN = 'The username or e-mail address and the password do not match an account.';

/** Checks the credentials and opens a session; answers its token (for the cookie) and the user. */
export async function logIn(deps: WebAccountDeps, input: { login: string; password: string; ip: string }): Promise<{ user: User; token: string }> {
  const login = input.login.trim();
  await limitRate(deps.web, RATE_LIMITS.loginPerIp, input.ip);
  await limitRate(deps.web, RATE_LIMITS.loginPerAccount, login || '-');
  const user = login.includes('@') ? await deps.web.findUserByEmail(login) : await deps.web.findUserByUsername(login);
  const hash = user ? await deps.web.passwordHashOf(user.id) : undefined;
  dummyHash ??= argon2Hash(newSecret());
  const ok = await argon2Verify(hash ?? (await dummyHash), input.password).catch(() => false);
  if (!user || !hash || !ok) throw new AppError('invalid_credentials', WRONG_LOGIN);
  return { user, token: await openSession(deps.web, user.id) };
}

/** A new session (a new token: a log-in never reuses one). */
export async function openSession(web: WebAccountRepository, userId: number): Promise<string> {
  const token = newSecret();
  await web.insertSession({ id: sha256(token), userId, expiresAt: new Date(Date.now() + SESSION_TTL_MS) });
  return token;
}

/** The user of a session token, or undefined (unknown, expired, ended); keeps a used session alive. */
export async function sessionUser(web: WebAccountRepository, token: string | undefined): Promise<User | undefined> {
  if (!token || token.length > 100) return undefined;
  const id = sha256(token);
  const session = await web.findSession(id);
  if (!session) return undefined;
  if (Date.now() - session.lastSeenAt.getTime() > TOUCH_EVERY_MS) await web.touchSession(id, new Date(Date.now() + SESSION_TTL_MS));
  return web.findUserById(session.userId);
}

export async function logOut(web: WebAccountRepository, token: string | undefined): Promise<void> {
  if (token) await web.deleteSession(sha256(token));
}

// --- password reset ----------------------------------------------------------------------------

/** Sends a reset link if an account has this address; the caller answers the same either way. */
export async function requestPasswordReset(deps: WebAccountDeps, input: { email: string; ip: string }): Promise<void> {
  await limitRate(deps.web, RATE_LIMITS.resetPerIp, input.ip);
  const email = input.email.trim();
  if (!emailSchema.safeParse(email).success) return;
  const user = await deps.web.findUserByEmail(email);
  if (!user) return;
  await limitRate(deps.web, RATE_LIMITS.resetPerAccount, String(user.id));
  await sendToken(deps, user, 'reset_password', user.email);
}

/** Sets a new password with a reset link's token and ends every session of the account. */
export async function resetPassword(deps: WebAccountDeps, token: string, password: string): Promise<User> {
  const valid = checked(passwordSchema, password, 'password');
  const used = await deps.web.useToken(sha256(token), 'reset_password');
  if (!used) throw new AppError('invalid_token', INVALID_LINK);
  await deps.web.setPassword(used.userId, await argon2Hash(valid));
  await deps.web.deleteSessionsOfUser(used.userId);
  const user = (await deps.web.findUserById(used.userId))!;
  // Following the link proves the address too (an account that never verified it).
  if (!user.emailVerified && user.email === used.email) await deps.web.confirmEmail(user.id, user.email);
  return (await deps.web.findUserById(used.userId))!;
}
