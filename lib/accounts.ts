// Account domain functions: the operator CLI uses them now, the web pages will use the same.
import { hash as argon2Hash } from '@node-rs/argon2';
import { z } from 'zod';
import { insertApiKey, listApiKeys, revokeApiKey, type ApiKeyInfo } from '../db/apiKeys.js';
import type { Db } from '../db/connection.js';
import { UniqueViolation } from '../db/errors.js';
import { findUserByUsername, insertUser, setEmailVerified, type User } from '../db/users.js';
import { generateApiKey } from './apiKeys.js';
import { AppError } from './errors.js';

export const usernameSchema = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9_-]{1,39}$/,
    'a username has 2 to 40 letters, digits, "-" or "_" and starts with a letter or digit',
  );

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

export async function createUser(db: Db, input: NewUserInput): Promise<User> {
  const parsed = newUserSchema.safeParse(input);
  if (!parsed.success) throw invalid(parsed.error);
  const { username, email, password, verified } = parsed.data;
  try {
    return await insertUser(db, {
      username,
      email,
      passwordHash: await argon2Hash(password),
      emailVerified: verified,
    });
  } catch (error) {
    if (error instanceof UniqueViolation && error.constraint.includes('username')) {
      throw new AppError('username_taken', `The username "${username}" is already taken.`);
    }
    if (error instanceof UniqueViolation && error.constraint.includes('email')) {
      throw new AppError('email_taken', `The e-mail address ${email} already belongs to an account.`);
    }
    throw error;
  }
}

async function userNamed(db: Db, username: string): Promise<User> {
  const user = await findUserByUsername(db, username);
  if (!user) throw new AppError('user_not_found', `No account has the username "${username}".`);
  return user;
}

/** Creates a key and returns it; this is the only moment the key exists in clear. */
export async function createApiKey(db: Db, username: string, name = ''): Promise<{ key: string; prefix: string }> {
  const user = await userNamed(db, username);
  const created = generateApiKey();
  await insertApiKey(db, { userId: user.id, name: name.slice(0, 200), prefix: created.prefix, keyHash: created.hash });
  return { key: created.key, prefix: created.prefix };
}

export async function verifyEmail(db: Db, username: string): Promise<void> {
  const user = await userNamed(db, username);
  await setEmailVerified(db, user.id);
}

export async function listKeys(db: Db, username: string): Promise<ApiKeyInfo[]> {
  const user = await userNamed(db, username);
  return listApiKeys(db, user.id);
}

/** `keyPrefix` may be the bare prefix, "mps_" + prefix as list-keys shows it, or the whole key. */
export async function revokeKey(db: Db, username: string, keyPrefix: string): Promise<void> {
  const user = await userNamed(db, username);
  const prefix = /^(?:mps_)?([A-Za-z0-9]{10})(?:_|$)/.exec(keyPrefix)?.[1] ?? keyPrefix;
  if (!(await revokeApiKey(db, user.id, prefix))) {
    throw new AppError('key_not_found', `"${username}" has no active API key with the prefix "${prefix}".`);
  }
}
