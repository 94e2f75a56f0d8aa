// The web application's accounts (issue 12): what their functions share — the repository they
// work through (db/webAccounts.ts makes one), the Mailer (lib/mail.ts), the secrets of links and
// sessions — and the log-in sessions. The rest lives beside it: loginLimits.ts (password checks
// and their limits, log-in), signups.ts, emailChange.ts, passwordReset.ts, accountMail.ts (what
// the mails say), accountLimits.ts (the forms' limits).
//
// Whether an e-mail address belongs to an account must not show (issue 24): the functions behind
// sign-up, reset and the change of address do what every address gets before the page answers,
// and hand back the rest (finding the address's account, its link, the mail) as MailWork that
// the route runs after answering (api/web/afterAnswer.ts).
import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { AccountRepository } from './accounts.js';
import type { HitCounter } from './accountLimits.js';
import { AppError } from './errors.js';
import type { Mailer } from './mail.js';
import type { User } from './users.js';

export const VERIFY_TTL_MS = 24 * 3_600_000;
export const RESET_TTL_MS = 3_600_000;
export const SESSION_TTL_MS = 30 * 24 * 3_600_000;
/** A session's expiry moves on with use, at most this often (one write per hour of use). */
const TOUCH_EVERY_MS = 3_600_000;

export type TokenPurpose = 'verify_email' | 'reset_password';

/** How a log-in names its account. */
export type LoginName = { username: string } | { email: string } | { userId: number };

/** An account's password hash, and whether it has logged in from the client's address (within 60 days). */
export interface Credentials {
  user: User;
  passwordHash: string;
  addressKnown: boolean;
}

/** A sign-up waiting for the link sent to its address (the account is made when it is opened). */
export interface PendingSignup {
  username: string;
  email: string;
  passwordHash: string;
}

export interface WebAccountRepository extends HitCounter {
  findUserById(id: number): Promise<User | undefined>;
  findUserByEmail(email: string): Promise<User | undefined>;
  /** One query, whether or not the name is an account's (a log-in must take as long for both). */
  credentialsOf(name: LoginName, address: string): Promise<Credentials | undefined>;
  /** The account has logged in (or chosen a new password through its mail) from this address. */
  rememberLoginAddress(userId: number, address: string): Promise<void>;
  setPassword(userId: number, passwordHash: string): Promise<void>;
  /** Starts a change of address: `email` waits to be verified, and every earlier verification link stops working. */
  setPendingEmail(userId: number, email: string): Promise<void>;
  /** The address the account is changing to, until its link is followed. */
  pendingEmailOf(userId: number): Promise<string | null>;
  /**
   * Makes `email` the account's verified address, if it is the one the account is changing to or
   * its current one: 'superseded' otherwise (a later change), 'taken' when another account has it.
   */
  confirmEmail(userId: number, email: string): Promise<'confirmed' | 'superseded' | 'taken'>;
  insertSession(session: { id: string; userId: number; expiresAt: Date }): Promise<void>;
  findSession(id: string): Promise<{ userId: number; lastSeenAt: Date } | undefined>;
  touchSession(id: string, expiresAt: Date): Promise<void>;
  deleteSession(id: string): Promise<void>;
  deleteSessionsOfUser(userId: number): Promise<void>;
  /** A password reset link's token. */
  insertToken(token: { hash: string; userId: number; purpose: TokenPurpose; email: string; expiresAt: Date }): Promise<void>;
  /**
   * A verification link's token, which voids the account's earlier ones; false (nothing stored)
   * when `email` is no longer the address the account is verifying (a later change took over).
   */
  insertVerificationToken(token: { hash: string; userId: number; email: string; expiresAt: Date }): Promise<boolean>;
  /** Marks the token used and answers whose it was, if it is valid, unused and unexpired. */
  useToken(hash: string, purpose: TokenPurpose): Promise<{ userId: number; email: string } | undefined>;
  /**
   * Keeps a sign-up until its link is opened; false when the username is an account's, or held
   * by a waiting sign-up with another address. A sign-up with the same username and address
   * takes the place of the earlier one (whose link stops working).
   */
  saveSignup(signup: PendingSignup & { tokenHash: string; expiresAt: Date }): Promise<boolean>;
  /** The waiting, unexpired sign-up of this link, removed (a link works once). */
  takeSignup(tokenHash: string): Promise<PendingSignup | undefined>;
}

export interface WebAccountDeps {
  accounts: AccountRepository;
  web: WebAccountRepository;
  mailer: Mailer;
  publicUrl: string;
}

/** What is left to do after the page has answered: finding an address's account, a link, the mail. */
export type MailWork = () => Promise<void>;

export const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');
export const newSecret = (): string => randomBytes(32).toString('base64url');

export const passwordSchema = z.string().min(8, 'a password has at least 8 characters').max(1024, 'a password has at most 1,024 characters');
export const emailSchema = z.email('not a valid e-mail address').max(320);

export function checked<T>(schema: z.ZodType<T>, value: unknown, field: string): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new AppError('invalid_arguments', `${field}: ${parsed.error.issues[0]!.message}`);
  return parsed.data;
}

export const INVALID_LINK =
  'This link is not valid: it was used already, a newer one was sent, it expired, or it was copied incompletely. Ask for a new one.';

// --- sessions ----------------------------------------------------------------------------------

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
