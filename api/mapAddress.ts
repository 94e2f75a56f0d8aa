// A map's address, `/{owner}/{short name}` (an unlisted map's `/{owner}/{short name}~{link key}`),
// as the page and the files under it read it: the map when the caller may see it at this address,
// or where it is now, for an address that is not the map's current one — a short name it had
// before a rename, the plain address of an unlisted map asked for by its owner or someone it names, an
// address with a key of a map that is no longer unlisted. The way on is shown only to callers who
// may see the map: an old address never reveals a private map's new one, and never hands out an
// unlisted map's key to someone whose address did not carry it.
import type { Db } from '../db/connection.js';
import { findMapImageByAddress, findMapWithRole, findRenamedMap } from '../db/maps.js';
import { maySee } from '../lib/access.js';
import { keyedName, splitKeyedName } from '../lib/linkKeys.js';
import { mapPath, readMapRef } from '../lib/mapSummary.js';

type Found = NonNullable<Awaited<ReturnType<typeof findMapImageByAddress>>>;

export type AddressLookup = { kind: 'map'; found: Found } | { kind: 'moved'; path: string; found: Found } | { kind: 'none' };

/** `segment`: the address's second part as the router decoded it, the short name and any `~{link key}`. */
export async function lookUpMapAddress(db: Db, owner: string, segment: string, userId: number | null): Promise<AddressLookup> {
  const asked = splitKeyedName(segment);
  if (!asked) return { kind: 'none' };
  const seen = (found: Found | undefined, current: boolean): AddressLookup => {
    if (!found || !maySee(found, userId, asked.key)) return { kind: 'none' };
    return current && segment === keyedName(found.map.shortName, found.map.linkKey) ? { kind: 'map', found } : { kind: 'moved', path: mapPath(found.map), found };
  };
  const found = await findMapImageByAddress(db, owner, asked.name, userId);
  if (found) return seen(found, true);
  const renamed = await findRenamedMap(db, owner, asked.name);
  return renamed ? seen(await findMapImageByAddress(db, owner, renamed.shortName, userId), false) : { kind: 'none' };
}

/**
 * Sends the browser on to a map's current address (Koa's 302, not 301: a later map of the
 * owner's may take the old short name, an unlisted map's key changes when it is shared anew, and
 * a permanent redirect would stay in browsers' caches), keeping the file part and the query.
 */
export function redirectToMoved(ctx: { redirect(url: string): void; querystring: string }, path: string, rest = ''): void {
  ctx.redirect(`${path}${rest}${ctx.querystring ? `?${ctx.querystring}` : ''}`);
}

/**
 * The map `/embed/{ref}` and `/maps/{ref}/…` name (`ref`: its id, an unlisted map's with
 * `~{link key}`: lib/mapSummary.ts mapRef), with the caller's role in it, when the caller may see
 * it; undefined otherwise (no such map, or one the caller may not see).
 */
export async function findSeenMapByRef(db: Db, ref: string | undefined, userId: number | null) {
  const asked = readMapRef(ref);
  const found = asked ? await findMapWithRole(db, asked.id, userId ?? 0) : undefined;
  return found && maySee(found, userId, asked?.key) ? found : undefined;
}
