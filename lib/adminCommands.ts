// The operator commands behind `npm run admin -- <command>`, as one function over the
// accounts repository (and, for media-gc, a way to run the media cleanup now), so the CLI can
// run them itself or hand them to a running embedded service.
import { z } from 'zod';
import {
  createApiKey,
  createUser,
  listKeys,
  listProviderKeys,
  removeProviderKey,
  revokeKey,
  setProviderKey,
  verifyEmail,
  type AccountRepository,
} from './accounts.js';
import { durationMs } from './config.js';
import { AppError } from './errors.js';
import type { MediaCleanupResult } from './jobContracts.js';

export const ADMIN_USAGE = `Usage: npm run --silent admin -- <command> [options]

  create-user --username U --email E --password P [--verified]
  create-api-key --username U [--name N]     prints the new key alone on the last line
  verify-email --username U
  list-keys --username U
  revoke-key --username U --key-prefix P
  set-provider-key --username U --kind K --key V
                                             K: map_platform (a public token, pk.…),
                                             location_platform, gis_platform, tile_provider
  list-provider-keys --username U            the keys, masked
  delete-provider-key --username U --kind K
  media-gc [--grace D]                       deletes images and markers no map uses, unused for
                                             longer than D (default MEDIA_GRACE, 24h; e.g. 30m,
                                             2h, 7d); prints each deleted id on its own line`;

export const adminRequest = z.discriminatedUnion('command', [
  z.object({
    command: z.literal('create-user'),
    username: z.string(),
    email: z.string(),
    password: z.string(),
    verified: z.boolean().default(false),
  }),
  z.object({ command: z.literal('create-api-key'), username: z.string(), name: z.string().default('') }),
  z.object({ command: z.literal('verify-email'), username: z.string() }),
  z.object({ command: z.literal('list-keys'), username: z.string() }),
  z.object({ command: z.literal('revoke-key'), username: z.string(), 'key-prefix': z.string() }),
  z.object({ command: z.literal('media-gc'), grace: z.string().optional() }),
  z.object({ command: z.literal('set-provider-key'), username: z.string(), kind: z.string(), key: z.string() }),
  z.object({ command: z.literal('list-provider-keys'), username: z.string() }),
  z.object({ command: z.literal('delete-provider-key'), username: z.string(), kind: z.string() }),
]);

/** Runs the media cleanup workflow now (on the job server) and answers what it deleted. */
export interface MediaCleanupRunner {
  defaultGraceMs: number;
  run(graceMs: number): Promise<MediaCleanupResult>;
}

export type AdminRequest = z.input<typeof adminRequest>;

/** Runs one command; returns the lines to print. Throws AppError for bad input. */
export async function runAdminCommand(accounts: AccountRepository, input: unknown, media?: MediaCleanupRunner): Promise<string[]> {
  const parsed = adminRequest.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const option = issue.path.join('.');
    throw new AppError('invalid_arguments', option === 'command' ? 'unknown command' : `--${option} is required`);
  }
  const request = parsed.data;
  switch (request.command) {
    case 'create-user': {
      const user = await createUser(accounts, request);
      return [`Created user ${user.username} <${user.email}>${user.emailVerified ? ' (e-mail verified)' : ''}.`];
    }
    case 'create-api-key': {
      const { key } = await createApiKey(accounts, request.username, request.name);
      return [`Created an API key for ${request.username}. It is shown only this once:`, key];
    }
    case 'verify-email':
      await verifyEmail(accounts, request.username);
      return [`Marked the e-mail address of ${request.username} as verified.`];
    case 'list-keys': {
      const keys = await listKeys(accounts, request.username);
      if (keys.length === 0) return [`${request.username} has no API keys.`];
      return keys.map(
        (k) =>
          `mps_${k.prefix}…  ${k.revokedAt ? `revoked ${k.revokedAt.toISOString()}` : 'active'}  created ${k.createdAt.toISOString()}${k.name ? `  ${k.name}` : ''}`,
      );
    }
    case 'revoke-key':
      await revokeKey(accounts, request.username, request['key-prefix']);
      return [`Revoked the key ${request['key-prefix']} of ${request.username}.`];
    case 'set-provider-key': {
      const masked = await setProviderKey(accounts, request.username, request.kind, request.key);
      return [`Saved the ${request.kind} provider key of ${request.username} (${masked}).`];
    }
    case 'list-provider-keys': {
      const keys = await listProviderKeys(accounts, request.username);
      if (keys.length === 0) return [`${request.username} has no provider keys.`];
      return keys.map((k) => `${k.kind}  ${k.masked}  saved ${k.updatedAt.toISOString()}`);
    }
    case 'delete-provider-key':
      await removeProviderKey(accounts, request.username, request.kind);
      return [`Deleted the ${request.kind} provider key of ${request.username}.`];
    case 'media-gc': {
      if (!media) {
        throw new AppError('service_unavailable', 'media-gc runs on the job server: start the service (npm start) or set TEMPORAL_ADDRESS.');
      }
      const graceMs = request.grace === undefined ? media.defaultGraceMs : durationMs(request.grace);
      if (graceMs === undefined) throw new AppError('invalid_arguments', `--grace must be a duration such as 30m, 24h or 7d, not "${request.grace}"`);
      const { images, markers } = await media.run(graceMs);
      return [...images, ...markers];
    }
  }
}
