// `npm run --silent admin -- <command> [options]`: operator commands (see lib/adminCommands.ts).
// With a running embedded service the command is handed to it (PGlite belongs to that
// process); otherwise the CLI opens the database itself.
import { parseArgs } from 'node:util';
import { Client, Connection } from '@temporalio/client';
import { openDatabase } from '../db/open.js';
import { ADMIN_USAGE, runAdminCommand } from '../lib/adminCommands.js';
import { ConfigError, loadConfig } from '../lib/config.js';
import { AppError } from '../lib/errors.js';
import { readEmbeddedState } from './embeddedState.js';
import { accountRepository } from '../db/accounts.js';
import { mediaCleanupRunner } from '../workers/schedules.js';

async function viaService(url: string, token: string, request: object): Promise<string[]> {
  const response = await fetch(`${url}/internal/admin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-operator-token': token },
    body: JSON.stringify(request),
  });
  const body = (await response.json()) as { lines?: string[]; error?: string; error_code?: string };
  if (body.error) throw new AppError((body.error_code ?? 'internal_error') as AppError['code'], body.error);
  return body.lines ?? [];
}

async function main(): Promise<number> {
  const [command, ...rest] = process.argv.slice(2);
  if (!command || command === 'help' || command === '--help') {
    console.log(ADMIN_USAGE);
    return command ? 0 : 2;
  }
  const { values } = parseArgs({
    args: rest,
    options: {
      username: { type: 'string' },
      email: { type: 'string' },
      password: { type: 'string' },
      verified: { type: 'boolean' },
      name: { type: 'string' },
      'key-prefix': { type: 'string' },
      grace: { type: 'string' },
      kind: { type: 'string' },
      key: { type: 'string' },
    },
    strict: true,
  });
  const request = { command, ...values };
  const config = loadConfig();
  const running = config.databaseUrl ? undefined : readEmbeddedState(config.dataDir);
  let lines: string[];
  if (running) {
    lines = await viaService(running.url, running.token, request);
  } else {
    const db = await openDatabase(config);
    const temporal = command === 'media-gc' && config.temporalAddress ? await Connection.connect({ address: config.temporalAddress }) : undefined;
    try {
      const media = temporal && mediaCleanupRunner(async () => new Client({ connection: temporal, namespace: config.temporalNamespace }), config);
      lines = await runAdminCommand(accountRepository(db), request, media);
    } finally {
      await temporal?.close();
      await db.destroy();
    }
  }
  for (const line of lines) console.log(line);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    if (error instanceof AppError || error instanceof ConfigError) console.error(`Error: ${error.message}`);
    else if (error instanceof TypeError && /option|argument/i.test(error.message)) console.error(`Error: ${error.message}\n\n${ADMIN_USAGE}`);
    else console.error(error);
    process.exit(1);
  },
);
