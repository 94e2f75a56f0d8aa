// The service's one logger: pino writing JSON lines to stdout, one object per line
// ({"level":"info","time":"…","pid":…,"msg":"…", …fields}), for a log collector to parse.
// The API's access log, the Temporal SDK's workflow and activity logs (workers/logger.ts) and
// the start-up lines all go through it. The level is LOG_LEVEL, set once by each entry point
// (setLogLevel); until then `info`. Fields are snake_case (request_id, workflow_id, user_id,
// map_id, error_code). Never log secrets or personal data: API keys, passwords, session
// cookies, e-mail addresses, file contents. The paths below are redacted as a safety net only.
import pino, { type DestinationStream, type Level, type Logger } from 'pino';

export type LogLevel = Level | 'silent';

/** Fields that must never reach a log line, wherever a caller puts them (one level deep). */
const REDACTED = ['authorization', 'cookie', 'password', 'api_key', 'apiKey', 'token'].flatMap((name) => [name, `*.${name}`]);

const stdout = pino.destination({ dest: 1, sync: true });
let diverted: ((line: string) => void) | undefined;

/** Where the lines go: stdout, or a test's capture (divertLogs). */
const destination: DestinationStream = {
  write(line: string) {
    if (diverted) diverted(line);
    else stdout.write(line);
  },
};

/** An error as log fields: its kind, message, code and stack, and its causes (never its other properties, which may hold SQL parameters or request data). */
export function errorFields(error: unknown, depth = 0): Record<string, unknown> {
  // Errors, and their copies that come out of the workflow sandbox as plain objects.
  if (typeof error !== 'object' || error === null || typeof (error as { message?: unknown }).message !== 'string') {
    return { message: String(error) };
  }
  const { name, message, stack, code, type, cause } = error as { name?: unknown; message: string; stack?: unknown; code?: unknown; type?: unknown; cause?: unknown };
  return {
    ...(typeof name === 'string' ? { type: name } : {}),
    message,
    ...(typeof code === 'string' || typeof code === 'number' ? { code } : {}),
    // Temporal's ApplicationFailure: its type is our error code.
    ...(typeof type === 'string' ? { failure_type: type } : {}),
    ...(typeof stack === 'string' ? { stack } : {}),
    ...(cause !== undefined && cause !== null && depth < 3 ? { cause: errorFields(cause, depth + 1) } : {}),
  };
}

export const log: Logger = pino(
  {
    level: 'info',
    base: { pid: process.pid },
    // The time as a field a line may set itself (the Temporal SDK's lines carry when they were
    // made: they reach the logger up to a blocked event loop later).
    timestamp: false,
    mixin: () => ({ time: new Date().toISOString() }),
    formatters: { level: (label) => ({ level: label }) },
    serializers: { err: errorFields },
    redact: { paths: REDACTED, censor: '[redacted]' },
  },
  destination,
);

/** LOG_LEVEL: called once by each entry point (api/main.ts, workers/main.ts, scripts/start.ts). */
export function setLogLevel(level: LogLevel): void {
  log.level = level;
}

/**
 * Test hook: every line (a JSON text ending in a newline) goes to `write` instead of stdout
 * until the returned function is called. The logger itself is the real one.
 */
export function divertLogs(write: (line: string) => void): () => void {
  diverted = write;
  return () => {
    if (diverted === write) diverted = undefined;
  };
}
