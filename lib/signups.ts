// Sign-up (issue 24): the account is made when the link mailed to its address is opened, so a
// sign-up answers the same whether or not the address belongs to an account already. Before the
// answer, every sign-up does the same: its checks and limits, its password's hash, and keeping
// it as a waiting sign-up that holds the username for a day (so trying the username again tells
// nothing either). After the answer: a link to a new address, or to an address an account has,
// a mail telling its owner (with the ways to log in and to choose a new password) instead.
// Usernames stay unique in the open: they are public in every map's address.
import { hash as argon2Hash } from '@node-rs/argon2';
import { usernameSchema } from './accounts.js';
import { limitRate, RATE_LIMITS } from './accountLimits.js';
import { signupLinkMail, signupOfTakenAddressMail } from './accountMail.js';
import { AppError } from './errors.js';
import type { User } from './users.js';
import { checked, emailSchema, newSecret, passwordSchema, sha256, VERIFY_TTL_MS, type MailWork, type WebAccountDeps } from './webAccounts.js';

const usernameTaken = (username: string) => new AppError('username_taken', `The username "${username}" is already taken.`);

/** Keeps a sign-up until its link is opened; answers the mail work to do after answering. */
/** What is wrong with each field of a sign-up, all at once (the form shows each under its field); empty when nothing is. */
export function signUpFieldErrors(input: { username: string; email: string; password: string }): Partial<Record<'username' | 'email' | 'password', string>> {
  const errors: Partial<Record<'username' | 'email' | 'password', string>> = {};
  const schemas = { username: usernameSchema, email: emailSchema, password: passwordSchema } as const;
  for (const field of ['username', 'email', 'password'] as const) {
    const parsed = schemas[field].safeParse(input[field]);
    if (!parsed.success) errors[field] = parsed.error.issues[0]!.message;
  }
  return errors;
}

export async function signUp(deps: WebAccountDeps, input: { username: string; email: string; password: string; address: string }): Promise<MailWork> {
  await limitRate(deps.web, RATE_LIMITS.signupPerIp, input.address);
  const username = checked(usernameSchema, input.username, 'username');
  const email = checked(emailSchema, input.email, 'email');
  const password = checked(passwordSchema, input.password, 'password');
  await limitRate(deps.web, RATE_LIMITS.signupPerEmail, email);
  const token = newSecret();
  const saved = await deps.web.saveSignup({ username, email, passwordHash: await argon2Hash(password), tokenHash: sha256(token), expiresAt: new Date(Date.now() + VERIFY_TTL_MS) });
  if (!saved) throw usernameTaken(username);
  return async () => {
    const owner = await deps.web.findUserByEmail(email);
    await deps.mailer.send(
      owner
        ? signupOfTakenAddressMail(deps.publicUrl, { owner: owner.username, email: owner.email, triedUsername: username })
        : signupLinkMail(deps.publicUrl, { username, email, token }),
    );
  };
}

/**
 * Opens a sign-up's link: the account, made with its address verified; undefined when the token
 * is not a waiting sign-up's (it may be another verification link's).
 */
export async function finishSignUp(deps: WebAccountDeps, token: string): Promise<User | undefined> {
  const signup = await deps.web.takeSignup(sha256(token));
  if (!signup) return undefined;
  const user = await deps.accounts.insertUser({ ...signup, emailVerified: true });
  if (!('taken' in user)) return user;
  throw user.taken === 'username'
    ? new AppError('username_taken', `The username "${signup.username}" was taken by another account meanwhile. Please sign up again with another one.`)
    : new AppError('email_taken', `The e-mail address ${signup.email} belongs to an account by now: log in, or choose a new password through "Forgot your password?".`);
}
