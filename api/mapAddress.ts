// A map's address, `/{owner}/{short name}`, as the page and the files under it read it: the map
// when the caller may see it, or, for a short name the map had before a rename, where it is now
// (shown only to callers who may see the map: an old address never reveals a private map's new one).
import type { Db } from '../db/connection.js';
import { findMapImageByAddress, findRenamedMap } from '../db/maps.js';
import { maySee } from '../lib/access.js';
import { mapPath } from '../lib/mapSummary.js';

type Found = NonNullable<Awaited<ReturnType<typeof findMapImageByAddress>>>;

export type AddressLookup = { kind: 'map'; found: Found } | { kind: 'moved'; path: string; found: Found } | { kind: 'none' };

export async function lookUpMapAddress(db: Db, owner: string, shortName: string, userId: number | null): Promise<AddressLookup> {
  const found = await findMapImageByAddress(db, owner, shortName, userId);
  if (found) return maySee(found, userId) ? { kind: 'map', found } : { kind: 'none' };
  const renamed = await findRenamedMap(db, owner, shortName);
  if (!renamed) return { kind: 'none' };
  const moved = await findMapImageByAddress(db, owner, renamed.shortName, userId);
  return moved && maySee(moved, userId) ? { kind: 'moved', path: mapPath(moved.map), found: moved } : { kind: 'none' };
}

/**
 * Sends the browser on to a renamed map's address (Koa's 302, not 301: a later map of the owner's may
 * take the old short name, and a permanent redirect would stay in browsers' caches), keeping the
 * file part and the query.
 */
export function redirectToMoved(ctx: { redirect(url: string): void; querystring: string }, path: string, rest = ''): void {
  ctx.redirect(`${path}${rest}${ctx.querystring ? `?${ctx.querystring}` : ''}`);
}
