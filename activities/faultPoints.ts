// Fault injection for the fault tests (test/faults/): named points in the activities where
// a worker process can be made to die as `kill -9` would kill it, or to stall, so a test can check
// what survives. TEST ONLY — never set these variables in production. Unset (as in production)
// every point is a no-op.
//
//   FAULT_POINT         after-staging | mid-parse | in-transaction | after-commit |
//                       media-files-stored | map-image-stored
//   FAULT_ACTION        exit: SIGKILL this process (default) | hang: stop there, then go on
//   FAULT_HANG_SECONDS  how long `hang` stops (default 30)
//
// The points an import passes. The activities that write while they parse (uploadDuringParse,
// appendDuringParse, the way every upload and append goes now):
//   mid-parse       in the parser thread, once the first feature is written
//   in-transaction  every feature row sent into the COPY, nothing committed (on PGlite the rows
//                   are gathered before the transaction opens: there, nothing is open yet)
//   after-staging   uploadDuringParse: the file is parsed whole, its rows in the COPY, nothing
//                   committed (the parse's output is still a scratch file); appendDuringParse
//                   only when it falls back to the other way (media or group ids the map has)
//   after-commit    the transaction committed; the activity has not returned
// The other way (parseFile, then createMap/appendToMap; histories from before the patches, the
// fall-backs): mid-parse; after-staging, the parsed document file stored in the blob store and
// parseFile not returned; in-transaction and after-commit in createMap/appendToMap.
// and in the stored files' activities:
//   media-files-stored  an image's or a marker's resized files are in the blob store, its row not written
//   map-image-stored    a map's new static image and thumbnail are in the blob store, not recorded on the map
//
// A point fires once per process (per parser thread for mid-parse) and says so on stderr first
// (`fault point "…" reached …`), which the tests wait for. These variables are read here, not
// in lib/config.ts: they are no setting of the service, and must never appear among its options.
import fs from 'node:fs';
import { z } from 'zod';

/** The points an import passes, in order. */
export const IMPORT_FAULT_POINTS = ['after-staging', 'mid-parse', 'in-transaction', 'after-commit'] as const;
export const FAULT_POINTS = [...IMPORT_FAULT_POINTS, 'media-files-stored', 'map-image-stored'] as const;
export type ImportFaultPointName = (typeof IMPORT_FAULT_POINTS)[number];
export type FaultPointName = (typeof FAULT_POINTS)[number];

const faultEnv = z.object({
  FAULT_POINT: z.enum(FAULT_POINTS).optional(),
  FAULT_ACTION: z.enum(['exit', 'hang']).default('exit'),
  FAULT_HANG_SECONDS: z.coerce.number().positive().default(30),
});

function readFaultEnv(): z.infer<typeof faultEnv> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name, value]) => name.startsWith('FAULT_') && value !== ''));
  const parsed = faultEnv.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`Invalid fault injection variable ${String(issue.path[0])} (test only): ${issue.message}`);
  }
  return parsed.data;
}

const settings = readFaultEnv();
let fired = false;

/** Whether `name` is the point armed in this process (and has not fired yet). */
const armed = (name: FaultPointName): boolean => settings.FAULT_POINT === name && !fired;

function announce(name: FaultPointName, what: string): void {
  fired = true;
  // Synchronous: the line must be out before a SIGKILL.
  fs.writeSync(2, `fault point "${name}" reached in process ${process.pid}: ${what}\n`);
}

/** The fault point `name` of an activity: no-op unless armed; exits (SIGKILL) or stalls there. */
export async function faultPoint(name: FaultPointName): Promise<void> {
  if (!armed(name)) return;
  if (settings.FAULT_ACTION === 'exit') {
    announce(name, 'exit (SIGKILL)');
    process.kill(process.pid, 'SIGKILL');
  }
  announce(name, `hanging for ${settings.FAULT_HANG_SECONDS} s`);
  await new Promise((resolve) => setTimeout(resolve, settings.FAULT_HANG_SECONDS * 1000));
}

/** The same, for synchronous code (the parser thread): a hang blocks the thread. */
export function faultPointSync(name: FaultPointName): void {
  if (!armed(name)) return;
  if (settings.FAULT_ACTION === 'exit') {
    announce(name, 'exit (SIGKILL)');
    process.kill(process.pid, 'SIGKILL');
  }
  announce(name, `hanging for ${settings.FAULT_HANG_SECONDS} s`);
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, settings.FAULT_HANG_SECONDS * 1000);
}

/** A feature sink that passes the point `mid-parse` after its first feature (the sink itself when not armed). */
export function faultingSink<S extends { add(...args: never[]): void; readonly count: number }>(sink: S): S {
  if (!armed('mid-parse')) return sink;
  return {
    add(...args: Parameters<S['add']>) {
      sink.add(...args);
      faultPointSync('mid-parse');
    },
    get count() {
      return sink.count;
    },
  } as unknown as S;
}

/** Row lines that pass the point `in-transaction` once all of them are sent (the lines themselves when not armed). */
export function faultAfterLines<T>(lines: AsyncIterable<T> | Iterable<T>): AsyncIterable<T> | Iterable<T> {
  if (!armed('in-transaction')) return lines;
  return (async function* () {
    yield* lines;
    await faultPoint('in-transaction');
  })();
}
