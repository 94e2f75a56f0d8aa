// What the fault tests read back to judge a run: a map's features by title (every test file's
// features carry unique titles, so a feature written twice shows as a title counted twice), whether
// a map's counters agree with its rows, the request and stored files in the blob store, the orphan sweep,
// and the workflows Temporal holds, by type.
import fs from 'node:fs';
import path from 'node:path';
import type { Client } from '@temporalio/client';
import type { Db } from '../../db/connection.js';
import { REQUEST_PREFIXES, STORED_FILE_PREFIXES } from '../../lib/blobs/blobStore.js';

/** How many features of the map have each title. */
export async function titleCounts(db: Db, mapId: number): Promise<Map<string, number>> {
  const rows = await db('map_features').select(db.raw("feature::json->'properties'->>'title' as title")).where({ map_id: mapId });
  const counts = new Map<string, number>();
  for (const { title } of rows as { title: string }[]) counts.set(title, (counts.get(title) ?? 0) + 1);
  return counts;
}

/** Titles found more than once. */
export const duplicated = (counts: Map<string, number>): string[] => [...counts].filter(([, n]) => n > 1).map(([title, n]) => `${title} ×${n}`);

/** The map's counters and its rows: feature_count must equal the rows it has. */
export async function mapCounts(db: Db, mapId: number): Promise<{ featureCount: number; rows: number } | undefined> {
  const map = await db('maps').select('feature_count').where({ id: mapId }).first();
  if (!map) return undefined;
  const { n } = (await db('map_features').count('* as n').where({ map_id: mapId }).first()) as { n: number };
  return { featureCount: Number(map.feature_count), rows: Number(n) };
}

/** The files under these prefixes of a local blob store, as paths under it. */
function filesUnder(blobDir: string, prefixes: readonly string[]): string[] {
  return prefixes.flatMap((prefix) => {
    const dir = path.join(blobDir, prefix);
    return fs.existsSync(dir) ? fs.readdirSync(dir).map((name) => `${prefix}/${name}`) : [];
  });
}

/** Files of requests in the blob store (uploads, parsed documents, scratch files), as paths under it. */
export const requestFiles = (blobDir: string): string[] => filesUnder(blobDir, [...Object.values(REQUEST_PREFIXES), 'scratch']);

/** Stored files (image and marker derivatives, maps' static images), as paths under the blob store. */
export const storedFiles = (blobDir: string): string[] => filesUnder(blobDir, Object.values(STORED_FILE_PREFIXES));

/**
 * Runs the service's own orphan sweep (the `cleanup` workflow of the hourly schedule, on a worker)
 * as it would run a day later: the request files and stored files are dated back past its age
 * limits first.
 */
export async function sweepOrphansADayLater(client: Client, blobDir: string, taskQueue = 'maps'): Promise<number> {
  const dayAndAnHourAgo = new Date(Date.now() - 25 * 60 * 60 * 1000);
  for (const file of [...requestFiles(blobDir), ...storedFiles(blobDir)]) fs.utimesSync(path.join(blobDir, file), dayAndAnHourAgo, dayAndAnHourAgo);
  const result = await client.workflow.execute('cleanup', { taskQueue, workflowId: `cleanup-test-${Date.now()}`, args: [], workflowExecutionTimeout: '2 minutes' });
  return (result as { blobsRemoved: number }).blobsRemoved;
}

/** Workflow executions of each type Temporal lists (its visibility store catches up within moments). */
export async function workflowsByType(client: Client): Promise<Map<string, { ids: Set<string>; executions: number; notCompleted: string[] }>> {
  const types = new Map<string, { ids: Set<string>; executions: number; notCompleted: string[] }>();
  for await (const execution of client.workflow.list()) {
    const entry = types.get(execution.type) ?? { ids: new Set<string>(), executions: 0, notCompleted: [] };
    entry.ids.add(execution.workflowId);
    entry.executions++;
    if (execution.status.name !== 'COMPLETED' && execution.status.name !== 'RUNNING') entry.notCompleted.push(`${execution.workflowId}: ${execution.status.name}`);
    types.set(execution.type, entry);
  }
  return types;
}
