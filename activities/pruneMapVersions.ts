// The versions part of the hourly cleanup: deletes map versions past their retention (a map keeps
// its newest N and every version younger than D days; db/mapVersions.ts says why only the oldest
// can go). Answers how many were deleted.
import { pruneVersions } from '../db/mapVersions.js';
import type { VersionRetention } from '../lib/jobContracts.js';
import type { ActivityDeps } from './deps.js';

export function makePruneMapVersions({ db }: ActivityDeps) {
  return async function pruneMapVersions(retention: VersionRetention): Promise<number> {
    return pruneVersions(db, retention.keep, retention.keepDays);
  };
}
