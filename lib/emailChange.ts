// An account's e-mail address: its verification links, and a change of address (issue 24). A
// change asks for the current password (checked with the log-in limits: a wrong one is a failed
// log-in), and every new request voids the earlier links at once, so only the newest link can set
// the address. The page answers the same whether or not another account has the new address:
// the link, or for an address another account has a mail to its owner, goes out after answering.
import { limitRate, RATE_LIMITS } from './accountLimits.js';
import { addressOfAnotherAccountMail, verificationMail } from './accountMail.js';
import { AppError } from './errors.js';
import { checkPassword } from './loginLimits.js';
import type { User } from './users.js';
import { checked, emailSchema, INVALID_LINK, newSecret, sha256, VERIFY_TTL_MS, type MailWork, type WebAccountDeps } from './webAccounts.js';

/** After answering: a link to `email` if no other account has it, else a mail telling its owner. */
const verificationWork =
  (deps: WebAccountDeps, user: User, email: string): MailWork =>
  async () => {
    const owner = await deps.web.findUserByEmail(email);
    if (owner && owner.id !== user.id) {
      await deps.mailer.send(addressOfAnotherAccountMail(deps.publicUrl, { owner: owner.username, email: owner.email, requester: user.username }));
      return;
    }
    const token = newSecret();
    // Nothing to send when a later request has taken over meanwhile.
    if (!(await deps.web.insertVerificationToken({ hash: sha256(token), userId: user.id, email, expiresAt: new Date(Date.now() + VERIFY_TTL_MS) }))) return;
    await deps.mailer.send(verificationMail(deps.publicUrl, { username: user.username, email, token }));
  };

/** Starts a change of address: the new one is used once its link is opened. */
export async function changeEmail(deps: WebAccountDeps, user: User, input: { email: string; password: string; address: string }): Promise<MailWork> {
  const email = checked(emailSchema, input.email.trim(), 'email');
  if (!input.password) throw new AppError('invalid_arguments', 'Type your current password to change the address.');
  await checkPassword(deps.web, { userId: user.id }, input.password, input.address, 'The current password is not right.');
  await limitRate(deps.web, RATE_LIMITS.mailPerAccount, String(user.id));
  await deps.web.setPendingEmail(user.id, email);
  return verificationWork(deps, user, email);
}

/** Sends the verification link again (to the pending address when the account is changing it); undefined when nothing waits. */
export async function resendVerification(deps: WebAccountDeps, user: User): Promise<MailWork | undefined> {
  await limitRate(deps.web, RATE_LIMITS.mailPerAccount, String(user.id));
  const email = (await deps.web.pendingEmailOf(user.id)) ?? (user.emailVerified ? null : user.email);
  return email === null ? undefined : verificationWork(deps, user, email);
}

/** Follows a verification link: the address it names becomes the account's, verified. */
export async function verifyEmailToken(deps: WebAccountDeps, token: string): Promise<User> {
  const used = await deps.web.useToken(sha256(token), 'verify_email');
  if (!used) throw new AppError('invalid_token', INVALID_LINK);
  const outcome = await deps.web.confirmEmail(used.userId, used.email);
  if (outcome === 'superseded') throw new AppError('invalid_token', INVALID_LINK);
  if (outcome === 'taken') throw new AppError('email_taken', `The e-mail address ${used.email} belongs to another account by now.`);
  return (await deps.web.findUserById(used.userId))!;
}
