// The shape of blob keys, shared by every BlobStore: `<prefix>/<uuid>`, made by the stores
// themselves. Refusing any other key keeps a key from naming another file or object.
import { randomUUID } from 'node:crypto';

const KEY_PATTERN = /^[a-z0-9-]+\/[0-9a-f-]{36}$/;
const PREFIX_PATTERN = /^[a-z0-9-]+$/;
/** A blob's own name under its prefix (the uuid). */
export const ENTRY_NAME = /^[0-9a-f-]{36}$/;

export function checkedKey(key: string): string {
  if (!KEY_PATTERN.test(key)) throw new Error(`not a blob key: ${key.slice(0, 80)}`);
  return key;
}

export function checkedPrefix(prefix: string): string {
  if (!PREFIX_PATTERN.test(prefix)) throw new Error(`not a blob prefix: ${prefix.slice(0, 80)}`);
  return prefix;
}

export const newKey = (prefix: string): string => `${checkedPrefix(prefix)}/${randomUUID()}`;
