// A short tag of the versions package.json pins for some packages (every dependency is pinned
// exactly, and `npm ci` installs just those): the ETags of files the service makes from npm
// packages (the built-in basemaps' tiles and fonts) name it, so an upgrade changes them.
import { createHash } from 'node:crypto';
import fs from 'node:fs';

let pinned: Record<string, string> | undefined;

function pinnedVersion(name: string): string {
  if (!pinned) {
    const manifest = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    pinned = { ...manifest.devDependencies, ...manifest.dependencies } as Record<string, string>;
  }
  const version = pinned[name];
  if (!version) throw new Error(`${name} is not a dependency in package.json`);
  return version;
}

/** 12 URL-safe characters naming `schema` (bumped when our own making changes) and the packages' versions. */
export function versionTag(schema: string, packages: readonly string[]): string {
  const named = packages.map((name) => `${name}@${pinnedVersion(name)}`);
  return createHash('sha256').update(JSON.stringify([schema, ...named])).digest('base64url').slice(0, 12);
}
