// Account domain functions: the operator CLI uses them now, the web pages will use the same.
// They work through a repository the caller passes in (db/accounts.ts makes one over the database).
import { hash as argon2Hash } from '@node-rs/argon2';
import { z } from 'zod';
import { generateApiKey } from './apiKeys.js';
import type { ProviderKind } from './basemaps.js';
import { AppError } from './errors.js';
import { maskedProviderKey, providerKindOf, validProviderKey } from './providerKeys.js';
import type { ApiKeyInfo, User } from './users.js';

/** What the account functions need of storage. */
export interface AccountRepository {
  /** The new user, or which of its unique names another account has already. */
  insertUser(user: { username: string; email: string; passwordHash: string; emailVerified: boolean }): Promise<User | { taken: 'username' | 'email' }>;
  findUserByUsername(username: string): Promise<User | undefined>;
  setEmailVerified(userId: number): Promise<void>;
  insertApiKey(key: { userId: number; name: string; prefix: string; keyHash: string }): Promise<void>;
  listApiKeys(userId: number): Promise<ApiKeyInfo[]>;
  /** false when the user has no active key with this prefix. */
  revokeApiKey(userId: number, prefix: string): Promise<boolean>;
  saveProviderKey(userId: number, kind: ProviderKind, key: string): Promise<void>;
  listProviderKeys(userId: number): Promise<{ kind: ProviderKind; key: string; updatedAt: Date }[]>;
  /** false when the user had no key of this kind. */
  deleteProviderKey(userId: number, kind: ProviderKind): Promise<boolean>;
}

/**
 * Names a username cannot be: a map's address is /{username}/{short name}, so these would be
 * shadowed by the service's own pages and files (or shadow them).
 */
export const RESERVED_USERNAMES: ReadonlySet<string> = new Set([
  'api', 'internal', 'images', 'markers', 'basemaps', 'assets', 'embed', 'oembed', 'static', 'healthz', 'openapi.json',
  'signup', 'login', 'logout', 'verify', 'reset', 'settings', 'explore', 'maps', 'my', 'new', 'admin', 'about', 'help', 'places',
]);

export const usernameSchema = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9_-]{1,39}$/,
    'a username has 2 to 40 letters, digits, "-" or "_" and starts with a letter or digit',
  )
  .refine((name) => !RESERVED_USERNAMES.has(name.toLowerCase()), 'this username is reserved for the service\'s own pages');

const newUserSchema = z.object({
  username: usernameSchema,
  email: z.email('not a valid e-mail address'),
  password: z.string().min(8, 'a password has at least 8 characters').max(1024),
  verified: z.boolean().default(false),
});

export type NewUserInput = z.input<typeof newUserSchema>;

function invalid(error: z.ZodError): AppError {
  const issue = error.issues[0]!;
  return new AppError('invalid_arguments', `${issue.path.join('.') || 'value'}: ${issue.message}`);
}

export async function createUser(accounts: AccountRepository, input: NewUserInput): Promise<User> {
  const parsed = newUserSchema.safeParse(input);
  if (!parsed.success) throw invalid(parsed.error);
  const { username, email, password, verified } = parsed.data;
  const user = await accounts.insertUser({ username, email, passwordHash: await argon2Hash(password), emailVerified: verified });
  if ('taken' in user) {
    throw user.taken === 'username'
      ? new AppError('username_taken', `The username "${username}" is already taken.`)
      : new AppError('email_taken', `The e-mail address ${email} already belongs to an account.`);
  }
  return user;
}

async function userNamed(accounts: AccountRepository, username: string): Promise<User> {
  const user = await accounts.findUserByUsername(username);
  if (!user) throw new AppError('user_not_found', `No account has the username "${username}".`);
  return user;
}

/** Creates a key and returns it; this is the only moment the key exists in clear. */
export async function createApiKey(accounts: AccountRepository, username: string, name = ''): Promise<{ key: string; prefix: string }> {
  const user = await userNamed(accounts, username);
  const created = generateApiKey();
  await accounts.insertApiKey({ userId: user.id, name: name.slice(0, 200), prefix: created.prefix, keyHash: created.hash });
  return { key: created.key, prefix: created.prefix };
}

export async function verifyEmail(accounts: AccountRepository, username: string): Promise<void> {
  const user = await userNamed(accounts, username);
  await accounts.setEmailVerified(user.id);
}

export async function listKeys(accounts: AccountRepository, username: string): Promise<ApiKeyInfo[]> {
  const user = await userNamed(accounts, username);
  return accounts.listApiKeys(user.id);
}

/** `keyPrefix` may be the bare prefix, "mps_" + prefix as list-keys shows it, or the whole key. */
export async function revokeKey(accounts: AccountRepository, username: string, keyPrefix: string): Promise<void> {
  const user = await userNamed(accounts, username);
  const prefix = /^(?:mps_)?([A-Za-z0-9]{10})(?:_|$)/.exec(keyPrefix)?.[1] ?? keyPrefix;
  if (!(await accounts.revokeApiKey(user.id, prefix))) {
    throw new AppError('key_not_found', `"${username}" has no active API key with the prefix "${prefix}".`);
  }
}

/** Saves a provider key after checking its form; answers how it is shown from now on (masked). */
export async function setProviderKey(accounts: AccountRepository, username: string, kind: string, key: string): Promise<string> {
  const valid = validProviderKey(kind, key);
  const user = await userNamed(accounts, username);
  await accounts.saveProviderKey(user.id, valid.kind, valid.key);
  return maskedProviderKey(valid.key);
}

/** The user's provider keys, masked: a key is never shown back whole. */
export async function listProviderKeys(accounts: AccountRepository, username: string): Promise<{ kind: ProviderKind; masked: string; updatedAt: Date }[]> {
  const user = await userNamed(accounts, username);
  return (await accounts.listProviderKeys(user.id)).map(({ kind, key, updatedAt }) => ({ kind, masked: maskedProviderKey(key), updatedAt }));
}

export async function removeProviderKey(accounts: AccountRepository, username: string, kindName: string): Promise<void> {
  const kind = providerKindOf(kindName);
  const user = await userNamed(accounts, username);
  if (!(await accounts.deleteProviderKey(user.id, kind))) {
    throw new AppError('key_not_found', `"${username}" has no ${kind} provider key.`);
  }
}
