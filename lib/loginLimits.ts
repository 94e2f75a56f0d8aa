// Password checks and their limits (issue 24), for the log-in form and for the forms that ask for
// the current password. Only failures count, each against two limits:
// - its address's: 30 failures a quarter of an hour, whatever account they name;
// - its account's: from an address the account has logged in from (within 60 days), 10 failures
//   of that address alone; from any other address, 10 shared by all of them.
// So a guesser is slowed to ten tries a quarter of an hour per account however many addresses it
// has (and to thirty per address), while other people's failures never keep the owner out at an
// address the account knows; from a new place the owner waits out the guessing, or chooses a new
// password through the mailed link, which makes that address known (passwordReset.ts).
// An account is counted as one whichever of its names is typed; a name no account has is counted
// by the name, exactly as an account would be, and checked against a stand-in hash with the same
// cost, so neither the limits nor the time tell whether an account exists.
// Every attempt takes its places before the password is checked (attempts at once cannot
// overspend a limit) and gives them back when it succeeds.
import { hash as argon2Hash, verify as argon2Verify } from '@node-rs/argon2';
import { giveBack, limitRate, RATE_LIMITS, type Hit } from './accountLimits.js';
import { AppError } from './errors.js';
import type { User } from './users.js';
import { newSecret, openSession, type LoginName, type WebAccountDeps, type WebAccountRepository } from './webAccounts.js';

/** A hash of nobody's password, so a name without an account costs as long as a wrong password. */
let standInHash: Promise<string> | undefined;

const WRONG_LOGIN = 'The username or e-mail address and the password do not match an account.';

/** The account a log-in form's name means: an e-mail address when it has an @, else a username. */
export const loginNameOf = (typed: string): LoginName => (typed.includes('@') ? { email: typed } : { username: typed });

const nameKey = (name: LoginName): string => ('userId' in name ? `user:${name.userId}` : `name:${'email' in name ? name.email : name.username}`);

/** Takes the attempt's places: its address's, then its account's (a refused attempt still counts against its address). */
async function takePlaces(web: WebAccountRepository, account: string, addressKnown: boolean, address: string): Promise<Hit[]> {
  const places = [await limitRate(web, RATE_LIMITS.loginPerAddress, address)];
  places.push(
    addressKnown
      ? await limitRate(web, RATE_LIMITS.loginPerKnownAddress, `${account}@${address}`)
      : await limitRate(web, RATE_LIMITS.loginPerAccount, account),
  );
  return places;
}

/**
 * The account, if `password` is its password; otherwise invalid_credentials (`wrong` says it), or
 * rate_limited before the password is looked at.
 */
export async function checkPassword(web: WebAccountRepository, name: LoginName, password: string, address: string, wrong = WRONG_LOGIN): Promise<User> {
  const found = await web.credentialsOf(name, address);
  const places = await takePlaces(web, found ? `user:${found.user.id}` : nameKey(name), found?.addressKnown ?? false, address);
  standInHash ??= argon2Hash(newSecret());
  const ok = await argon2Verify(found?.passwordHash ?? (await standInHash), password).catch(() => false);
  if (!found || !ok) throw new AppError('invalid_credentials', wrong);
  for (const place of places) await giveBack(web, place);
  await web.rememberLoginAddress(found.user.id, address);
  return found.user;
}

/** Checks the log-in form and opens a session; answers its token (for the cookie) and the user. */
export async function logIn(deps: WebAccountDeps, input: { login: string; password: string; address: string }): Promise<{ user: User; token: string }> {
  const login = input.login.trim();
  const user = await checkPassword(deps.web, loginNameOf(login || '-'), input.password, input.address);
  return { user, token: await openSession(deps.web, user.id) };
}
