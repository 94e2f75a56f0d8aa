// Password reset by a mailed link (1 hour, single use). The request answers the same, within the
// same limits, whether or not an account has the address (issue 24): its limits count the typed
// address, and finding the account, its link and the mail come after the answer.
import { hash as argon2Hash } from '@node-rs/argon2';
import { limitRate, RATE_LIMITS } from './accountLimits.js';
import { resetMail } from './accountMail.js';
import { AppError } from './errors.js';
import type { User } from './users.js';
import { checked, emailSchema, INVALID_LINK, newSecret, passwordSchema, RESET_TTL_MS, sha256, type MailWork, type WebAccountDeps } from './webAccounts.js';

const nothing: MailWork = async () => {};

/** The mail work of a reset request: a link if an account has this address, nothing otherwise. */
export async function requestPasswordReset(deps: WebAccountDeps, input: { email: string; address: string }): Promise<MailWork> {
  await limitRate(deps.web, RATE_LIMITS.resetPerIp, input.address);
  const email = input.email.trim();
  if (!emailSchema.safeParse(email).success) return nothing;
  await limitRate(deps.web, RATE_LIMITS.resetPerEmail, email);
  return async () => {
    const user = await deps.web.findUserByEmail(email);
    if (!user) return;
    const token = newSecret();
    await deps.web.insertToken({ hash: sha256(token), userId: user.id, purpose: 'reset_password', email: user.email, expiresAt: new Date(Date.now() + RESET_TTL_MS) });
    await deps.mailer.send(resetMail(deps.publicUrl, { username: user.username, email: user.email, token }));
  };
}

/**
 * Sets a new password with a reset link's token and ends every session of the account. The link
 * proves the mailbox: the address it was opened from may log in even while others are guessing
 * at the account (loginLimits.ts), and an address never verified counts as verified.
 */
export async function resetPassword(deps: WebAccountDeps, input: { token: string; password: string; address: string }): Promise<User> {
  const valid = checked(passwordSchema, input.password, 'password');
  const used = await deps.web.useToken(sha256(input.token), 'reset_password');
  if (!used) throw new AppError('invalid_token', INVALID_LINK);
  await deps.web.setPassword(used.userId, await argon2Hash(valid));
  await deps.web.deleteSessionsOfUser(used.userId);
  await deps.web.rememberLoginAddress(used.userId, input.address);
  const user = (await deps.web.findUserById(used.userId))!;
  if (!user.emailVerified && user.email === used.email) await deps.web.confirmEmail(user.id, user.email);
  return (await deps.web.findUserById(used.userId))!;
}
